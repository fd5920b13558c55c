import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../lib/api-client';

/** Why a mailed link cannot be used (unknown, used, expired), and what to do next. */
export function LinkProblem({ error, kind }: { error: unknown; kind: 'invitation' | 'reset' }) {
  const { t } = useTranslation();
  const code = error instanceof ApiError ? error.code : 'MISSING';
  const reason =
    code === 'LINK_EXPIRED'
      ? 'expired'
      : code === 'LINK_USED'
        ? 'used'
        : code === 'NOT_FOUND' || code === 'MISSING'
          ? 'invalid'
          : null;
  return (
    <Stack gap="md">
      <Alert color="orange" role="alert" title={t(`links.${kind}.title`)}>
        {reason
          ? t(`links.${kind}.${reason}`)
          : error instanceof Error
            ? error.message
            : String(error)}
      </Alert>
      <Text>
        <Anchor component={Link} to={kind === 'reset' ? '/forgot-password' : '/sign-in'}>
          {t(kind === 'reset' ? 'links.askAgain' : 'links.toSignIn')}
        </Anchor>
      </Text>
    </Stack>
  );
}
