import { FileInput, Progress, Stack, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_UPLOADED_NUMBERS, type RecipientList } from '@contract/compose';
import { uploadNumbers } from '../api';
import { ComposeError } from './compose-error';

/**
 * Numbers from a file: the file goes to the server as it is, streamed (the page never reads
 * it), with a progress bar of the bytes sent, then the counts the server read; the list it keeps
 * is handed to the page. Choosing another file cancels an upload under way.
 */
export function FileRecipients({
  list,
  onList,
}: {
  list: RecipientList | null;
  onList: (list: RecipientList | null) => void;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const uploading = useRef<AbortController | null>(null);

  async function choose(chosen: File | null) {
    uploading.current?.abort();
    setFile(chosen);
    onList(null);
    setError(null);
    setProgress(null);
    if (!chosen) return;
    const controller = new AbortController();
    uploading.current = controller;
    setProgress(0);
    try {
      onList(await uploadNumbers(chosen, setProgress, controller.signal));
    } catch (failure) {
      if (!(failure instanceof DOMException && failure.name === 'AbortError')) {
        setError(failure);
        setProgress(null);
      }
    }
  }

  const share = progress === null ? 0 : Math.round(progress * 100);
  return (
    <Stack gap="sm">
      <FileInput
        label={t('compose.file')}
        description={t('compose.fileHint', { count: MAX_UPLOADED_NUMBERS })}
        placeholder={t('compose.filePlaceholder')}
        accept=".csv,.txt,text/csv,text/plain"
        value={file}
        onChange={(chosen) => void choose(chosen)}
        clearable
      />
      {progress !== null ? (
        <Stack gap={4}>
          <Progress
            value={share}
            animated={list === null}
            aria-label={t('compose.uploadProgress')}
          />
          <Text size="sm" c="dimmed" aria-live="polite">
            {list
              ? t('compose.uploaded', {
                  valid: list.valid,
                  invalid: list.invalid,
                  duplicates: list.duplicates,
                })
              : progress >= 1
                ? t('compose.reading')
                : t('compose.uploading', { percent: share })}
          </Text>
        </Stack>
      ) : null}
      <ComposeError error={error} />
    </Stack>
  );
}
