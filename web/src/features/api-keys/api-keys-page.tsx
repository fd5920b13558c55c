import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  API_KEY_SCOPES,
  createApiKeyBodySchema,
  type ApiKey,
  type CreateApiKeyBody,
  type CreatedApiKey,
} from '@contract/keys';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useFormatDate } from '../../lib/use-format-date';
import { usePageTitle } from '../../lib/use-page-title';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from './api';

/** The owner's API keys: create one (its secret shown once), list them, revoke one. */
export function ApiKeysPage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.apiKeys.title'));
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t('areas.apiKeys.title')}</Title>
          <Text c="dimmed" mt="xs">
            {t('areas.apiKeys.summary')}
          </Text>
        </div>
        <Button onClick={() => setCreating(true)}>{t('apiKeys.create')}</Button>
      </Group>
      <ApiErrorAlert error={keys.error} />
      {keys.data ? (
        <KeysTable keys={keys.data.data} onRevoke={setRevoking} />
      ) : keys.isPending ? (
        <Text c="dimmed">{t('app.loading')}</Text>
      ) : null}
      <CreateKeyModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
        }}
      />
      <SecretModal created={created} onClose={() => setCreated(null)} />
      <RevokeModal apiKey={revoking} onClose={() => setRevoking(null)} />
    </Stack>
  );
}

function KeysTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  if (keys.length === 0) return <Text>{t('apiKeys.none')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped verticalSpacing="sm" aria-label={t('apiKeys.tableLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('apiKeys.name')}</Table.Th>
            <Table.Th>{t('apiKeys.prefix')}</Table.Th>
            <Table.Th>{t('apiKeys.scopes')}</Table.Th>
            <Table.Th>{t('apiKeys.created')}</Table.Th>
            <Table.Th>{t('apiKeys.lastUsed')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('apiKeys.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => (
            <Table.Tr key={key.id}>
              <Table.Td>{key.name}</Table.Td>
              <Table.Td>
                <Code>{`nok_${key.prefix}_…`}</Code>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {key.scopes.map((scope) => (
                    <Badge key={scope} variant="light" tt="none">
                      {scope}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{formatDate(key.createdAt)}</Table.Td>
              <Table.Td>
                {key.lastUsedAt ? formatDate(key.lastUsedAt) : t('apiKeys.never')}
              </Table.Td>
              <Table.Td>
                {key.revokedAt ? (
                  <Badge color="gray" variant="outline">
                    {t('apiKeys.revokedOn', { date: formatDate(key.revokedAt, 'date') })}
                  </Badge>
                ) : (
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    onClick={() => onRevoke(key)}
                    aria-label={t('apiKeys.revokeNamed', { name: key.name })}
                  >
                    {t('apiKeys.revoke')}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function CreateKeyModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateApiKey();
  const form = useForm<CreateApiKeyBody>({
    resolver: zodResolver(createApiKeyBodySchema),
    defaultValues: { name: '', scopes: ['sms:send'] },
  });
  const close = () => {
    form.reset();
    create.reset();
    onClose();
  };
  const submit = form.handleSubmit((body) =>
    create.mutate(body, {
      onSuccess: (key) => {
        form.reset();
        onCreated(key);
      },
    }),
  );
  const { errors } = form.formState;
  return (
    <Modal opened={opened} onClose={close} title={t('apiKeys.createTitle')}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <ApiErrorAlert error={create.error} />
          <TextInput
            label={t('apiKeys.name')}
            description={t('apiKeys.nameHint')}
            required
            data-autofocus
            error={errors.name ? t('apiKeys.nameInvalid') : undefined}
            {...form.register('name')}
          />
          <Controller
            control={form.control}
            name="scopes"
            render={({ field }) => (
              <Checkbox.Group
                label={t('apiKeys.scopes')}
                required
                value={field.value}
                onChange={(value) => field.onChange(value)}
                error={errors.scopes ? t('apiKeys.scopesRequired') : undefined}
              >
                <Stack gap="xs" mt="xs">
                  {API_KEY_SCOPES.map((scope) => (
                    <Checkbox
                      key={scope}
                      value={scope}
                      label={<Code>{scope}</Code>}
                      description={t(`apiKeys.scopeHelp.${scope}`)}
                    />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('apiKeys.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('apiKeys.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The whole key, this once: the server keeps only its hash. */
function SecretModal({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={created !== null}
      onClose={onClose}
      title={t('apiKeys.secretTitle')}
      closeOnClickOutside={false}
    >
      {created ? (
        <Stack gap="md">
          <Alert color="yellow" title={t('apiKeys.secretOnce')}>
            {t('apiKeys.secretHint')}
          </Alert>
          <TextInput
            label={t('apiKeys.secretLabel', { name: created.apiKey.name })}
            value={created.secret}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            styles={{ input: { fontFamily: 'monospace' } }}
            data-testid="api-key-secret"
          />
          <Group justify="space-between">
            <CopyButton value={created.secret}>
              {({ copied, copy }) => (
                <Button color={copied ? 'teal' : 'blue'} onClick={copy}>
                  {copied ? t('apiKeys.copied') : t('apiKeys.copy')}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={onClose}>
              {t('apiKeys.secretDone')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

function RevokeModal({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const revoke = useRevokeApiKey();
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <Modal opened={apiKey !== null} onClose={close} title={t('apiKeys.revokeTitle')}>
      {apiKey ? (
        <Stack gap="md">
          <ApiErrorAlert error={revoke.error} />
          <Text>{t('apiKeys.revokeConfirm', { name: apiKey.name, prefix: apiKey.prefix })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('apiKeys.cancel')}
            </Button>
            <Button
              color="red"
              loading={revoke.isPending}
              onClick={() => revoke.mutate(apiKey.id, { onSuccess: close })}
            >
              {t('apiKeys.revoke')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
