// The carrier file of the delivery benches: one carrier, `sim`, of `binds` transceiver binds
// with a window of 100 each to the SMSC simulator on 127.0.0.1:`port`, unthrottled.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes it into `dir` and returns its path (NOK_CARRIERS_FILE). */
export function writeSimCarriersFile(dir: string, port: number, binds: number): string {
  const path = join(dir, 'carriers.json');
  writeFileSync(
    path,
    JSON.stringify({
      carriers: [
        {
          name: 'sim',
          host: '127.0.0.1',
          port,
          systemId: 'nok',
          password: 'nok',
          binds,
          windowSize: 100,
          submitsPerSecond: 100_000,
        },
      ],
    }),
  );
  return path;
}
