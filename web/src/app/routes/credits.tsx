import { CreditsPage } from '../../features/credits/credits-page';

export function CreditsRoute() {
  return <CreditsPage />;
}
