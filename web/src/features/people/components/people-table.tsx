import { Button, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Person } from '@contract/people';
import { useFormatDate } from '../../../lib/use-format-date';

/** The people of an account with role and status; `onRemove` adds a remove button. */
export function PeopleTable({
  people,
  selfId,
  onRemove,
}: {
  people: Person[];
  selfId?: number;
  onRemove?: (person: Person) => void;
}) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  if (people.length === 0) return <Text c="dimmed">{t('people.nobody')}</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped verticalSpacing="sm" aria-label={t('people.peopleTitle')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('people.name')}</Table.Th>
            <Table.Th>{t('people.email')}</Table.Th>
            <Table.Th>{t('people.role')}</Table.Th>
            <Table.Th>{t('people.status')}</Table.Th>
            <Table.Th>{t('people.since')}</Table.Th>
            {onRemove ? <Table.Th>{t('people.actions')}</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {people.map((person) => (
            <Table.Tr key={person.id}>
              <Table.Td>
                {person.name}
                {person.id === selfId ? (
                  <Text span c="dimmed" size="sm">
                    {' '}
                    {t('people.you')}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>{person.email}</Table.Td>
              <Table.Td>
                <Text span size="sm" fw={500} c={person.role === 'owner' ? 'blue.8' : undefined}>
                  {t(`people.roles.${person.role}`)}
                </Text>
              </Table.Td>
              <Table.Td>{t(`people.statuses.${person.status}`)}</Table.Td>
              <Table.Td>
                <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {formatDate(person.createdAt, 'date')}
                </Text>
              </Table.Td>
              {onRemove ? (
                <Table.Td>
                  {person.id === selfId ? null : (
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      aria-label={t('people.removeNamed', { name: person.name })}
                      onClick={() => onRemove(person)}
                    >
                      {t('people.remove')}
                    </Button>
                  )}
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
