/**
 * An invitation's token and link. A token is 256 random bits, made once with its invitation; the row keeps its
 * SHA-256 (`token_hash`, what a check-in looks up) and the token sealed with AES-256-GCM under a key derived from
 * INVITATION_TOKEN_KEY, the invitation's id as associated data (`token_sealed`), so the Worker alone rebuilds the same
 * link for the event, its retries and resends, the reminder and the person's status page.
 * Trade-off: the database alone, an invitation's id or IP_HASH_SALT gives no invitation away, but the database together
 * with INVITATION_TOKEN_KEY gives every one; with the key rotated, links already e-mailed still check in, yet the
 * Worker can no longer rebuild them, so their unsent events, reminders and status-page links fail.
 * docs/operators.md: Launch.
 */
import { INVITATION_TOKEN_PATTERN, INVITE_PAGE_PATH, INVITE_PARAMETER } from "../../../shared/launch";
import type { ServiceSettings } from "../../../shared/service-settings";
import type { ServiceEnv } from "../env";
import { hashStatusToken } from "../referrals/codes";
import { mismatchReason, productOriginMismatch } from "./product-origin";

/** The key when INVITATION_TOKEN_KEY is unset, which only a development Worker may be (env.ts: productionProblems). */
export const DEVELOPMENT_TOKEN_KEY = "development invitation token key";

/** HKDF's `info`: this key seals invitation tokens and nothing else. */
const SEAL_KEY_INFO = "waitlist invitation token seal v1";

/** Random bytes in a token: 256 bits, over the 128 a secret link needs; base64url makes INVITATION_TOKEN_LENGTH. */
const TOKEN_BYTES = 32;

/** Bytes of AES-GCM's nonce, random for each seal (the length GCM is defined for without hashing the nonce). */
const NONCE_BYTES = 12;

const keys = new Map<string, Promise<CryptoKey>>();

/** The AES-GCM key of sealed tokens, derived once per secret. */
function sealKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveKey"])
      .then((material) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode(SEAL_KEY_INFO) },
          material,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keys.set(secret, key);
  }
  return key;
}

/** The secret the seal key is derived from. */
function secretOf(env: Pick<ServiceEnv, "INVITATION_TOKEN_KEY">): string {
  return env.INVITATION_TOKEN_KEY || DEVELOPMENT_TOKEN_KEY;
}

/** base64url without padding. */
function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The bytes of base64url text; throws on text that is not base64. */
function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** What an invitation row stores of its token: never the token itself. */
export interface StoredToken {
  /** SHA-256 of the token, lower-case hex: `invitations.token_hash`. */
  hash: string;
  /** base64url of nonce ‖ AES-GCM ciphertext and tag: `invitations.token_sealed`. */
  sealed: string;
}

/**
 * A new random token for the invitation `id` (crypto.getRandomValues), as its row stores it.
 * @param env INVITATION_TOKEN_KEY, unset only in development (then DEVELOPMENT_TOKEN_KEY)
 */
export async function newInvitationToken(id: string, env: Pick<ServiceEnv, "INVITATION_TOKEN_KEY">): Promise<StoredToken> {
  const token = base64url(crypto.getRandomValues(new Uint8Array(TOKEN_BYTES)));
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv: nonce, additionalData: new TextEncoder().encode(id) },
    await sealKey(secretOf(env)),
    new TextEncoder().encode(token),
  );
  return { hash: await hashInvitationToken(token), sealed: base64url(new Uint8Array([...nonce, ...new Uint8Array(sealed)])) };
}

/**
 * The token sealed in the invitation `id`'s row.
 * @param sealed `invitations.token_sealed`; null for an invitation made before tokens were sealed
 * @returns the token, or null when there is none or this key did not seal it (rotated, or sealed for another row)
 */
export async function openInvitationToken(
  id: string,
  sealed: string | null,
  env: Pick<ServiceEnv, "INVITATION_TOKEN_KEY">,
): Promise<string | null> {
  if (!sealed) return null;
  try {
    const bytes = fromBase64url(sealed);
    const token = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, NONCE_BYTES), additionalData: new TextEncoder().encode(id) },
      await sealKey(secretOf(env)),
      bytes.slice(NONCE_BYTES),
    );
    return new TextDecoder().decode(token);
  } catch {
    return null;
  }
}

/** An invitation's link, or why the Worker builds none (a line for the log and the row's `send_error`). */
export type InvitationLink = { url: string } | { refused: string };

/**
 * The link of the invitation `id`, rebuilt from its sealed token (inviteUrl). Refused, with no token opened, when the
 * link would lead to another origin than PRODUCT_SIGNUP_ORIGIN (product-origin.ts); refused too when the token cannot
 * be opened (openInvitationToken).
 */
export async function invitationLink(
  settings: Pick<ServiceSettings, "siteUrl" | "launch">,
  invitation: { id: string; token_sealed: string | null },
  env: Pick<ServiceEnv, "INVITATION_TOKEN_KEY" | "PRODUCT_SIGNUP_ORIGIN">,
): Promise<InvitationLink> {
  const mismatch = productOriginMismatch(settings.launch.productSignupUrl, env.PRODUCT_SIGNUP_ORIGIN);
  if (mismatch) return { refused: mismatchReason(mismatch) };
  const token = await openInvitationToken(invitation.id, invitation.token_sealed, env);
  return token === null ? { refused: "token not sealed under this key" } : { url: inviteUrl(settings, token) };
}

/** What the database stores of a token: its SHA-256, lower-case hex (the same digest as a status token's). */
export const hashInvitationToken: (token: string) => Promise<string> = hashStatusToken;

/** Whether `token` has an invitation token's form (checked before any lookup). */
export function isInvitationToken(token: unknown): token is string {
  return typeof token === "string" && INVITATION_TOKEN_PATTERN.test(token);
}

/**
 * The invitation's link: `<launch.productSignupUrl>?invite=<token>`, or the site's own /invite/ page while the
 * content names no product (on the served origin in development: site-origin.ts). Checks no origin: invitationLink
 * does, before any token is opened.
 */
export function inviteUrl(settings: Pick<ServiceSettings, "siteUrl" | "launch">, token: string): string {
  const url = new URL(settings.launch.productSignupUrl || `${settings.siteUrl}${INVITE_PAGE_PATH}`);
  url.searchParams.set(INVITE_PARAMETER, token);
  return url.toString();
}
