import { Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageTitle } from '../../lib/use-page-title';

type Kind = 'notFound' | 'forbidden' | 'unexpected' | 'unavailable';

const TITLES = {
  notFound: 'errors.notFoundTitle',
  forbidden: 'errors.forbiddenTitle',
  unexpected: 'errors.unexpectedTitle',
  unavailable: 'errors.unexpectedTitle',
} as const;

const BODIES = {
  notFound: 'errors.notFound',
  forbidden: 'errors.forbidden',
  unexpected: 'errors.unexpected',
  unavailable: 'errors.unavailable',
} as const;

/** A page that explains why there is nothing else to show, and where to go from here. */
export function StatusPage({
  kind,
  detail,
  onRetry,
}: {
  kind: Kind;
  detail?: string;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  usePageTitle(t(TITLES[kind]));
  return (
    <Stack gap="md" maw={560} py="xl">
      <Title order={1}>{t(TITLES[kind])}</Title>
      <Text>{t(BODIES[kind])}</Text>
      {detail ? <Code block>{detail}</Code> : null}
      <Group>
        {onRetry ? <Button onClick={onRetry}>{t('errors.retry')}</Button> : null}
        <Button component={Link} to="/" variant={onRetry ? 'default' : 'filled'}>
          {t('errors.home')}
        </Button>
      </Group>
    </Stack>
  );
}
