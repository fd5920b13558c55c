import { Button, Group, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { MAX_SAMPLE_MESSAGE_CHARS, MAX_SAMPLE_MESSAGES, SENDER_PURPOSES } from '@contract/senders';
import { useState } from 'react';
import { Controller, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** The fields a request and a resubmission share (the contract's senderRequestDetailsSchema). */
export interface DetailsValues {
  purpose: (typeof SENDER_PURPOSES)[number];
  sampleMessages: string[];
  registrationNumber: string;
}

export function DetailsFields({
  control,
  register,
  errors,
  initialSamples,
}: {
  control: Control<DetailsValues>;
  register: UseFormRegister<DetailsValues>;
  errors: FieldErrors<DetailsValues>;
  initialSamples: number;
}) {
  const { t } = useTranslation();
  const [samples, setSamples] = useState(Math.max(1, initialSamples));
  return (
    <Stack gap="md">
      <Controller
        control={control}
        name="purpose"
        render={({ field }) => (
          <Radio.Group
            label={t('senders.fields.purpose')}
            description={t('senders.form.purposeHint')}
            required
            value={field.value}
            onChange={(value) => field.onChange(value)}
            error={errors.purpose ? t('senders.form.purposeRequired') : undefined}
          >
            <Group mt="xs">
              {SENDER_PURPOSES.map((purpose) => (
                <Radio key={purpose} value={purpose} label={t(`senders.purpose.${purpose}`)} />
              ))}
            </Group>
          </Radio.Group>
        )}
      />
      {Array.from({ length: samples }, (_, i) => (
        <Textarea
          key={i}
          label={t('senders.form.sample', { number: i + 1 })}
          description={i === 0 ? t('senders.form.sampleHint') : undefined}
          required={i === 0}
          autosize
          minRows={2}
          error={
            errors.sampleMessages?.[i]
              ? t('senders.form.sampleInvalid', { count: MAX_SAMPLE_MESSAGE_CHARS })
              : undefined
          }
          {...register(`sampleMessages.${i}`)}
        />
      ))}
      {samples < MAX_SAMPLE_MESSAGES ? (
        <Group>
          <Button variant="subtle" size="compact-sm" onClick={() => setSamples(samples + 1)}>
            {t('senders.form.addSample')}
          </Button>
        </Group>
      ) : null}
      <TextInput
        label={t('senders.fields.registrationNumber')}
        description={t('senders.form.registrationHint')}
        required
        autoComplete="off"
        error={errors.registrationNumber ? t('senders.form.registrationInvalid') : undefined}
        {...register('registrationNumber')}
      />
    </Stack>
  );
}
