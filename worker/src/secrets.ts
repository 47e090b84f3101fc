/**
 * The Worker's secrets and which of them a production Worker must have: one rule for the Worker (env.ts) and for
 * `npm run deploy` (scripts/service/deploy.ts), which is why it has no runtime types.
 */
import type { ServiceSettings } from "../../shared/service-settings";

/** The Worker's secrets (docs/deploy.md: Configuration); each may be unset locally. */
export interface ServiceSecrets {
  /** Klaviyo private API key (`pk_…`). Unset: demo delivery (rows marked `demo`, nothing sent). */
  KLAVIYO_PRIVATE_API_KEY: string;
  /** Turnstile secret key. Unset: Turnstile is not checked. */
  TURNSTILE_SECRET_KEY: string;
  /** Salt of the stored client-IP hashes. Unset locally: a fixed development salt. */
  IP_HASH_SALT: string;
  /** Key the invitation tokens are sealed under (launch/tokens.ts). Unset locally: a fixed development key. */
  INVITATION_TOKEN_KEY: string;
  /**
   * The seed of the Ed25519 key that signs every audit log entry and its published checkpoints
   * (console/audit-log.ts). Unset locally: a fixed development key.
   */
  AUDIT_SIGNING_KEY: string;
  /** The shared secret of Klaviyo's confirmation webhook (`Authorization: Bearer`). Unset: the webhook answers 503. */
  KLAVIYO_WEBHOOK_SECRET: string;
  /** The webhook's former secret, taken as well while the flow is switched to a new one; unset otherwise. */
  KLAVIYO_WEBHOOK_SECRET_PREVIOUS: string;
  /** The firm's product's secret for checking invitations in (`Authorization: Bearer`). Unset: check-in answers 503. */
  LAUNCH_CHECKIN_SECRET: string;
}

export type SecretName = keyof ServiceSecrets;

/**
 * The secrets a production Worker needs: the Klaviyo private API key (else signups never reach the list), the
 * Turnstile secret (else bots get in), the IP hash salt (an unsalted IPv4 hash is reversed by trying all 2^32), the
 * invitation token key (else the tokens' seal is the public development key), the audit signing key (else anyone
 * could sign a rewritten audit log with the public development key) and the launch check-in secret (else no
 * invitation can be accepted); with referrals counted after confirmation, the webhook secret too (else no referral
 * ever counts).
 * @param settings null when unknown (then only the first six are named)
 */
export function requiredSecrets(settings: Pick<ServiceSettings, "referrals"> | null): SecretName[] {
  const required: SecretName[] = [
    "KLAVIYO_PRIVATE_API_KEY",
    "TURNSTILE_SECRET_KEY",
    "IP_HASH_SALT",
    "INVITATION_TOKEN_KEY",
    "AUDIT_SIGNING_KEY",
    "LAUNCH_CHECKIN_SECRET",
  ];
  if (settings?.referrals.enabled && settings.referrals.countAfter === "confirmation") required.push("KLAVIYO_WEBHOOK_SECRET");
  return required;
}

/**
 * Secrets that must be long and random in production: a short or patterned webhook secret can be guessed, and a
 * guessable salt lets anyone holding the database reverse the IP hashes, a guessable token key open its invitations,
 * a guessable audit key sign a rewritten log.
 */
const RANDOM_SECRETS: readonly SecretName[] = [
  "IP_HASH_SALT",
  "INVITATION_TOKEN_KEY",
  "AUDIT_SIGNING_KEY",
  "KLAVIYO_WEBHOOK_SECRET",
  "KLAVIYO_WEBHOOK_SECRET_PREVIOUS",
  "LAUNCH_CHECKIN_SECRET",
];

/** The shortest random secret taken (characters): `openssl rand -hex 32` gives 64. */
export const RANDOM_SECRET_MIN_LENGTH = 32;

/** Distinct characters a random secret of that length has at the least; "aaaa…" or "abab…" has far fewer. */
const RANDOM_SECRET_MIN_DISTINCT = 8;

/**
 * The secrets among those set that are too short or too patterned to be random (names only).
 * @param secrets the Worker's secrets as set (unset ones are not judged here: requiredSecrets names them)
 */
export function weakSecrets(secrets: Partial<ServiceSecrets>): SecretName[] {
  return RANDOM_SECRETS.filter((name) => {
    const value = secrets[name];
    return Boolean(value) && (value!.length < RANDOM_SECRET_MIN_LENGTH || new Set(value).size < RANDOM_SECRET_MIN_DISTINCT);
  });
}
