import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { ConsoleLayout, type NavGroup } from '../../components/layout/console-layout';
import { useSignOut } from '../../features/auth/api/sign-out';
import { canAccess } from '../../lib/authorization';
import { useSessionUser } from '../../lib/session';
import { areas } from '../areas';

/** The shell around every signed-in page, with the areas the user's role opens. */
export function SignedInLayout() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const visible = areas.filter((area) => canAccess(user.role, area.roles));
  const nav: NavGroup[] = (['account', 'admin'] as const)
    .map((group) => ({
      label: t(group === 'account' ? 'nav.account' : 'nav.admin'),
      items: visible
        .filter((area) => area.group === group)
        .map((area) => ({ to: `/${area.path}`, label: t(`areas.${area.key}.title`) })),
    }))
    .filter((group) => group.items.length > 0);

  return (
    <ConsoleLayout
      nav={nav}
      user={user}
      onSignOut={() => signOut.mutate(undefined, { onSettled: () => void navigate('/sign-in') })}
    >
      <Outlet />
    </ConsoleLayout>
  );
}
