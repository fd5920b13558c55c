import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApp } from './app/app';
import { initI18n } from './lib/i18n';
import { styleNonce } from './lib/style-nonce';

// Modals lock scrolling with react-remove-scroll, whose <style> takes its nonce from this
// global (the get-nonce convention); without it the Content-Security-Policy blocks that style.
const nonce = styleNonce();
if (nonce) (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = nonce;

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
const App = createApp(await initI18n());
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
