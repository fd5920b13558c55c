import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@contract/profile';
import { ApiErrorAlert } from '../../../components/ui/api-error-alert';
import { useSetAccountRequiresTotp } from '../api';

/** The owner's switch: everyone in the account must sign in with two factors. */
export function AccountTwoFactorCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const set = useSetAccountRequiresTotp();
  const required = profile.accountRequiresTotp ?? false;
  // Requiring it needs one's own first (the server refuses otherwise); turning it off never does.
  const locked = !required && !profile.totp.enabled;
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="require-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="require-title">
          {t('profile.requireTotp.title')}
        </Title>
        <Switch
          label={t('profile.requireTotp.label')}
          description={locked ? t('profile.requireTotp.needOwn') : t('profile.requireTotp.hint')}
          checked={required}
          disabled={locked || set.isPending}
          onChange={(event) => set.mutate(event.currentTarget.checked)}
        />
        <ApiErrorAlert error={set.error} />
        {set.isSuccess ? (
          <Text size="sm" c="dimmed" role="status">
            {t('profile.details.saved')}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
