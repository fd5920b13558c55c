import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatDate } from '../../lib/use-format-date';
import { useLastShown } from './parts';

/** A secret to show: just made with its endpoint, asked for, or made by a rotation. */
export interface ShownSecret {
  readonly kind: 'created' | 'revealed' | 'rotated';
  readonly url: string;
  readonly secret: string;
  /** A rotation's: until when the old secret still signs beside this one. */
  readonly previousSecretUntil?: string | null;
}

/** An endpoint's signing secret (`whsec_…`), to copy into the receiver. */
export function SecretModal({
  shown: current,
  onClose,
}: {
  shown: ShownSecret | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const shown = useLastShown(current);
  return (
    <Modal
      opened={current !== null}
      onClose={onClose}
      title={shown ? t(`webhooks.secret.title.${shown.kind}`) : ''}
      closeOnClickOutside={false}
      size="lg"
    >
      {shown ? (
        <Stack gap="md">
          {shown.kind === 'rotated' ? (
            <Alert color="yellow" title={t('webhooks.secret.rotatedTitle')}>
              {shown.previousSecretUntil
                ? t('webhooks.secret.rotatedHint', { date: formatDate(shown.previousSecretUntil) })
                : t('webhooks.secret.rotatedNoOverlap')}
            </Alert>
          ) : (
            <Text size="sm">{t('webhooks.secret.hint')}</Text>
          )}
          <TextInput
            label={t('webhooks.secret.label', { url: shown.url })}
            value={shown.secret}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            // Tall enough for the underscore of whsec_, which a monospace font draws low.
            styles={{ input: { fontFamily: 'monospace', height: 'auto', lineHeight: 2 } }}
            data-testid="webhook-secret"
          />
          <Group justify="space-between">
            <CopyButton value={shown.secret}>
              {({ copied, copy }) => (
                <Button color={copied ? 'teal' : 'blue'} onClick={copy}>
                  {copied ? t('webhooks.secret.copied') : t('webhooks.secret.copy')}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={onClose}>
              {t('webhooks.secret.done')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
