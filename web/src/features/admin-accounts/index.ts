// What other features use of the admin accounts feature.
export { useAccounts } from './api';
