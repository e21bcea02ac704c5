import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/** Where a webhook may be sent: `https://` to public addresses, or (allowed insecure) also `http://` and private ones. */
export interface WebhookTargetPolicy {
  allowInsecure: boolean;
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

/** Is the address on the public internet (not private, loopback, link-local, multicast, reserved, …)? */
export function isPublicAddress(address: string): boolean {
  const parsed = ipaddr.process(address);
  return parsed.range() === "unicast";
}

/** The URL, parsed, if its form and scheme are allowed; the reason otherwise. */
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
    throw new WebhookTargetRefused(`The host ${host} resolves to a private, loopback or reserved address.`);
  }
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
