import { TemplatesPage } from '../../features/templates/templates-page';

export function TemplatesRoute() {
  return <TemplatesPage />;
}
