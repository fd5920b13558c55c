import { MessagePage } from '../../features/messages/message-page';
import { MessagesPage } from '../../features/messages/messages-page';

export function MessagesRoute() {
  return <MessagesPage scope="account" />;
}

export function MessageRoute() {
  return <MessagePage scope="account" />;
}
