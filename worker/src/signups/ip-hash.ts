/**
 * Client IPs are stored only as a salted SHA-256 hash: enough to see many signups from one address (the operator's
 * review, the referral program's same-IP flag), never the address itself.
 */

/** The salt when IP_HASH_SALT is unset, which only a non-production Worker may be (env.ts: productionProblems). */
const DEVELOPMENT_SALT = "development";

/**
 * SHA-256 of `salt:ip`, as lower-case hex (64 characters).
 * @param ip CF-Connecting-IP
 * @param salt IP_HASH_SALT, or undefined locally
 */
export async function hashIp(ip: string, salt: string | undefined): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${salt || DEVELOPMENT_SALT}:${ip}`));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
