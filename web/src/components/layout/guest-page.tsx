import { Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/use-page-title';
import { LanguageSwitch } from './language-switch';

/** A page for someone not signed in (a mailed link, a forgotten password): one card. */
export function GuestPage({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    <Center mih="100dvh" p="md" component="main" id="main">
      <Stack w="100%" maw={460} gap="md">
        <Group justify="space-between">
          <Text fw={700} size="xl" c="blue.7">
            {t('app.name')}
          </Text>
          <LanguageSwitch />
        </Group>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Title order={1} size="h2" mb="lg">
            {title}
          </Title>
          {children}
        </Paper>
      </Stack>
    </Center>
  );
}
