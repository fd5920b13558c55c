import { FileInput, Text } from '@mantine/core';
import type { SenderList } from '@contract/senders';
import { useTranslation } from 'react-i18next';
import { useFormatNumber } from '../../../lib/use-format-number';

/**
 * Choose several PDF, PNG or JPEG files. The browser's `accept` list and the size check here only
 * spare a round trip: the server decides each file's type from its bytes.
 */
export function DocumentsInput({
  files,
  onChange,
  limits,
  required,
  error,
}: {
  files: File[];
  onChange: (files: File[]) => void;
  limits: SenderList['documentLimits'];
  required: boolean;
  error?: string;
}) {
  const { t } = useTranslation();
  const number = useFormatNumber();
  const tooLarge = files.find((file) => file.size > limits.maxBytes);
  const megabytes = Math.floor(limits.maxBytes / (1024 * 1024));
  return (
    <div>
      <FileInput
        label={t('senders.form.documents')}
        description={t('senders.form.documentsHint', {
          count: limits.maxFilesPerSubmission,
          size:
            megabytes > 0
              ? `${number(megabytes)} MB`
              : `${number(Math.floor(limits.maxBytes / 1024))} kB`,
        })}
        placeholder={t('senders.form.chooseFiles')}
        multiple
        clearable
        required={required}
        accept={[...limits.types, '.pdf', '.png', '.jpg', '.jpeg'].join(',')}
        value={files}
        onChange={(value) => onChange(value.slice(0, limits.maxFilesPerSubmission))}
        error={
          error ??
          (tooLarge ? t('senders.form.documentTooLarge', { name: tooLarge.name }) : undefined)
        }
      />
      {files.length > 0 ? (
        <Text size="sm" c="dimmed" mt={4}>
          {t('senders.form.documentsChosen', { count: files.length })}
        </Text>
      ) : null}
    </div>
  );
}
