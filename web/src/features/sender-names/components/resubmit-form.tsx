import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import {
  resubmitFormSchema,
  type ResubmitForm as ResubmitValues,
  type SenderList,
  type SenderRequestDetail,
} from '@contract/senders';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useResubmitSenderRequest } from '../api/sender-requests';
import { DetailsFields } from './details-fields';
import { DocumentsInput } from './documents-input';

/** After a reviewer asked for changes: the details again, and any new documents. */
export function ResubmitForm({
  request,
  limits,
}: {
  request: SenderRequestDetail;
  limits: SenderList['documentLimits'];
}) {
  const { t } = useTranslation();
  const resubmit = useResubmitSenderRequest(request.id);
  const [files, setFiles] = useState<File[]>([]);
  const form = useForm<ResubmitValues>({
    resolver: zodResolver(resubmitFormSchema),
    defaultValues: {
      purpose: request.purpose,
      sampleMessages: request.sampleMessages,
      registrationNumber: request.registrationNumber,
    },
  });
  const onSubmit = form.handleSubmit((values) =>
    resubmit.mutate({
      form: { ...values, sampleMessages: values.sampleMessages.filter((s) => s.trim()) },
      files,
    }),
  );
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md" maw={640}>
        <Title order={2}>{t('senders.resubmit.title')}</Title>
        {resubmit.isError ? (
          <Alert color="red" role="alert" title={t('senders.form.refused')}>
            {resubmit.error.message}
          </Alert>
        ) : null}
        <DetailsFields
          control={form.control}
          register={form.register}
          errors={form.formState.errors}
          initialSamples={request.sampleMessages.length}
        />
        <DocumentsInput files={files} onChange={setFiles} limits={limits} required={false} />
        <Group>
          <Button type="submit" loading={resubmit.isPending}>
            {t('senders.resubmit.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
