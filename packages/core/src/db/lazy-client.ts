/**
 * A client built on first use: an object that stands for what `create` returns and creates it when a property is
 * first read. Prisma's client takes several MB to construct (its data model, its engine's configuration), and most
 * processes read on the driver (`readerOf`) for minutes before their first write, or never write at all.
 */
export interface LazyClient<T extends object> {
  /** Stands for the client: reading any property creates it. Functions come bound to the real client. */
  readonly client: T;
  /** The client if anything created it yet. */
  created(): T | undefined;
}

export function lazyClient<T extends object>(create: () => T): LazyClient<T> {
  let real: T | undefined;
  const bound = new Map<PropertyKey, unknown>();
  const target = () => {
    real ??= create();
    return real;
  };
  const client = new Proxy({} as T, {
    get(_, key) {
      const value = Reflect.get(target(), key);
      if (typeof value !== "function") return value;
      // Bound once per name: the client's methods rely on `this` being the client, not this stand-in.
      if (!bound.has(key)) bound.set(key, value.bind(real));
      return bound.get(key);
    },
    has: (_, key) => Reflect.has(target(), key),
  });
  return { client, created: () => real };
}
