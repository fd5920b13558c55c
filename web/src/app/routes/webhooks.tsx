import { useParams } from 'react-router';
import { WebhookDeliveriesPage } from '../../features/webhooks/deliveries-page';
import { WebhooksPage } from '../../features/webhooks/webhooks-page';

export function WebhooksRoute() {
  return <WebhooksPage />;
}

export function WebhookDeliveriesRoute() {
  const endpointUid = useParams().endpointUid ?? '';
  return <WebhookDeliveriesPage key={endpointUid} endpointUid={endpointUid} />;
}
