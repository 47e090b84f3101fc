/** The Worker's environment: wrangler.jsonc's bindings and vars, the secrets, and what middleware hands a handler. */
import type { ServiceSettings } from "../../shared/service-settings";
import { requiredSecrets, type SecretName, type ServiceSecrets } from "./secrets";

/**
 * A delivery queue message: the row's id only, never personal data (the consumer reads the row from D1). `kind`
 * absent or `signup`: the signup's delivery, recorded in the row; `profile`: the person's referral properties changed,
 * a profile update that records nothing.
 */
export interface DeliveryMessage {
  signupId: string;
  kind?: "signup" | "profile";
  /** Set when the consumer dead-letters a message Klaviyo refused; without it, a dead letter ran out of retries. */
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
 * What a production Worker lacks to take signups (secrets.ts's requiredSecrets), as secret names; empty when it may.
 * @param settings null when they cannot be read
 * @returns [] outside production
 */
export function productionProblems(env: ServiceEnv, settings: ServiceSettings | null): SecretName[] {
  if (env.ENVIRONMENT !== PRODUCTION) return [];
  return requiredSecrets(settings).filter((name) => !env[name]);
}

/** Hono's environment of every route. */
export interface AppEnv {
  Bindings: ServiceEnv;
  Variables: {
    /** The build's settings (middleware.ts: withSettings). */
    settings: ServiceSettings;
  };
}
