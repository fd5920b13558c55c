import { Container } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { StatusPage } from '../../components/ui/status-page';

/** Whatever a page threw while rendering or loading: said plainly, with a way back. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <StatusPage kind="notFound" />;
  const detail = error instanceof Error ? error.message : undefined;
  return (
    <Container py="xl">
      <StatusPage kind="unexpected" detail={detail} onRetry={() => window.location.reload()} />
    </Container>
  );
}
