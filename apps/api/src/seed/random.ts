/**
 * A small seeded random source (mulberry32), so that a seed of the same size always writes the same calendar and
 * benchmark runs compare like with like.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  integer(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("Cannot pick from an empty list.");
    return item;
  }

  /** An item of `items` where the first ones are the most frequent (popular tags, busy venues). */
  pickSkewed<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() ** 2 * items.length)];
    if (item === undefined) throw new Error("Cannot pick from an empty list.");
    return item;
  }

  /** `count` distinct items of `items`. */
  sample<T>(items: readonly T[], count: number, pick: (items: readonly T[]) => T = (list) => this.pick(list)): T[] {
    const chosen = new Set<T>();
    while (chosen.size < Math.min(count, items.length)) chosen.add(pick(items));
    return [...chosen];
  }
}
