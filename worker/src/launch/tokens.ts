/**
 * An invitation's token and link. The token is derived from the invitation's id with HMAC-SHA-256 under a key the
 * Worker derives from IP_HASH_SALT (HKDF, its own `info`), so the invitation event and its reminder carry the same
 * link while the database holds only the token's SHA-256: a leaked database gives no invitation away. Rotating
 * IP_HASH_SALT voids the links of the invitations still open. docs/operators.md: Launch.
 */
import { INVITATION_TOKEN_PATTERN, INVITE_PAGE_PATH, INVITE_PARAMETER } from "../../../shared/launch";
import type { ServiceSettings } from "../../../shared/service-settings";
import type { ServiceEnv } from "../env";
import { hashStatusToken } from "../referrals/codes";
import { DEVELOPMENT_SALT } from "../signups/ip-hash";

/** HKDF's `info`: this key is for invitation tokens and nothing else. */
const TOKEN_KEY_INFO = "waitlist invitation token v1";

const keys = new Map<string, Promise<CryptoKey>>();

/** The HMAC key of invitation tokens, derived once per secret. */
function tokenKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveKey"])
      .then((material) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode(TOKEN_KEY_INFO) },
          material,
          { name: "HMAC", hash: "SHA-256", length: 256 },
          false,
          ["sign"],
        ),
      );
    keys.set(secret, key);
  }
  return key;
}

/**
 * The token of the invitation `id`: base64url of HMAC-SHA-256(key, id), 43 characters (INVITATION_TOKEN_PATTERN).
 * @param env IP_HASH_SALT, unset only in development (then a fixed development secret)
 */
export async function invitationToken(id: string, env: Pick<ServiceEnv, "IP_HASH_SALT">): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await tokenKey(env.IP_HASH_SALT || DEVELOPMENT_SALT), new TextEncoder().encode(id));
  return btoa(String.fromCharCode(...new Uint8Array(signature)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** What the database stores of a token: its SHA-256, lower-case hex (the same digest as a status token's). */
export const hashInvitationToken: (token: string) => Promise<string> = hashStatusToken;

/** Whether `token` has an invitation token's form (checked before any lookup). */
export function isInvitationToken(token: unknown): token is string {
  return typeof token === "string" && INVITATION_TOKEN_PATTERN.test(token);
}

/**
 * The invitation's link: `<launch.productSignupUrl>?invite=<token>`, or the site's own /invite/ page while the
 * content names no product (on the served origin in development: site-origin.ts).
 */
export function inviteUrl(settings: Pick<ServiceSettings, "siteUrl" | "launch">, token: string): string {
  const url = new URL(settings.launch.productSignupUrl || `${settings.siteUrl}${INVITE_PAGE_PATH}`);
  url.searchParams.set(INVITE_PARAMETER, token);
  return url.toString();
}
