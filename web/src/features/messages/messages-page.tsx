import {
  Anchor,
  Button,
  Group,
  NativeSelect,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  MESSAGE_STATUSES,
  messageListQuerySchema,
  type Message,
  type MessageStatus,
} from '@contract/messages';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useSessionUser } from '../../lib/session';
import { useSearchTerm } from '../../lib/use-search-term';
import { useFormatDate } from '../../lib/use-format-date';
import { useFormatNumber } from '../../lib/use-format-number';
import { usePageTitle } from '../../lib/use-page-title';
import { endOfDayIn, startOfDayIn } from '../../lib/zoned-day';
import { messagesPath, useMessages, type MessageScope } from './api';
import { MessageStatusBadge } from './status-badge';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters as the address holds them: days are `YYYY-MM-DD` in the user's own zone. */
interface FilterFields {
  page: number;
  status: MessageStatus | '';
  sender: string;
  from: string;
  to: string;
  search: string;
  accountId: string;
}

function readFilters(params: URLSearchParams): FilterFields {
  const status = params.get('status') ?? '';
  const page = Number(params.get('page') ?? '1');
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) ? value : '';
  };
  const accountId = params.get('accountId') ?? '';
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    status: (MESSAGE_STATUSES as readonly string[]).includes(status)
      ? (status as MessageStatus)
      : '',
    sender: params.get('sender') ?? '',
    from: day('from'),
    to: day('to'),
    search: params.get('search') ?? '',
    accountId: /^[1-9][0-9]{0,15}$/.test(accountId) ? accountId : '',
  };
}

/**
 * The message list with the filters of GET /api/v2/sms (status, sender, a window of days in the
 * user's zone, search in refNo and content) and pages. The filters live in the address, so a
 * filtered view can be linked to. An admin sees every account's messages, or one account's.
 */
export function MessagesPage({ scope }: { scope: MessageScope }) {
  const { t } = useTranslation();
  usePageTitle(t(scope === 'admin' ? 'areas.adminMessages.title' : 'areas.messages.title'));
  const user = useSessionUser();
  const [params, setParams] = useSearchParams();
  const [fields, setFields] = useState(() => readFilters(params));
  useEffect(() => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) {
      if (value !== '' && !(key === 'page' && value === 1)) search.set(key, String(value));
    }
    setParams(search, { replace: true });
  }, [fields, setParams]);
  const change = (changes: Partial<FilterFields>) =>
    setFields((before) => ({ ...before, page: 1, ...changes }));
  const backwards = fields.from !== '' && fields.to !== '' && fields.from > fields.to;
  // Text the server would refuse is said at the field, and not asked for.
  const search = useSearchTerm(messageListQuerySchema.shape.search, fields.search);
  const sender = useSearchTerm(messageListQuerySchema.shape.sender, fields.sender);
  const list = useMessages(
    scope,
    {
      page: fields.page,
      status: fields.status,
      sender: sender.term ?? '',
      search: search.term ?? '',
      from: fields.from ? (startOfDayIn(fields.from, user.timeZone) ?? '') : '',
      to: fields.to ? (endOfDayIn(fields.to, user.timeZone) ?? '') : '',
      accountId: fields.accountId,
    },
    !backwards && search.term !== null && sender.term !== null,
  );
  const phone = useMediaQuery('(max-width: 48em)');
  const messages = list.data?.data ?? [];
  const any = fields.status || fields.sender || fields.from || fields.to || fields.search;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>
          {t(scope === 'admin' ? 'areas.adminMessages.title' : 'areas.messages.title')}
        </Title>
        <Text c="dimmed" mt="xs">
          {t(scope === 'admin' ? 'areas.adminMessages.summary' : 'areas.messages.summary')}
        </Text>
      </div>
      <Group
        component="form"
        role="search"
        aria-label={t('messages.filters')}
        align="flex-end"
        gap="sm"
        onSubmit={(event) => event.preventDefault()}
      >
        <TextInput
          label={t('messages.search')}
          placeholder={t('messages.searchHint')}
          value={fields.search}
          onChange={(event) => change({ search: event.currentTarget.value })}
          error={search.error}
          w={{ base: '100%', xs: 240 }}
        />
        <NativeSelect
          label={t('messages.filterStatus')}
          value={fields.status}
          onChange={(event) => change({ status: event.currentTarget.value as MessageStatus })}
          data={[
            { value: '', label: t('messages.allStatuses') },
            ...MESSAGE_STATUSES.map((s) => ({ value: s, label: t(`messages.status.${s}`) })),
          ]}
          w={{ base: '100%', xs: 160 }}
        />
        <TextInput
          label={t('messages.sender')}
          value={fields.sender}
          error={sender.error}
          onChange={(event) => change({ sender: event.currentTarget.value })}
          w={{ base: '100%', xs: 140 }}
        />
        <TextInput
          type="date"
          label={t('messages.from')}
          value={fields.from}
          max={fields.to || undefined}
          onChange={(event) => change({ from: event.currentTarget.value })}
          w={{ base: '100%', xs: 170 }}
        />
        <TextInput
          type="date"
          label={t('messages.to')}
          value={fields.to}
          min={fields.from || undefined}
          onChange={(event) => change({ to: event.currentTarget.value })}
          error={backwards ? t('messages.toBeforeFrom') : undefined}
          w={{ base: '100%', xs: 170 }}
        />
        {scope === 'admin' ? (
          <TextInput
            label={t('messages.accountId')}
            value={fields.accountId}
            inputMode="numeric"
            onChange={(event) =>
              change({ accountId: event.currentTarget.value.replace(/\D/g, '').slice(0, 16) })
            }
            w={{ base: '100%', xs: 120 }}
          />
        ) : null}
        {any || fields.accountId ? (
          <Button
            variant="subtle"
            onClick={() =>
              change({ status: '', sender: '', from: '', to: '', search: '', accountId: '' })
            }
          >
            {t('messages.clearFilters')}
          </Button>
        ) : null}
      </Group>
      <ApiErrorAlert error={list.error} />
      {list.isPending && !backwards ? <Text c="dimmed">{t('app.loading')}</Text> : null}
      {list.isSuccess && messages.length === 0 ? (
        <Text>{t(any ? 'messages.noneMatch' : 'messages.empty')}</Text>
      ) : null}
      {messages.length > 0 && phone ? <MessageCards messages={messages} scope={scope} /> : null}
      {messages.length > 0 && !phone ? <MessageTable messages={messages} scope={scope} /> : null}
      {list.data && list.data.totalPages > 1 ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('messages.total', { count: list.data.total })}
          </Text>
          <Pagination
            total={list.data.totalPages}
            value={fields.page}
            onChange={(page) => setFields((before) => ({ ...before, page }))}
            siblings={phone ? 0 : 1}
            getControlProps={(control) => ({
              'aria-label': t(`messages.pageControl.${control}`),
            })}
          />
        </Group>
      ) : null}
    </Stack>
  );
}

function MessageTable({ messages, scope }: { messages: Message[]; scope: MessageScope }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const number = useFormatNumber();
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table striped verticalSpacing="xs" aria-label={t('messages.tableLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('messages.refNo')}</Table.Th>
            <Table.Th>{t('messages.created')}</Table.Th>
            {scope === 'admin' ? <Table.Th>{t('messages.account')}</Table.Th> : null}
            <Table.Th>{t('messages.sender')}</Table.Th>
            <Table.Th>{t('messages.content')}</Table.Th>
            <Table.Th ta="right">{t('messages.recipients')}</Table.Th>
            <Table.Th ta="right">{t('messages.cost')}</Table.Th>
            <Table.Th>{t('messages.statusLabel')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {messages.map((m) => (
            <Table.Tr key={m.uuid}>
              <Table.Td>
                <Anchor component={Link} to={`${messagesPath(scope)}/${m.uuid}`} ff="monospace">
                  {m.refNo}
                </Anchor>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(m.createdAt)}</Table.Td>
              {scope === 'admin' ? (
                <Table.Td>
                  <Anchor component={Link} to={`/admin/accounts/${m.accountId}`}>
                    #{m.accountId}
                  </Anchor>
                </Table.Td>
              ) : null}
              <Table.Td>{m.sender}</Table.Td>
              <Table.Td maw={320}>
                <Text size="sm" lineClamp={2}>
                  {m.content}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{number(m.recipients.unique)}</Table.Td>
              <Table.Td ta="right">{number(m.cost)}</Table.Td>
              <Table.Td>
                <MessageStatusBadge status={m.status} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** At phone width: one block per message, every field labelled. */
function MessageCards({ messages, scope }: { messages: Message[]; scope: MessageScope }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  return (
    <Stack gap="sm" component="ul" aria-label={t('messages.tableLabel')} p={0} m={0}>
      {messages.map((m) => (
        <Stack
          key={m.uuid}
          component="li"
          gap={4}
          p="sm"
          style={{
            listStyle: 'none',
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 'var(--mantine-radius-md)',
          }}
        >
          <Group justify="space-between" wrap="nowrap">
            <Anchor component={Link} to={`${messagesPath(scope)}/${m.uuid}`} ff="monospace">
              {m.refNo}
            </Anchor>
            <MessageStatusBadge status={m.status} />
          </Group>
          <Text size="sm" lineClamp={2}>
            {m.content}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDate(m.createdAt)} · {m.sender} ·{' '}
            {t('messages.recipientCount', { count: m.recipients.unique })}
            {scope === 'admin' ? ` · #${m.accountId}` : ''}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}
