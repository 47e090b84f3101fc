/**
 * The Worker's environment: the bindings and vars wrangler.jsonc declares (the generated `Env`), the secrets
 * (`wrangler secret put`; locally `--var` or `.dev.vars`), and what the routes' middleware hands a handler.
 */
import type { ServiceSettings } from "../../shared/service-settings";
import { requiredSecrets, type SecretName, type ServiceSecrets } from "./secrets";

/**
 * What the delivery queue carries: the row's id only, never personal data (the consumer reads the row from D1), and
 * what to send:
 * - no `kind` (or `signup`): the signup's delivery, profile-import then the list subscription, recorded in the row's
 *   delivery columns;
 * - `profile`: the person's referral standing changed (a referral of theirs counted): profile-import of their profile
 *   properties only; nothing is recorded in the row.
 */
export interface DeliveryMessage {
  /** signups.id */
  signupId: string;
  kind?: "signup" | "profile";
  /**
   * Set on a dead letter the consumer sends itself because Klaviyo refused the message; a dead letter without it ran
   * out of retries (Klaviyo unreachable or failing), and a profile update among those is owed again (the sweep).
   */
  refused?: true;
}

export type { ServiceSecrets };

/**
 * Env with the delivery queue typed by its message, and the secrets as optional strings. An intersection (not
 * `extends`), so that a later `wrangler types` run that sees the secrets in a `.dev.vars` still compiles.
 */
export type ServiceEnv = Omit<Env, "DELIVERY"> & { DELIVERY: Queue<DeliveryMessage> } & Partial<ServiceSecrets>;

/** The ENVIRONMENT var of a deployed Worker (wrangler.jsonc `vars`); `npm start` and the tests run `development`. */
export const PRODUCTION = "production";

/**
 * What a production Worker lacks to take signups, as secret names; empty when it may. The rule is secrets.ts's
 * requiredSecrets: never demo delivery, never without Turnstile or a salt, and with referrals counted after
 * confirmation never without the webhook's secret.
 * @param settings the build's settings, or null when they cannot be read
 * @returns [] outside production
 */
export function productionProblems(env: ServiceEnv, settings: ServiceSettings | null): SecretName[] {
  if (env.ENVIRONMENT !== PRODUCTION) return [];
  return requiredSecrets(settings).filter((name) => !env[name]);
}

/** Hono's environment of every route: the bindings, and what middleware has read for the handler. */
export interface AppEnv {
  Bindings: ServiceEnv;
  Variables: {
    /** The build's settings (middleware.ts: withSettings). */
    settings: ServiceSettings;
  };
}
