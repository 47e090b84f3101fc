/**
 * A client as the network sees it, and how it is stored. An IPv4 address is one client (or one carrier NAT), but an
 * IPv6 customer gets a /64 of 2^64 addresses: keyed by the full address, one device could rotate through endless
 * "clients". So the rate limit and the stored hash use the IPv4 address or the IPv6 /64 (an IPv4-mapped IPv6 address
 * is its IPv4 address). Only a salted SHA-256 hash is kept: enough to see many signups from one network, never the
 * address itself.
 */
import ipaddr from "ipaddr.js";

/** The salt when IP_HASH_SALT is unset, which only a development Worker may be (env.ts: productionProblems). */
export const DEVELOPMENT_SALT = "development";

/** Bits of an IPv6 address that name the customer's network: a /64 is what one subscriber gets. */
const IPV6_NETWORK_BITS = 64;

/**
 * The network key of a client address: an IPv4 address in dotted form; an IPv6 address as its /64 in CIDR form
 * (`2001:db8:0:1::/64`). Text that is not an address is kept as it is, so a malformed header cannot merge unrelated
 * clients.
 */
export function networkKey(ip: string): string {
  const text = ip.trim();
  if (!ipaddr.isValid(text)) return text;
  const address = ipaddr.process(text);
  if (address.kind() === "ipv4") return address.toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${IPV6_NETWORK_BITS}`);
  return `${network.toString()}/${IPV6_NETWORK_BITS}`;
}

/**
 * SHA-256 of `salt:networkKey(ip)`, as lower-case hex (64 characters).
 * @param ip the client's address (CF-Connecting-IP)
 * @param salt IP_HASH_SALT, or undefined locally
 */
export async function hashIp(ip: string, salt: string | undefined): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${salt || DEVELOPMENT_SALT}:${networkKey(ip)}`));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
