/** What other features may use of people: an account's people card, and inviting its owner. */
export { AccountPeopleCard } from './account-people-card';
export { inviteOwner } from './api';
