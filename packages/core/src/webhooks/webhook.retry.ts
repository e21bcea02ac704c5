/** The longest wait between two attempts of a delivery. */
const MAX_DELAY_MS = 60 * 60 * 1000;

/**
 * How long to wait before attempt `failures + 1`: exponential from `baseMs` (the first retry within `baseMs`),
 * capped at an hour, with jitter (between half and all of it) so that the retries of many deliveries spread out.
 */
export function retryDelay(failures: number, baseMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** Math.max(0, failures - 1), MAX_DELAY_MS);
  return Math.round(exponential * (0.5 + random() / 2));
}
