import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * A port nothing listens on right now: the OS picks one for a throwaway server. For programs
 * that must be told a port rather than report the one they got; another process may take it
 * in between, which on a test machine's loopback is rare.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  server.close();
  await once(server, 'close');
  return address.port;
}
