import { isIP } from "node:net";

/** The bits of an IPv6 address that name one client's network: providers hand each customer a /64 (RFC 6177). */
export const DEFAULT_IPV6_CLIENT_PREFIX = 64;

/** An IPv6 address as its eight 16-bit groups; the text must be one (`isIP` is 6). */
function groupsOf(address: string): number[] {
  let text = address.split("%", 1)[0] ?? "";
  const ipv4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (ipv4) {
    const [a, b, c, d] = ipv4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, ipv4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const split = (part: string) => (part ? part.split(":") : []);
  const [before, after] = [split(head), tail === undefined ? [] : split(tail)];
  const gap = tail === undefined ? [] : Array<string>(8 - before.length - after.length).fill("0");
  return [...before, ...gap, ...after].map((group) => Number.parseInt(group, 16));
}

/**
 * The client an address stands for, for counters kept per client: an IPv4 address (also written IPv4-mapped,
 * `::ffff:a.b.c.d`) is itself, an IPv6 address is its network of `ipv6Prefix` bits (`2001:db8:0:1::/64`), since
 * one client may pick any address of the network it is given. Anything else is kept as written.
 */
export function clientAddressKey(address: string, ipv6Prefix = DEFAULT_IPV6_CLIENT_PREFIX): string {
  if (isIP(address) !== 6) return address;
  const groups = groupsOf(address);
  const mapped = groups.slice(0, 6).every((group, index) => group === (index === 5 ? 0xffff : 0));
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  const masked = groups.map((group, index) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - index * 16));
    return group & (0xffff << (16 - bits)) & 0xffff;
  });
  return `${masked.map((group) => group.toString(16)).join(":")}/${ipv6Prefix}`;
}
