import type { i18n as I18n } from 'i18next';
import { RouterProvider } from 'react-router';
import { onUnauthorized } from '../lib/api-client';
import { sessionQueryKey } from '../lib/session';
import { AppProvider } from './provider';
import { createQueryClient } from './query-client';
import { createRouter } from './router';

/** The console: providers around the router. Made once per page load by main.tsx. */
export function createApp(i18n: I18n) {
  const queryClient = createQueryClient();
  const router = createRouter();
  // The session ended (expired, signed out elsewhere): read it again; the signed-in routes
  // then see no user and send the user to sign-in, keeping the page to come back to.
  onUnauthorized(() => void queryClient.invalidateQueries({ queryKey: sessionQueryKey }));
  return function App() {
    return (
      <AppProvider queryClient={queryClient} i18n={i18n}>
        <RouterProvider router={router} />
      </AppProvider>
    );
  };
}
