import { ComposePage } from '../../features/compose/compose-page';

export function SendRoute() {
  return <ComposePage />;
}
