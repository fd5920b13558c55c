import { StatusPage } from '../../components/ui/status-page';

export function NotFoundRoute() {
  return <StatusPage kind="notFound" />;
}
