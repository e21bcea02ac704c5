import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/**
 * Where a webhook may be sent: `https://` on port 443 (or one of `ports`) to public addresses, or (allowed insecure)
 * also `http://`, any port and private addresses.
 */
export interface WebhookTargetPolicy {
  allowInsecure: boolean;
  /** Ports an `https://` URL may name besides 443 (`CALENDAR_WEBHOOKS_PORTS`). */
  ports?: readonly number[] | undefined;
}

/** The address a delivery connects to: one the policy allowed when the name was resolved. */
export interface WebhookTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export class WebhookTargetRefused extends Error {
  override readonly name = "WebhookTargetRefused";
}

const HTTPS_PORT = 443;
const LOCAL_RECEIVERS = "CALENDAR_WEBHOOKS_ALLOW_INSECURE=true allows local receivers";

/**
 * IPv6 ranges whose addresses carry an IPv4 address that a packet to them reaches (IPv4-compatible, IPv4-translated,
 * NAT64, 6to4, both ends of Teredo), with where its bytes are: such an address is public only if those are.
 * (IPv4-mapped addresses are read as IPv4 by `ipaddr.process`.)
 */
const EMBEDDED_IPV4: ReadonlyArray<[range: [ipaddr.IPv6, number], embedded: (bytes: number[]) => number[][]]> = [
  [ipaddr.IPv6.parseCIDR("::/96"), (bytes) => [bytes.slice(12, 16)]],
  [ipaddr.IPv6.parseCIDR("::ffff:0:0:0/96"), (bytes) => [bytes.slice(12, 16)]],
  [ipaddr.IPv6.parseCIDR("64:ff9b::/96"), (bytes) => [bytes.slice(12, 16)]],
  [ipaddr.IPv6.parseCIDR("2002::/16"), (bytes) => [bytes.slice(2, 6)]],
  [ipaddr.IPv6.parseCIDR("2001::/32"), (bytes) => [bytes.slice(4, 8), bytes.slice(12, 16).map((byte) => byte ^ 0xff)]],
];

const isPublicIpv4 = (bytes: number[]) => new ipaddr.IPv4(bytes).range() === "unicast";

/** Is the address on the public internet (not private, loopback, link-local, multicast, reserved, …, nor embeds such)? */
export function isPublicAddress(address: string): boolean {
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const ipv6 = parsed as ipaddr.IPv6;
  const embedding = EMBEDDED_IPV4.find(([range]) => ipv6.match(range));
  if (embedding) return embedding[1](ipv6.toByteArray()).every(isPublicIpv4);
  return ipv6.range() === "unicast";
}

/** The port a URL connects to (its scheme's when it names none). */
function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === "https:" ? HTTPS_PORT : 80;
}

/** The URL, parsed, if its form, scheme and port are allowed; the reason otherwise. */
export function webhookUrlProblem(text: string, policy: WebhookTargetPolicy): string | URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Must be an absolute URL.";
  }
  const schemes = policy.allowInsecure ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) {
    return policy.allowInsecure ? "Must be an http:// or https:// URL." : "Must be an https:// URL.";
  }
  if (url.username || url.password) return "Must not carry a user name or password.";
  const port = portOf(url);
  if (!policy.allowInsecure && port !== HTTPS_PORT && !policy.ports?.includes(port)) {
    return `Port ${port} is not allowed: use 443, or list the port in CALENDAR_WEBHOOKS_PORTS (${LOCAL_RECEIVERS}).`;
  }
  return url;
}

/**
 * Resolves the URL's host and checks every address it has (so that no answer of a round-robin name reaches a
 * private network), then returns the first: the delivery connects to exactly that address, so a name that changes
 * its answer between the check and the connection (DNS rebinding) cannot lead elsewhere.
 */
export async function resolveWebhookTarget(text: string, policy: WebhookTargetPolicy): Promise<WebhookTarget> {
  const url = webhookUrlProblem(text, policy);
  if (typeof url === "string") throw new WebhookTargetRefused(url);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new WebhookTargetRefused(`The host ${host} does not resolve.`);
  }
  const first = addresses[0];
  if (!first) throw new WebhookTargetRefused(`The host ${host} does not resolve.`);
  if (!policy.allowInsecure && !addresses.every(({ address }) => isPublicAddress(address))) {
    throw new WebhookTargetRefused(
      `The host ${host} resolves to a private, loopback or reserved address (${LOCAL_RECEIVERS}).`,
    );
  }
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
