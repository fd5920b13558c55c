import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '@contract/session';
import { DEFAULT_TIME_ZONE } from '../../lib/format-date';

export function UserMenu({ user, onSignOut }: { user: SessionUser; onSignOut: () => void }) {
  const { t } = useTranslation();
  const initials =
    user.name
      .split(/\s+/)
      .map((word) => word.charAt(0))
      .join('')
      .slice(0, 2)
      .toUpperCase() || '?';
  return (
    <Menu position="bottom-end" width={260} withinPortal>
      <Menu.Target>
        {/* Named by what it shows first, so that "click SO" finds it by voice (WCAG 2.5.3). */}
        <UnstyledButton aria-label={t('user.menu', { initials, name: user.name })}>
          <Avatar color="blue" radius="xl" size="md">
            {initials}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)">
            {user.name}
          </Text>
          <Text size="xs">{user.email}</Text>
          <Text size="xs">{t(`user.role.${user.role}`)}</Text>
          <Text size="xs">
            {t('user.timeZone', { timeZone: user.timeZone ?? DEFAULT_TIME_ZONE })}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item onClick={onSignOut}>{t('user.signOut')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
