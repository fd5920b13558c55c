import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { useMemo, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { styleNonce } from '../lib/style-nonce';
import { cssVariablesResolver, themeIn } from '../lib/theme';

/** Everything a page may rely on: server state, theme, translations, notifications. */
export function AppProvider({
  queryClient,
  i18n,
  children,
}: {
  queryClient: QueryClient;
  i18n: I18n;
  children: ReactNode;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Mantine>{children}</Mantine>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

/** Mantine with the theme in the console's current language. */
function Mantine({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const close = t('app.close');
  const clear = t('app.clear');
  const theme = useMemo(() => themeIn({ close, clear }), [close, clear]);
  const nonce = styleNonce();
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      {...(nonce ? { getStyleNonce: () => nonce } : {})}
    >
      <Notifications position="top-right" />
      {children}
    </MantineProvider>
  );
}
