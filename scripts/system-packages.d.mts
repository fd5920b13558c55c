export declare const SYSTEM_PACKAGES: Record<
  'build' | 'browser' | 'interop' | 'postgres',
  { readonly for: string; readonly packages: readonly string[] }
>;
export declare function ensureSystemPackages(
  groups?: readonly string[],
  log?: (line: string) => void,
): number;
