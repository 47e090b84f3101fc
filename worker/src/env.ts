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
export type ServiceEnv = Omit<Env, "DELIVERY"> & { DELIVERY: Queue<DeliveryMessage> } & Partial<ServiceSecrets> & DevelopmentVars;

/** Vars a local run passes (`npm start`) and wrangler.jsonc does not declare, since production must not have them. */
export interface DevelopmentVars {
  /**
   * The origin the product is served from, e.g. `http://127.0.0.1:8787`: the links the service writes start with it
   * instead of the build's siteUrl (site-origin.ts). Outside production only.
   */
  SITE_ORIGIN?: string;
}

/** The ENVIRONMENT var of a deployed Worker (wrangler.jsonc `vars`); `npm start` and the tests run `development`. */
export const PRODUCTION = "production";

/**
 * What keeps a production Worker from taking signups, as names; empty when nothing does. The secrets it lacks, by
 * secrets.ts's requiredSecrets (never demo delivery, never without Turnstile or a salt, and with referrals counted
 * after confirmation never without the webhook's secret), and SITE_ORIGIN when it is set: a development var, whose
 * links would lead away from the site.
 * @param settings the build's settings, or null when they cannot be read
 * @returns [] outside production
 */
export function productionProblems(env: ServiceEnv, settings: ServiceSettings | null): (SecretName | "SITE_ORIGIN")[] {
  if (env.ENVIRONMENT !== PRODUCTION) return [];
  const problems: (SecretName | "SITE_ORIGIN")[] = requiredSecrets(settings).filter((name) => !env[name]);
  if (env.SITE_ORIGIN) problems.push("SITE_ORIGIN");
  return problems;
}

/** Hono's environment of every route: the bindings, and what middleware has read for the handler. */
export interface AppEnv {
  Bindings: ServiceEnv;
  Variables: {
    /** The build's settings (middleware.ts: withSettings). */
    settings: ServiceSettings;
  };
}
