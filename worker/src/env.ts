/**
 * The Worker's environment: the bindings and vars wrangler.jsonc declares (the generated `Env`) plus the secrets,
 * which wrangler.jsonc cannot name (`wrangler secret put`; locally `--var` from `npm start` or `.dev.vars`).
 */

/** What the delivery queue carries: the row's id only, never personal data (the consumer reads the row from D1). */
export interface DeliveryMessage {
  /** signups.id */
  signupId: string;
}

/** The Worker's secrets; each may be unset locally (see productionProblems for production). */
export interface ServiceSecrets {
  /** Klaviyo private API key (`pk_…`). Unset: demo delivery (rows marked `demo`, nothing sent). */
  KLAVIYO_PRIVATE_API_KEY: string;
  /** Turnstile secret key. Unset: Turnstile is not checked. */
  TURNSTILE_SECRET_KEY: string;
  /** Salt of the stored client-IP hashes. Unset locally: a fixed development salt. */
  IP_HASH_SALT: string;
}

/**
 * Env with the delivery queue typed by its message, and the secrets as optional strings. An intersection (not
 * `extends`), so that a later `wrangler types` run that sees the secrets in a `.dev.vars` still compiles.
 */
export type ServiceEnv = Omit<Env, "DELIVERY"> & { DELIVERY: Queue<DeliveryMessage> } & Partial<ServiceSecrets>;

/** The ENVIRONMENT var of a deployed Worker (wrangler.jsonc `vars`); `npm start` and the tests run `development`. */
export const PRODUCTION = "production";

/**
 * What a production Worker lacks to take signups, as secret names; empty when it may. Production never runs in
 * demo delivery (signups would be stored and never reach the list), without Turnstile (bots would reach the list)
 * or with reversible IP hashes (an unsalted hash of an IPv4 address is found by trying all 2^32).
 * @returns [] outside production
 */
export function productionProblems(env: ServiceEnv): (keyof ServiceSecrets)[] {
  if (env.ENVIRONMENT !== PRODUCTION) return [];
  const required: (keyof ServiceSecrets)[] = ["KLAVIYO_PRIVATE_API_KEY", "TURNSTILE_SECRET_KEY", "IP_HASH_SALT"];
  return required.filter((name) => !env[name]);
}
