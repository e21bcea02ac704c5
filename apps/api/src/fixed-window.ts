interface Window {
  count: number;
  endsAt: number;
}

/**
 * Counts per key (a client) in fixed windows of `windowMs`, in memory, for at most `maxKeys` keys: past that, the
 * key written longest ago is forgotten first, so memory stays bounded whatever clients send.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {}

  /** The count in the key's current window (0 once it has ended). */
  count(key: string, now = Date.now()): number {
    const current = this.windows.get(key);
    return current && current.endsAt > now ? current.count : 0;
  }

  /** Adds `amount` to the key's window, opening a new one when the last has ended. */
  add(key: string, amount: number, now = Date.now()): void {
    const current = this.windows.get(key);
    if (current && current.endsAt > now) {
      current.count += amount;
      return;
    }
    this.windows.delete(key);
    if (this.windows.size >= this.maxKeys) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
    this.windows.set(key, { count: amount, endsAt: now + this.windowMs });
  }

  /** Whole seconds until the key's window ends (at least 1). */
  secondsLeft(key: string, now = Date.now()): number {
    const current = this.windows.get(key);
    return Math.max(1, Math.ceil(((current?.endsAt ?? now) - now) / 1000));
  }
}
