import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { AuditEventView } from '@contract/audit';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useSessionUser } from '../../lib/session';
import { useFormatDate } from '../../lib/use-format-date';
import { usePageTitle } from '../../lib/use-page-title';
import { startOfDayIn } from '../../lib/zoned-day';
import { useAuditLog } from './api';
import { AuditDetail } from './audit-detail';
import { AuditFiltersForm, readFilters } from './audit-filters';
import classes from './audit-log.module.css';

/**
 * The audit log: an owner reads their account's events, an admin every account's (or one's).
 * The filters live in the address (`?action=…&from=…&to=…&accountId=…`), so a filtered view
 * can be linked to and survives a reload; days are the user's own, in their time zone.
 */
export function AuditLogPage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.auditLog.title'));
  const user = useSessionUser();
  const scope = user.role === 'admin' ? 'admin' : 'owner';
  const [params, setParams] = useSearchParams();
  // The filters are this page's state, copied to the address as they change: two changes in a
  // row (a fast typist) each build on the one before.
  const [days, setDays] = useState(() => readFilters(params));
  useEffect(() => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(days)) if (value) search.set(key, value);
    setParams(search, { replace: true });
  }, [days, setParams]);
  const from = days.from ? startOfDayIn(days.from, user.timeZone) : '';
  const to = days.to ? startOfDayIn(days.to, user.timeZone, 1) : '';
  // A window that ends before it starts is said at its field and never asked for.
  const backwards = days.from !== '' && days.to !== '' && days.from > days.to;
  const log = useAuditLog(
    scope,
    { action: days.action, from: from ?? '', to: to ?? '', accountId: days.accountId },
    !backwards,
  );
  const events = log.data?.pages.flatMap((page) => page.data) ?? [];
  const phone = useMediaQuery('(max-width: 48em)');

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.auditLog.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t(scope === 'admin' ? 'audit.summaryAdmin' : 'areas.auditLog.summary')}
        </Text>
      </div>
      <AuditFiltersForm
        admin={scope === 'admin'}
        filters={days}
        onChange={(changes) => setDays((before) => ({ ...before, ...changes }))}
      />
      <ApiErrorAlert error={log.error} />
      {log.isPending && !backwards ? <Text c="dimmed">{t('app.loading')}</Text> : null}
      {log.isSuccess && events.length === 0 ? <Text>{t('audit.empty')}</Text> : null}
      {events.length > 0 && phone ? <AuditList events={events} admin={scope === 'admin'} /> : null}
      {events.length > 0 && !phone ? (
        <AuditTable events={events} admin={scope === 'admin'} />
      ) : null}
      {log.hasNextPage ? (
        <Group justify="center">
          <Button
            variant="default"
            loading={log.isFetchingNextPage}
            onClick={() => void log.fetchNextPage()}
          >
            {t('audit.more')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

function AuditTable({ events, admin }: { events: AuditEventView[]; admin: boolean }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped verticalSpacing="xs" aria-label={t('audit.tableLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('audit.when')}</Table.Th>
            <Table.Th>{t('audit.who')}</Table.Th>
            {admin ? <Table.Th>{t('audit.account')}</Table.Th> : null}
            <Table.Th>{t('audit.what')}</Table.Th>
            <Table.Th>{t('audit.detail')}</Table.Th>
            <Table.Th>{t('audit.address')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.id}>
              <Table.Td className={classes.when}>{formatDate(event.at)}</Table.Td>
              <Table.Td>
                <Actor event={event} />
              </Table.Td>
              {admin ? (
                <Table.Td>
                  <AccountRef event={event} />
                </Table.Td>
              ) : null}
              <Table.Td>
                <Action event={event} />
              </Table.Td>
              <Table.Td>
                <AuditDetail detail={event.detail} />
              </Table.Td>
              <Table.Td>{event.ip ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** At phone width: one block per event, every field labelled. */
function AuditList({ events, admin }: { events: AuditEventView[]; admin: boolean }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  return (
    <ul aria-label={t('audit.tableLabel')} className={classes.list}>
      {events.map((event) => (
        <li key={event.id} className={classes.entry}>
          <Stack gap={4}>
            <Action event={event} />
            <Text size="sm">{formatDate(event.at)}</Text>
            <Actor event={event} />
            {admin ? <AccountRef event={event} /> : null}
            {Object.keys(event.detail).length > 0 ? <AuditDetail detail={event.detail} /> : null}
            <Text size="sm" c="dimmed">
              {t('audit.fromAddress', { ip: event.ip ?? '—' })}
            </Text>
          </Stack>
        </li>
      ))}
    </ul>
  );
}

/** Who did it: a person by name and email, else the system or an anonymous visitor. */
function Actor({ event }: { event: AuditEventView }) {
  const { t } = useTranslation();
  if (event.actorUserId === null) {
    return <Text size="sm">{t(event.ip === null ? 'audit.system' : 'audit.anonymous')}</Text>;
  }
  return (
    <div>
      <Text size="sm" fw={500}>
        {event.actorName ?? t('audit.userNumber', { id: String(event.actorUserId) })}
      </Text>
      {event.actorEmail ? (
        <Text size="xs" c="dimmed" className={classes.email}>
          {event.actorEmail}
        </Text>
      ) : null}
    </div>
  );
}

const ACTION_COLOURS: Record<string, string> = {
  session: 'gray',
  user: 'indigo',
  invitation: 'indigo',
  'api-key': 'blue',
  'sender-request': 'grape',
  sender: 'violet',
  credits: 'teal',
  account: 'orange',
};

/** What was done, in words, and to what. */
function Action({ event }: { event: AuditEventView }) {
  const { t } = useTranslation();
  const area = event.action.split('.')[0] ?? '';
  const failed = /failed|throttled|reject/.test(event.action);
  return (
    <div>
      <Badge
        color={failed ? 'red' : (ACTION_COLOURS[area] ?? 'gray')}
        variant="light"
        classNames={{ root: classes.action, label: classes.actionLabel }}
      >
        {t(`audit.actions.${event.action}`, { defaultValue: event.action })}
      </Badge>
      <Target event={event} />
    </div>
  );
}

function Target({ event }: { event: AuditEventView }) {
  const { t } = useTranslation();
  if (event.targetType === null) return null;
  // A person's own sign-in or sign-out is about themselves: the actor already says who.
  if (event.targetType === 'user' && event.targetId === String(event.actorUserId)) return null;
  const kind = t(`audit.targets.${event.targetType}`, { defaultValue: event.targetType });
  const named =
    event.targetType === 'account' && event.targetId === String(event.accountId)
      ? event.accountName
      : null;
  return (
    <Text size="xs" c="dimmed" mt={2}>
      {named ? `${kind}: ${named}` : `${kind} #${event.targetId ?? '?'}`}
    </Text>
  );
}

function AccountRef({ event }: { event: AuditEventView }) {
  const { t } = useTranslation();
  if (event.accountId === null) return <Text size="sm">{t('audit.platform')}</Text>;
  return (
    <Anchor component={Link} to={`/admin/accounts/${event.accountId}`} size="sm">
      {event.accountName ?? `#${event.accountId}`}
    </Anchor>
  );
}
