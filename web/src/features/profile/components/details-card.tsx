import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { profileChangeSchema, type Profile, type ProfileChange } from '@contract/profile';
import { ApiErrorAlert } from '../../../components/ui/api-error-alert';
import { DEFAULT_TIME_ZONE } from '../../../lib/format-date';
import { useUpdateProfile } from '../api';

/** Every IANA zone this browser knows, as the server checks them too (`isTimeZone`). */
function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [DEFAULT_TIME_ZONE];
  }
}

const DEFAULT = '';

/** Name and time zone (the zone every date of the console is shown in). */
export function DetailsCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const [saved, setSaved] = useState(false);
  const zones = useMemo(
    () => [
      { value: DEFAULT, label: t('profile.details.timeZoneDefault', { zone: DEFAULT_TIME_ZONE }) },
      ...timeZones().map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') })),
    ],
    [t],
  );
  const form = useForm<ProfileChange>({
    resolver: zodResolver(profileChangeSchema),
    values: { name: profile.name, timeZone: profile.timeZone },
  });
  const submit = form.handleSubmit((body) => {
    setSaved(false);
    update.mutate(body, { onSuccess: () => setSaved(true) });
  });

  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="details-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h3" id="details-title">
            {t('profile.details.title')}
          </Title>
          <TextInput label={t('profile.details.email')} value={profile.email} readOnly />
          <TextInput
            label={t('profile.details.name')}
            required
            maxLength={100}
            error={form.formState.errors.name?.message}
            {...form.register('name')}
          />
          <Controller
            control={form.control}
            name="timeZone"
            render={({ field }) => (
              <Select
                label={t('profile.details.timeZone')}
                description={t('profile.details.timeZoneHint')}
                data={zones}
                searchable
                allowDeselect={false}
                value={field.value ?? DEFAULT}
                onChange={(value) => field.onChange(value ? value : null)}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
          <ApiErrorAlert error={update.error} />
          {saved ? (
            <Text c="teal.9" role="status">
              {t('profile.details.saved')}
            </Text>
          ) : null}
          <Button type="submit" loading={update.isPending} style={{ alignSelf: 'flex-start' }}>
            {t('profile.details.save')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
