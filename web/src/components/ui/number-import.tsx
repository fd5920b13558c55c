import { Alert, Button, FileInput, Group, List, Progress, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NumberImportReport } from '@contract/number-imports';
import { useFormatNumber } from '../../lib/use-format-number';
import { ApiErrorAlert } from './api-error-alert';

/**
 * Imports a number file (CSV or one number a line) into a group or a blocklist: the file goes to
 * the server as it is, with a progress bar of the bytes sent, and the server's report is shown:
 * numbers added, already there, repeated in the file, and the rejected lines with why.
 */
export function NumberImport({
  upload,
  onDone,
}: {
  upload: (file: File, onProgress: (fraction: number) => void) => Promise<NumberImportReport>;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [report, setReport] = useState<NumberImportReport | null>(null);
  const [error, setError] = useState<unknown>(null);

  const start = async () => {
    if (!file) return;
    setError(null);
    setReport(null);
    setProgress(0);
    try {
      setReport(await upload(file, setProgress));
      onDone?.();
    } catch (caught) {
      setError(caught);
    } finally {
      setProgress(null);
    }
  };

  return (
    <Stack gap="sm">
      <Group align="flex-end" wrap="wrap">
        <FileInput
          label={t('numberImport.file')}
          description={t('numberImport.fileHint')}
          accept=".csv,.txt,text/csv,text/plain"
          value={file}
          onChange={setFile}
          clearable
          style={{ flex: '1 1 16rem' }}
          data-testid="import-file"
        />
        <Button onClick={() => void start()} disabled={!file} loading={progress !== null}>
          {t('numberImport.start')}
        </Button>
      </Group>
      {progress !== null ? (
        <Stack gap={4}>
          <Text size="sm">
            {progress < 1
              ? t('numberImport.uploading', { percent: Math.round(progress * 100) })
              : t('numberImport.reading')}
          </Text>
          <Progress
            value={progress * 100}
            animated={progress >= 1}
            aria-label={t('numberImport.progress')}
          />
        </Stack>
      ) : null}
      <ApiErrorAlert error={error} />
      {report ? <ImportReport report={report} /> : null}
    </Stack>
  );
}

function ImportReport({ report }: { report: NumberImportReport }) {
  const { t } = useTranslation();
  const n = useFormatNumber();
  const more = report.rejected - report.rejectedLines.length;
  return (
    <Alert
      color={report.rejected > 0 ? 'yellow' : 'teal'}
      title={t('numberImport.done')}
      data-testid="import-report"
    >
      <List size="sm" spacing={2}>
        <List.Item>{t('numberImport.added', { n: report.added })}</List.Item>
        <List.Item>{t('numberImport.alreadyPresent', { n: report.alreadyPresent })}</List.Item>
        <List.Item>{t('numberImport.duplicates', { n: report.duplicates })}</List.Item>
        <List.Item>{t('numberImport.rejected', { n: report.rejected })}</List.Item>
      </List>
      {report.rejectedLines.length > 0 ? (
        <Table.ScrollContainer minWidth={320} mah={280} mt="sm">
          <Table striped withTableBorder aria-label={t('numberImport.rejectedTable')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('numberImport.line')}</Table.Th>
                <Table.Th>{t('numberImport.value')}</Table.Th>
                <Table.Th>{t('numberImport.reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.rejectedLines.map((line) => (
                <Table.Tr key={line.line}>
                  <Table.Td>{n(line.line)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{line.value}</Table.Td>
                  <Table.Td>{t(`numberImport.reasons.${line.reason}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {more > 0 ? (
        <Text size="sm" mt="xs">
          {t('numberImport.more', { count: more })}
        </Text>
      ) : null}
    </Alert>
  );
}
