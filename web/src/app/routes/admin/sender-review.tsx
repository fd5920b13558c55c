import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export function AdminSenderReviewRoute() {
  return <PlaceholderPage area="adminSenderReview" />;
}
