import { ApiKeysPage } from '../../features/api-keys/api-keys-page';

export function ApiKeysRoute() {
  return <ApiKeysPage />;
}
