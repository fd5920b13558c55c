import {
  Button,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { useFormatDate } from '../../lib/use-format-date';
import { ApiErrorAlert } from './api-error-alert';

/** How many numbers a page of a number list shows. */
export const NUMBER_LIST_PAGE_SIZE = 50;

/** The search and page of a number list, kept here so the caller can ask for that page. */
export function useNumberListPage() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  return {
    search,
    page,
    setPage,
    /** The digits typed, the only part of the search the server matches. */
    digits: search.replace(/\D/g, ''),
    offset: (page - 1) * NUMBER_LIST_PAGE_SIZE,
    limit: NUMBER_LIST_PAGE_SIZE,
    /** A new search starts on the first page. */
    setSearch: (value: string) => {
      setSearch(value);
      setPage(1);
    },
  };
}

export interface NumberListLabels {
  title?: string;
  search: string;
  found: (count: number) => string;
  table: string;
  number: string;
  /** The heading of the column of dates the numbers were added; no column without it. */
  added?: string;
  actions: string;
  remove: string;
  removeNumber: (number: string) => string;
}

/**
 * A searchable, paged list of numbers (a group's members, a blocklist's entries), each with a
 * button that removes it when `remove` is given.
 */
export function NumberList({
  page,
  numbers,
  remove,
  labels,
  totalTestId,
}: {
  page: ReturnType<typeof useNumberListPage>;
  numbers: {
    data?: { total: number; data: { msisdn: string; createdAt?: string }[] };
    error: unknown;
  };
  remove?: { mutate(numbers: string[]): void; error: unknown };
  labels: NumberListLabels;
  totalTestId: string;
}) {
  const formatDate = useFormatDate();
  const pages = numbers.data
    ? Math.max(1, Math.ceil(numbers.data.total / NUMBER_LIST_PAGE_SIZE))
    : 1;
  return (
    <Stack gap="sm">
      {labels.title ? (
        <Title order={2} size="h4">
          {labels.title}
        </Title>
      ) : null}
      <TextInput
        label={labels.search}
        placeholder="0812…"
        inputMode="numeric"
        value={page.search}
        onChange={(event) => page.setSearch(event.currentTarget.value)}
        maw={320}
      />
      <ApiErrorAlert error={numbers.error ?? remove?.error} />
      {numbers.data ? (
        <>
          <Text size="sm" c="dimmed" data-testid={totalTestId}>
            {labels.found(numbers.data.total)}
          </Text>
          <Table.ScrollContainer minWidth={300}>
            <Table striped aria-label={labels.table}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{labels.number}</Table.Th>
                  {labels.added ? <Table.Th>{labels.added}</Table.Th> : null}
                  {remove ? (
                    <Table.Th>
                      <VisuallyHidden>{labels.actions}</VisuallyHidden>
                    </Table.Th>
                  ) : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {numbers.data.data.map(({ msisdn, createdAt }) => (
                  <Table.Tr key={msisdn}>
                    <Table.Td ff="monospace">{msisdn}</Table.Td>
                    {labels.added ? (
                      <Table.Td>{createdAt ? formatDate(createdAt, 'date') : null}</Table.Td>
                    ) : null}
                    {remove ? (
                      <Table.Td ta="right">
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          aria-label={labels.removeNumber(msisdn)}
                          onClick={() => remove.mutate([msisdn])}
                        >
                          {labels.remove}
                        </Button>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 ? (
            <Pagination total={pages} value={page.page} onChange={page.setPage} size="sm" />
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
