import { AppShell, Burger, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { SessionUser } from '@contract/session';
import { LanguageSwitch } from './language-switch';
import { UserMenu } from './user-menu';
import classes from './console-layout.module.css';

export interface NavGroup {
  readonly label: string;
  readonly items: readonly { readonly to: string; readonly label: string }[];
}

/**
 * The frame of every signed-in page: a header with the burger (below the `sm` breakpoint),
 * the console's name, the language switch and the user's menu; the navigation, beside the page
 * on wide screens and opened by the burger on narrow ones; and the page itself in <main>.
 */
export function ConsoleLayout({
  nav,
  user,
  onSignOut,
  children,
}: {
  nav: readonly NavGroup[];
  user: SessionUser;
  onSignOut: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  // Below `sm` the navigation slides off-screen when closed; `inert` then also takes it out
  // of the tab order and the accessibility tree, so keyboards and screen readers skip it.
  const narrow = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const hidden = narrow === true && !opened;
  const location = useLocation();
  const current = currentItem(nav, location.pathname);
  const main = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  // A new page: close the phone navigation and take keyboard focus to the page, as a full page
  // load would, so a screen reader starts reading the new page.
  useEffect(() => {
    close();
    if (firstRender.current) firstRender.current = false;
    else main.current?.focus();
  }, [location.pathname, close]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a className={classes.skipLink} href="#main">
        {t('app.skipToContent')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? t('nav.close') : t('nav.open')}
              aria-expanded={opened}
              aria-controls="console-navigation"
            />
            <Text component="span" fw={700} size="lg" className={classes.brand}>
              {t('app.name')}
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <LanguageSwitch />
            <UserMenu user={user} onSignOut={onSignOut} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" id="console-navigation" aria-label={t('nav.label')} inert={hidden}>
        <AppShell.Section grow component={ScrollArea}>
          {nav.map((group) => (
            <div key={group.label} className={classes.group}>
              <Text component="h2" size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
                {group.label}
              </Text>
              <ul className={classes.list}>
                {group.items.map((item) => (
                  <li key={item.to}>
                    <NavLink
                      component={Link}
                      to={item.to}
                      label={item.label}
                      active={item.to === current}
                      aria-current={item.to === current ? 'page' : undefined}
                    />
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main" ref={main} tabIndex={-1} className={classes.main}>
        {children}
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * The item the page is under: the one whose address is the longest at the start of the path,
 * so /messages/new is "Send a message" alone and /messages/:uuid is "Messages".
 */
function currentItem(nav: readonly NavGroup[], pathname: string): string | undefined {
  return nav
    .flatMap((group) => group.items.map((item) => item.to))
    .filter((to) => pathname === to || pathname.startsWith(`${to}/`))
    .sort((a, b) => b.length - a.length)[0];
}
