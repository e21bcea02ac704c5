/** `localeCompare(b, "en", { sensitivity: "base" })` builds this collator on every call; one is enough. */
const NAME_ORDER = new Intl.Collator("en", { sensitivity: "base" });

interface Named {
  id: number;
  name: string;
}

/** By name (case-insensitive), then id: the order the reference lists an event's terms in. */
export function byNameThenId(a: Named, b: Named): number {
  return NAME_ORDER.compare(a.name, b.name) || a.id - b.id;
}
