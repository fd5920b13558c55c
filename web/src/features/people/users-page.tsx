import { Box, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Person } from '@contract/people';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useSessionUser } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { ownPeople, usePeople, useRemoveMember } from './api';
import { InvitationsTable } from './components/invitations-table';
import { InviteForm } from './components/invite-form';
import { PeopleTable } from './components/people-table';

/** The owner's people: who is in the account, who is invited, invite someone, remove someone. */
export function UsersPage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.users.title'));
  const me = useSessionUser();
  const people = usePeople(ownPeople);
  const [removing, setRemoving] = useState<Person | null>(null);

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.users.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('areas.users.summary')}
        </Text>
      </div>
      <ApiErrorAlert error={people.error} />
      <Card withBorder component="section" aria-labelledby="people-title">
        <Title order={2} size="h4" mb="sm" id="people-title">
          {t('people.peopleTitle')}
        </Title>
        {people.data ? (
          <PeopleTable people={people.data.users} selfId={me.id} onRemove={setRemoving} />
        ) : (
          <Text c="dimmed">{t('app.loading')}</Text>
        )}
      </Card>
      <Card withBorder component="section" aria-labelledby="invitations-title">
        <Title order={2} size="h4" mb="sm" id="invitations-title">
          {t('people.invitationsTitle')}
        </Title>
        {people.data ? (
          <InvitationsTable scope={ownPeople} invitations={people.data.invitations} />
        ) : null}
      </Card>
      <Card withBorder component="section" aria-labelledby="invite-title">
        <Title order={2} size="h4" mb="sm" id="invite-title">
          {t('people.inviteTitle')}
        </Title>
        <Box maw={520}>
          <InviteForm scope={ownPeople} defaultRole="member" idPrefix="invite" />
        </Box>
      </Card>
      <RemoveModal person={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

function RemoveModal({ person, onClose }: { person: Person | null; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useRemoveMember();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={person !== null} onClose={close} title={t('people.removeTitle')}>
      {person ? (
        <Stack gap="md">
          <ApiErrorAlert error={remove.error} />
          <Text>{t('people.removeConfirm', { name: person.name, email: person.email })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('people.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => remove.mutate(person.id, { onSuccess: close })}
            >
              {t('people.remove')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
