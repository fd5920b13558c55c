import { accountEndpoints } from './accounts.js';
import { auditEndpoints } from './audit.js';
import { blocklistEndpoints } from './blocklist.js';
import { carrierEndpoints } from './carriers.js';
import { composeEndpoints } from './compose.js';
import { contactGroupEndpoints } from './contact-groups.js';
import { creditEndpoints } from './credits.js';
import { dashboardEndpoints } from './dashboard.js';
import type { EndpointInput, EndpointOutput } from './endpoint.js';
import { keyEndpoints } from './keys.js';
import { messageEndpoints } from './messages.js';
import { peopleEndpoints } from './people.js';
import { profileEndpoints } from './profile.js';
import { senderEndpoints } from './senders.js';
import { sessionEndpoints } from './session.js';
import { templateEndpoints } from './templates.js';
import { webhookEndpoints } from './webhooks.js';

/**
 * Every route of the console API, by `METHOD /path` (under /console/api): the one map the
 * server declares its routes from and the browser calls them by. A test holds the server's
 * routes to exactly these keys.
 */
export const consoleEndpoints = {
  ...sessionEndpoints,
  ...profileEndpoints,
  ...auditEndpoints,
  ...senderEndpoints,
  ...keyEndpoints,
  ...webhookEndpoints,
  ...creditEndpoints,
  ...accountEndpoints,
  ...carrierEndpoints,
  ...peopleEndpoints,
  ...composeEndpoints,
  ...templateEndpoints,
  ...contactGroupEndpoints,
  ...dashboardEndpoints,
  ...blocklistEndpoints,
  ...messageEndpoints,
};

export type ConsoleEndpoints = typeof consoleEndpoints;
export type ConsoleEndpointKey = keyof ConsoleEndpoints;

/** The routes the browser calls with JSON (or a multipart form) and reads JSON from. */
export type JsonEndpointKey = {
  [K in ConsoleEndpointKey]: ConsoleEndpoints[K] extends
    { readonly download: unknown } | { readonly upload: { readonly kind: 'file' } }
    ? never
    : K;
}[ConsoleEndpointKey];

/** The routes whose body is a file streamed as it is. */
export type FileUploadKey = {
  [K in ConsoleEndpointKey]: ConsoleEndpoints[K] extends {
    readonly upload: { readonly kind: 'file' };
  }
    ? K
    : never;
}[ConsoleEndpointKey];

/** The routes the browser opens by address (downloads). */
export type DownloadKey = {
  [K in ConsoleEndpointKey]: ConsoleEndpoints[K] extends { readonly download: unknown } ? K : never;
}[ConsoleEndpointKey];

export type InputOf<K extends ConsoleEndpointKey> = EndpointInput<ConsoleEndpoints[K]>;
export type OutputOf<K extends ConsoleEndpointKey> = EndpointOutput<ConsoleEndpoints[K]>;
