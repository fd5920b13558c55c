import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, Card, Code, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { totpCodeSchema, type Profile, type TotpCode } from '@contract/profile';
import { ApiErrorAlert } from '../../../components/ui/api-error-alert';
import { useConfirmTotp, useDisableTotp, useRegenerateRecoveryCodes, useStartTotp } from '../api';
import { CodeField } from './code-field';
import { RecoveryCodes } from './recovery-codes';

/**
 * Two-factor sign-in: set it up (QR code, the key to type, a code to confirm), then the
 * recovery codes once; when on, new recovery codes or turning it off, each for a current code.
 */
export function TwoFactorCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const [codes, setCodes] = useState<string[] | null>(null);
  const { totp } = profile;
  const requiredNote =
    totp.required === 'role'
      ? t('profile.totp.requiredByRole')
      : totp.required === 'account'
        ? t('profile.totp.requiredByAccount')
        : null;

  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="totp-title">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h3" id="totp-title">
            {t('profile.totp.title')}
          </Title>
          <Badge color={totp.enabled ? 'green' : 'gray'} variant="light" size="lg">
            {totp.enabled ? t('profile.totp.on') : t('profile.totp.off')}
          </Badge>
        </Group>
        {requiredNote ? <Text size="sm">{requiredNote}</Text> : null}
        {codes ? (
          <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
        ) : totp.enabled ? (
          <EnabledTotp profile={profile} onCodes={setCodes} />
        ) : (
          <Enrolment onConfirmed={setCodes} />
        )}
      </Stack>
    </Card>
  );
}

function useCodeForm() {
  return useForm<TotpCode>({ resolver: zodResolver(totpCodeSchema), defaultValues: { code: '' } });
}

function Enrolment({ onConfirmed }: { onConfirmed: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const form = useCodeForm();
  const enrolment = start.data;

  if (!enrolment) {
    return (
      <Stack gap="sm" align="flex-start">
        <Text>{t('profile.totp.offSummary')}</Text>
        <ApiErrorAlert error={start.error} />
        <Button onClick={() => start.mutate()} loading={start.isPending}>
          {t('profile.totp.start')}
        </Button>
      </Stack>
    );
  }
  const submit = form.handleSubmit(({ code }) =>
    confirm.mutate(code, { onSuccess: (confirmed) => onConfirmed(confirmed.recoveryCodes) }),
  );
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Text>{t('profile.totp.scan')}</Text>
        <Image
          src={enrolment.qrCode}
          alt={t('profile.totp.qrAlt')}
          w={200}
          h={200}
          fit="contain"
          data-testid="totp-qr"
        />
        <Text size="sm">{t('profile.totp.manual')}</Text>
        <Code
          block
          fz="sm"
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          data-testid="totp-secret"
        >
          {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
        </Code>
        <CodeField registration={form.register('code')} error={!!form.formState.errors.code} />
        <ApiErrorAlert error={confirm.error} />
        <Group gap="sm">
          <Button type="submit" loading={confirm.isPending}>
            {t('profile.totp.confirm')}
          </Button>
          <Button variant="default" onClick={() => start.reset()}>
            {t('profile.totp.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function EnabledTotp({
  profile,
  onCodes,
}: {
  profile: Profile;
  onCodes: (codes: string[]) => void;
}) {
  const { t } = useTranslation();
  const [action, setAction] = useState<'regenerate' | 'disable' | null>(null);
  const regenerate = useRegenerateRecoveryCodes();
  const disable = useDisableTotp();
  const form = useCodeForm();
  const mutation = action === 'disable' ? disable : regenerate;
  const submit = form.handleSubmit(({ code }) => {
    if (action === 'disable') disable.mutate(code, { onSuccess: () => setAction(null) });
    else regenerate.mutate(code, { onSuccess: (answer) => onCodes(answer.recoveryCodes) });
  });
  const open = (next: 'regenerate' | 'disable') => {
    regenerate.reset();
    disable.reset();
    form.reset();
    setAction(next);
  };

  return (
    <Stack gap="sm">
      <Text>{t('profile.totp.onSummary', { count: profile.totp.recoveryCodesLeft })}</Text>
      {action ? (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="sm">
            <Text size="sm">
              {action === 'disable'
                ? t('profile.totp.disableHint')
                : t('profile.totp.regenerateHint')}
            </Text>
            <CodeField registration={form.register('code')} error={!!form.formState.errors.code} />
            <ApiErrorAlert error={mutation.error} />
            <Group gap="sm">
              <Button
                type="submit"
                color={action === 'disable' ? 'red' : undefined}
                loading={mutation.isPending}
              >
                {action === 'disable' ? t('profile.totp.disable') : t('profile.totp.regenerate')}
              </Button>
              <Button variant="default" onClick={() => setAction(null)}>
                {t('profile.totp.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Group gap="sm">
          <Button variant="light" onClick={() => open('regenerate')}>
            {t('profile.totp.regenerate')}
          </Button>
          {profile.totp.required === null ? (
            <Button variant="light" color="red" onClick={() => open('disable')}>
              {t('profile.totp.disable')}
            </Button>
          ) : null}
        </Group>
      )}
    </Stack>
  );
}
