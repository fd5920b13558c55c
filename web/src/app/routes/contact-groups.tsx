import { useParams } from 'react-router';
import { ContactGroupPage } from '../../features/contact-groups/group-page';
import { ContactGroupsPage } from '../../features/contact-groups/groups-page';

export function ContactGroupsRoute() {
  return <ContactGroupsPage />;
}

export function ContactGroupRoute() {
  const groupId = Number(useParams().groupId);
  return <ContactGroupPage key={groupId} groupId={groupId} />;
}
