/** What other features may use of sender names: the account's own and shared senders. */
export { useSenders } from './api/senders';
