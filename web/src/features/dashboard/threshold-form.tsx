import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, NumberInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { lowBalanceThresholdBodySchema, type LowBalanceThresholdBody } from '@contract/dashboard';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useSetLowBalanceThreshold } from './api';

/** The owner's setting: the balance below which the console warns (0: never). */
export function ThresholdForm({ threshold }: { threshold: number }) {
  const { t } = useTranslation();
  const save = useSetLowBalanceThreshold();
  const form = useForm<LowBalanceThresholdBody>({
    resolver: zodResolver(lowBalanceThresholdBodySchema),
    values: { lowBalanceThreshold: threshold },
  });
  const submit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: () =>
        notifications.show({ color: 'teal', message: t('dashboard.thresholdSaved') }),
    }),
  );
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="xs">
        <ApiErrorAlert error={save.error} />
        <Controller
          control={form.control}
          name="lowBalanceThreshold"
          render={({ field }) => (
            <NumberInput
              label={t('dashboard.threshold')}
              description={t('dashboard.thresholdHint')}
              min={0}
              allowDecimal={false}
              allowNegative={false}
              thousandSeparator=","
              value={field.value}
              onChange={(value) => field.onChange(typeof value === 'number' ? value : 0)}
              error={
                form.formState.errors.lowBalanceThreshold ? t('accounts.wholeNumber') : undefined
              }
            />
          )}
        />
        <Group justify="flex-end">
          <Button type="submit" size="xs" loading={save.isPending}>
            {t('dashboard.thresholdSave')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
