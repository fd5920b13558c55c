import { PlaceholderPage } from '../../components/ui/placeholder-page';

export function SenderNamesRoute() {
  return <PlaceholderPage area="senderNames" />;
}
