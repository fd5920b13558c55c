import { Code, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AuditEventView } from '@contract/audit';
import classes from './audit-log.module.css';
import { useFormatNumber } from '../../lib/use-format-number';

/** The detail of an event as a short list: "Field: value", a change as "from → to". */
export function AuditDetail({ detail }: { detail: AuditEventView['detail'] }) {
  const { t } = useTranslation();
  const number = useFormatNumber();
  const entries = Object.entries(detail);
  if (entries.length === 0) return <Text c="dimmed">—</Text>;

  const show = (value: unknown): string => {
    if (value === null || value === undefined || value === '') return '—';
    if (typeof value === 'number') return number(value);
    if (typeof value === 'boolean') return t(value ? 'audit.yes' : 'audit.no');
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return value.map(show).join(', ');
    if (isChange(value)) return `${show(value.from)} → ${show(value.to)}`;
    return JSON.stringify(value);
  };

  return (
    <dl className={classes.detail}>
      {entries.map(([field, value]) => (
        <div key={field}>
          <Text component="dt" size="sm" c="dimmed" span>
            {t(`audit.fields.${field}`, { defaultValue: field })}:
          </Text>{' '}
          <Text component="dd" size="sm" span>
            {field === 'prefix' ? <Code>{show(value)}</Code> : show(value)}
          </Text>
        </div>
      ))}
    </dl>
  );
}

function isChange(value: unknown): value is { from: unknown; to: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 2 &&
    'from' in value &&
    'to' in value
  );
}
