import { Alert, Button, CopyButton, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Recovery codes, shown once: a list to read, copy or download, and a button to move on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'nok-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        {t('profile.recovery.title')}
      </Title>
      <Alert color="yellow">{t('profile.recovery.intro')}</Alert>
      <Paper withBorder p="md" radius="sm">
        <List
          aria-label={t('profile.recovery.listLabel')}
          listStyleType="none"
          ff="monospace"
          fz="md"
          spacing={4}
          style={{ columns: '2 12rem' }}
        >
          {codes.map((code) => (
            <List.Item key={code}>
              <Text component="span" ff="monospace" data-testid="recovery-code">
                {code}
              </Text>
            </List.Item>
          ))}
        </List>
      </Paper>
      <Group gap="sm">
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? t('profile.recovery.copied') : t('profile.recovery.copy')}
            </Button>
          )}
        </CopyButton>
        <Button variant="light" onClick={download}>
          {t('profile.recovery.download')}
        </Button>
        <Button onClick={onDone}>{t('profile.recovery.done')}</Button>
      </Group>
    </Stack>
  );
}
