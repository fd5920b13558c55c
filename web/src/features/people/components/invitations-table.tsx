import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import type { Invitation } from '@contract/people';
import { ApiErrorAlert } from '../../../components/ui/api-error-alert';
import { useFormatDate } from '../../../lib/use-format-date';
import { useResendInvitation, useRevokeInvitation, type PeopleScope } from '../api';

/** Invitations not accepted yet: re-send (a new link) or revoke. */
export function InvitationsTable({
  scope,
  invitations,
}: {
  scope: PeopleScope;
  invitations: Invitation[];
}) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const resend = useResendInvitation(scope);
  const revoke = useRevokeInvitation(scope);
  if (invitations.length === 0) return <Text c="dimmed">{t('people.noInvitations')}</Text>;
  return (
    <>
      <ApiErrorAlert error={resend.error ?? revoke.error} />
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="sm" aria-label={t('people.invitationsTitle')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('people.email')}</Table.Th>
              <Table.Th>{t('people.role')}</Table.Th>
              <Table.Th>{t('people.expires')}</Table.Th>
              <Table.Th>{t('people.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invitations.map((invitation) => (
              <Table.Tr key={invitation.id}>
                <Table.Td>{invitation.email}</Table.Td>
                <Table.Td>{t(`people.roles.${invitation.role}`)}</Table.Td>
                <Table.Td>
                  {invitation.expired ? (
                    <Badge color="orange" variant="light">
                      {t('people.expired')}
                    </Badge>
                  ) : (
                    <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {formatDate(invitation.expiresAt)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="light"
                      loading={resend.isPending && resend.variables === invitation.id}
                      aria-label={t('people.resendTo', { email: invitation.email })}
                      onClick={() =>
                        resend.mutate(invitation.id, {
                          onSuccess: () =>
                            notifications.show({
                              color: 'teal',
                              message: t('people.resent', { email: invitation.email }),
                            }),
                        })
                      }
                    >
                      {t('people.resend')}
                    </Button>
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      loading={revoke.isPending && revoke.variables === invitation.id}
                      aria-label={t('people.revokeFor', { email: invitation.email })}
                      onClick={() => revoke.mutate(invitation.id)}
                    >
                      {t('people.revoke')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
