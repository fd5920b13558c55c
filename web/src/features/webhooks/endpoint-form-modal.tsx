import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Checkbox, Code, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
  webhookEventTypeSchema,
  type CreatedWebhook,
  type WebhookEndpointView,
  type WebhookList,
} from '@contract/webhooks';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useCreateWebhook, useUpdateWebhook } from './api';

/** An absolute http(s) URL without a user or password, as the server accepts it. */
function isEndpointUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password
    );
  } catch {
    return false;
  }
}

const formSchema = z.object({
  url: z.string().trim().min(1).max(WEBHOOK_URL_MAX).refine(isEndpointUrl),
  description: z
    .string()
    .trim()
    .refine((text) => [...text].length <= WEBHOOK_DESCRIPTION_MAX),
  eventTypes: z.array(webhookEventTypeSchema).min(1),
});
type EndpointForm = z.infer<typeof formSchema>;

const ALL: EndpointForm['eventTypes'] = [...WEBHOOK_EVENT_TYPES];

/**
 * Adds an endpoint (`endpoint` null) or changes one: its URL, description and the event types
 * it receives, each with what it reports; every box ticked (the default) sends no list, which
 * the server reads as every type, those added later too.
 */
export function EndpointFormModal({
  opened,
  endpoint,
  eventTypes,
  onClose,
  onCreated,
}: {
  opened: boolean;
  endpoint: WebhookEndpointView | null;
  eventTypes: WebhookList['eventTypes'];
  onClose: () => void;
  onCreated: (created: CreatedWebhook) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const mutation = endpoint ? update : create;
  const form = useForm<EndpointForm>({
    resolver: zodResolver(formSchema),
    defaultValues: { url: '', description: '', eventTypes: ALL },
  });
  const { reset } = form;
  // Each opening starts from the endpoint as it is now (or from an empty form).
  useEffect(() => {
    if (!opened) return;
    reset({
      url: endpoint?.url ?? '',
      description: endpoint?.description ?? '',
      eventTypes: endpoint && endpoint.eventTypes.length > 0 ? [...endpoint.eventTypes] : ALL,
    });
  }, [opened, endpoint, reset]);

  const close = () => {
    create.reset();
    update.reset();
    onClose();
  };
  const submit = form.handleSubmit((values) => {
    const body = {
      url: values.url,
      description: values.description,
      eventTypes: values.eventTypes.length === ALL.length ? [] : values.eventTypes,
    };
    if (endpoint) {
      update.mutate({ endpointUid: endpoint.id, body }, { onSuccess: close });
    } else {
      create.mutate(body, {
        onSuccess: (created) => {
          close();
          onCreated(created);
        },
      });
    }
  });
  const { errors } = form.formState;
  const describe = (type: EndpointForm['eventTypes'][number]) =>
    t(`webhooks.eventTypes.${type}`, {
      defaultValue: eventTypes.find((e) => e.type === type)?.description ?? '',
    });

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t(endpoint ? 'webhooks.form.editTitle' : 'webhooks.form.addTitle')}
      size="lg"
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <ApiErrorAlert error={mutation.error} />
          <TextInput
            label={t('webhooks.form.url')}
            description={t('webhooks.form.urlHint')}
            placeholder="https://example.com/nok/webhooks"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            required
            data-autofocus
            error={errors.url ? t('webhooks.form.urlInvalid') : undefined}
            {...form.register('url')}
          />
          <Textarea
            label={t('webhooks.form.description')}
            description={t('webhooks.form.descriptionHint')}
            autosize
            minRows={1}
            maxRows={4}
            error={
              errors.description
                ? t('webhooks.form.descriptionTooLong', { count: WEBHOOK_DESCRIPTION_MAX })
                : undefined
            }
            {...form.register('description')}
          />
          <Controller
            control={form.control}
            name="eventTypes"
            render={({ field }) => (
              <Checkbox.Group
                label={t('webhooks.form.eventTypes')}
                description={t('webhooks.form.eventTypesHint')}
                required
                value={field.value}
                onChange={(value) => field.onChange(value)}
                error={errors.eventTypes ? t('webhooks.form.eventTypesRequired') : undefined}
              >
                <Stack gap="xs" mt="xs">
                  {WEBHOOK_EVENT_TYPES.map((type) => (
                    <Checkbox
                      key={type}
                      value={type}
                      label={<Code>{type}</Code>}
                      description={describe(type)}
                    />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('webhooks.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {t(endpoint ? 'webhooks.form.save' : 'webhooks.form.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
