import type { Carrier, CarrierTotal } from './contract/carriers.js';

/**
 * Each carrier over every dispatcher that has it: what they have (binds, receivers, parts in
 * flight and waiting) and what they may send (each process paces its own binds, so their rates
 * and limits add up). The last error shown is that of the dispatcher with the fewest binds up,
 * the one an operator looks at first. Carriers keep the order the dispatchers first list them.
 */
export function carrierTotals(perDispatcher: readonly (readonly Carrier[])[]): CarrierTotal[] {
  const totals = new Map<string, CarrierTotal & { errorBinds: number }>();
  for (const carriers of perDispatcher) {
    for (const carrier of carriers) {
      const total = totals.get(carrier.name);
      if (!total) {
        totals.set(carrier.name, {
          ...carrier,
          dispatchers: 1,
          errorBinds: carrier.lastError === null ? Infinity : carrier.bindsUp,
        });
        continue;
      }
      total.bindsUp += carrier.bindsUp;
      total.bindsWanted += carrier.bindsWanted;
      total.receiversUp += carrier.receiversUp;
      total.inFlight += carrier.inFlight;
      total.waiting += carrier.waiting;
      total.submitsPerSecondLimit += carrier.submitsPerSecondLimit;
      total.currentRatePerSecond += carrier.currentRatePerSecond;
      total.dispatchers += 1;
      if (carrier.lastError !== null && carrier.bindsUp < total.errorBinds) {
        total.lastError = carrier.lastError;
        total.errorBinds = carrier.bindsUp;
      }
    }
  }
  return [...totals.values()].map(({ errorBinds: _errorBinds, ...total }) => total);
}
