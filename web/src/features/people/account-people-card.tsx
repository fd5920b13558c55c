import { Box, Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { accountPeople, usePeople } from './api';
import { InvitationsTable } from './components/invitations-table';
import { InviteForm } from './components/invite-form';
import { PeopleTable } from './components/people-table';

/** On an admin's account page: the account's people and invitations, and inviting its owner. */
export function AccountPeopleCard({ accountId }: { accountId: number }) {
  const { t } = useTranslation();
  const scope = accountPeople(accountId);
  const people = usePeople(scope);
  return (
    <Card withBorder component="section" aria-labelledby="account-people">
      <Stack gap="md">
        <Title order={2} size="h4" id="account-people">
          {t('people.accountPeopleTitle')}
        </Title>
        <ApiErrorAlert error={people.error} />
        {people.data ? (
          <>
            <PeopleTable people={people.data.users} />
            <Title order={3} size="h5">
              {t('people.invitationsTitle')}
            </Title>
            <InvitationsTable scope={scope} invitations={people.data.invitations} />
          </>
        ) : (
          <Text c="dimmed">{t('app.loading')}</Text>
        )}
        <Box maw={520}>
          <Title order={3} size="h5" mb="xs" id="invite-owner-title">
            {t('people.inviteOwnerTitle')}
          </Title>
          <InviteForm scope={scope} defaultRole="owner" idPrefix="invite-owner" />
        </Box>
      </Stack>
    </Card>
  );
}
