import { isIP } from "node:net";

/**
 * The proxies in front of the server whose `X-Forwarded-For` and `X-Forwarded-Proto` Fastify believes (its
 * `trustProxy`): none (`false`), the last `n` hops, or the hops from these addresses and CIDR ranges. Never every
 * hop: the left-most `X-Forwarded-For` entries are whatever the client wrote.
 */
export type TrustedProxies = false | number | string[];

/** The most hops `TRUST_PROXY` may name; no real chain of proxies is longer. */
const MAX_HOPS = 10;

function isAddressOrRange(text: string): boolean {
  const [address = "", prefix, ...rest] = text.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/**
 * `TRUST_PROXY` as written: `false`/`0` (none), `true` (one hop, the proxy right in front, as behind the documented
 * nginx), a hop count up to `MAX_HOPS`, or a comma-separated list of proxy addresses and CIDR ranges. Undefined
 * when it is none of these.
 */
export function parseTrustedProxies(text: string): TrustedProxies | undefined {
  const value = text.trim().toLowerCase();
  if (value === "false") return false;
  if (value === "true") return 1;
  if (/^\d{1,2}$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_HOPS) return undefined;
    return hops === 0 ? false : hops;
  }
  const addresses = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return addresses.length > 0 && addresses.every(isAddressOrRange) ? addresses : undefined;
}

/**
 * Fastify's `trustProxy` for these proxies. A hop count is given as the function that trusts the last `hops` hops:
 * Fastify reads a bare number as trusting none, since it cannot tell the proxy from a client connecting directly,
 * hence the advice to listen only where the proxies reach (`HOST=127.0.0.1` behind a local nginx).
 */
export function fastifyTrustProxy(
  trusted: TrustedProxies,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trusted === "number" ? (_address, hop) => hop < trusted : trusted;
}
