import { Anchor, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { LanguageSwitch } from '../../components/layout/language-switch';
import { LoadingScreen } from '../../components/ui/loading-screen';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { useSession } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { homePath } from '../areas';

/** Only a path inside the console: `next` comes from the address bar, which anyone can write. */
function safeNext(next: string | null): string | null {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : null;
}

export function SignInRoute() {
  const { t } = useTranslation();
  usePageTitle(t('signIn.title'));
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));

  if (session.isPending) return <LoadingScreen />;
  const user = session.data?.user;
  if (user) return <Navigate to={next ?? homePath(user.role)} replace />;

  return (
    <Center mih="100dvh" p="md" component="main" id="main">
      <Stack w="100%" maw={420} gap="md">
        <Group justify="space-between">
          <Text fw={700} size="xl" c="blue.7">
            {t('app.name')}
          </Text>
          <LanguageSwitch />
        </Group>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Title order={1} size="h2" mb="lg">
            {t('signIn.title')}
          </Title>
          <SignInForm onSignedIn={() => void navigate(next ?? '/', { replace: true })} />
          <Anchor component={Link} to="/forgot-password" size="sm" mt="md" display="inline-block">
            {t('signIn.forgot')}
          </Anchor>
        </Paper>
      </Stack>
    </Center>
  );
}
