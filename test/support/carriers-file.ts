// The carrier of the tests and scripts that deliver to the SMSC simulator: `sim`, bound as
// `nok`/`nok`, with what each one sets on top; and the carrier file (NOK_CARRIERS_FILE) of it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function simCarrier(
  smsc: { readonly host: string; readonly port: number },
  settings: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: 'sim',
    host: smsc.host,
    port: smsc.port,
    systemId: 'nok',
    password: 'nok',
    ...settings,
  };
}

/** Writes `carriers.json` of `sim` into `dir`; returns its path. */
export function writeSimCarriersFile(
  dir: string,
  smsc: { readonly host: string; readonly port: number },
  settings: Record<string, unknown> = {},
): string {
  const path = join(dir, 'carriers.json');
  writeFileSync(path, JSON.stringify({ carriers: [simCarrier(smsc, settings)] }));
  return path;
}
