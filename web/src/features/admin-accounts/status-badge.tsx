import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AccountStatus } from '@contract/accounts';

export function AccountStatusBadge({ status }: { status: AccountStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={status === 'active' ? 'teal' : 'red'} variant="light">
      {t(`accounts.statuses.${status}`)}
    </Badge>
  );
}
