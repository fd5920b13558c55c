import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApp } from './app/app';
import { initI18n } from './lib/i18n';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
const App = createApp(await initI18n());
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
