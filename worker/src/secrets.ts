/**
 * The Worker's secrets and which of them a production Worker must have: one rule, read by the Worker at run time
 * (env.ts: productionProblems) and by `npm run deploy` before it deploys (scripts/service/deploy.ts). No runtime
 * types, so the deploy script imports it too.
 */
import type { ServiceSettings } from "../../shared/service-settings";

/** The Worker's secrets (`wrangler secret put`; locally `--var` from `npm start` or `.dev.vars`); each may be unset locally. */
export interface ServiceSecrets {
  /** Klaviyo private API key (`pk_…`). Unset: demo delivery (rows marked `demo`, nothing sent). */
  KLAVIYO_PRIVATE_API_KEY: string;
  /** Turnstile secret key. Unset: Turnstile is not checked. */
  TURNSTILE_SECRET_KEY: string;
  /** Salt of the stored client-IP hashes. Unset locally: a fixed development salt. */
  IP_HASH_SALT: string;
  /**
   * The shared secret of Klaviyo's confirmation webhook (`POST /api/hooks/klaviyo/confirmed`, sent by the flow as
   * `Authorization: Bearer <secret>`). Unset: the webhook answers 503 and no confirmation is recorded.
   */
  KLAVIYO_WEBHOOK_SECRET: string;
}

/** A secret's name. */
export type SecretName = keyof ServiceSecrets;

/**
 * The secrets a production Worker needs for a build's settings. Always: the Klaviyo private API key (else signups are
 * stored and never reach the list), the Turnstile secret (else bots reach it) and the IP hash salt (an unsalted hash
 * of an IPv4 address is found by trying all 2^32). With the referral program on and referrals counted after
 * confirmation, also the webhook secret: without it no confirmation arrives and no referral ever counts.
 * @param settings the build's service settings; null when unknown (only the first three are named)
 */
export function requiredSecrets(settings: Pick<ServiceSettings, "referrals"> | null): SecretName[] {
  const required: SecretName[] = ["KLAVIYO_PRIVATE_API_KEY", "TURNSTILE_SECRET_KEY", "IP_HASH_SALT"];
  if (settings?.referrals.enabled && settings.referrals.countAfter === "confirmation") required.push("KLAVIYO_WEBHOOK_SECRET");
  return required;
}
