import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import {
  SENDER_NAME_MAX,
  senderRequestFormSchema,
  type SenderList,
  type SenderRequestDetail,
  type SenderRequestForm,
} from '@contract/senders';
import { useState } from 'react';
import { useForm, type Control, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSubmitSenderRequest } from '../api/sender-requests';
import { DetailsFields, type DetailsValues } from './details-fields';
import { DocumentsInput } from './documents-input';

/**
 * A new sender name: the name (the spec's rule, from the contract), purpose, sample messages,
 * company registration number and documents. Validated with the contract's zod schema, the
 * same the server validates the `request` part with.
 */
export function RequestForm({
  limits,
  onSubmitted,
}: {
  limits: SenderList['documentLimits'];
  onSubmitted: (request: SenderRequestDetail) => void;
}) {
  const { t } = useTranslation();
  const submit = useSubmitSenderRequest();
  const [files, setFiles] = useState<File[]>([]);
  const [filesError, setFilesError] = useState<string>();
  const form = useForm<SenderRequestForm>({
    resolver: zodResolver(senderRequestFormSchema),
    defaultValues: { name: '', purpose: 'otp', sampleMessages: [''], registrationNumber: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    if (files.length === 0) {
      setFilesError(t('senders.form.documentsRequired'));
      return;
    }
    setFilesError(undefined);
    submit.mutate(
      { form: { ...values, sampleMessages: values.sampleMessages.filter((s) => s.trim()) }, files },
      { onSuccess: onSubmitted },
    );
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md" maw={640}>
        {submit.isError ? (
          <Alert color="red" role="alert" title={t('senders.form.refused')}>
            {submit.error.message}
          </Alert>
        ) : null}
        <TextInput
          label={t('senders.fields.name')}
          description={t('senders.form.nameHint', { count: SENDER_NAME_MAX })}
          required
          autoComplete="off"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          error={errors.name?.message}
          {...form.register('name')}
        />
        <DetailsFields
          control={form.control as unknown as Control<DetailsValues>}
          register={form.register as unknown as UseFormRegister<DetailsValues>}
          errors={errors}
          initialSamples={1}
        />
        <DocumentsInput
          files={files}
          onChange={setFiles}
          limits={limits}
          required
          error={filesError}
        />
        <Group>
          <Button type="submit" loading={submit.isPending}>
            {t('senders.form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
