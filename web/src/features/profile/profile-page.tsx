import { Alert, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { usePageTitle } from '../../lib/use-page-title';
import { useProfile } from './api';
import { AccountTwoFactorCard } from './components/account-two-factor-card';
import { DetailsCard } from './components/details-card';
import { PasswordCard } from './components/password-card';
import { SessionsCard } from './components/sessions-card';
import { TwoFactorCard } from './components/two-factor-card';

/**
 * The signed-in person's own page, for every role: details, password, two-factor sign-in,
 * sessions; for owners, the account's two-factor switch. Someone who must enrol lands here
 * and can open nothing else until they have.
 */
export function ProfilePage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.profile.title'));
  const profile = useProfile();
  const data = profile.data;
  const mustEnrol = data ? data.totp.required !== null && !data.totp.enabled : false;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.profile.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('areas.profile.summary')}
        </Text>
      </div>
      <ApiErrorAlert error={profile.error} />
      {mustEnrol ? (
        <Alert color="orange" role="alert" title={t('profile.totp.title')}>
          {t('profile.enrolFirst')}
        </Alert>
      ) : null}
      {data ? (
        <>
          <TwoFactorCard profile={data} />
          {data.role === 'owner' ? <AccountTwoFactorCard profile={data} /> : null}
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <DetailsCard profile={data} />
            <PasswordCard />
          </SimpleGrid>
          <SessionsCard />
        </>
      ) : profile.isPending ? (
        <Text c="dimmed">{t('app.loading')}</Text>
      ) : null}
    </Stack>
  );
}
