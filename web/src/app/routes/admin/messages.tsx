import { MessagePage } from '../../../features/messages/message-page';
import { MessagesPage } from '../../../features/messages/messages-page';

export function AdminMessagesRoute() {
  return <MessagesPage scope="admin" />;
}

export function AdminMessageRoute() {
  return <MessagePage scope="admin" />;
}
