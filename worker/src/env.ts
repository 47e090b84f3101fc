/** The Worker's environment: wrangler.jsonc's bindings and vars, the secrets, and what middleware hands a handler. */
import type { ConsoleRole } from "../../shared/console";
import { countsAtSignup } from "../../shared/referral-program";
import type { ServiceSettings } from "../../shared/service-settings";
import { RANDOM_SECRET_MIN_LENGTH, requiredSecrets, type ServiceSecrets, weakSecrets } from "./secrets";
import type { ReferralPerson } from "./store/referrals";

/**
 * What the delivery queue carries: the row's id only, never personal data (the consumer reads the row from D1), and
 * what to do with it:
 * - no `kind` (or `signup`): the signup's delivery, profile-import then the list subscription, recorded in the row;
 * - `profile`: the person's referral standing changed: profile-import of their profile properties only;
 * - `confirm`: Klaviyo's webhook says the person confirmed; Klaviyo's API is asked before anything is recorded;
 * - `already`: someone signed up again with the person's address: their status link goes to their inbox.
 * - `erase`: an operator erased the person: Klaviyo is asked to delete the profile (the `erasures` row, keyed by the
 *   erased signups.id, holds the address until Klaviyo accepts).
 */
export interface DeliveryMessage {
  signupId: string;
  kind?: "signup" | "profile" | "confirm" | "already" | "erase";
  /** Set when the consumer dead-letters a message Klaviyo refused; without it, a dead letter ran out of retries. */
  refused?: true;
}

/**
 * What the delivery queue carries for launch day (launch/send.ts): an invitation's event or its reminder, by the
 * invitation's id, or the next pages of a batch still choosing, by the batch's id. Never personal data or a token.
 */
export type LaunchMessage = { kind: "invitation" | "reminder"; invitationId: string } | { kind: "batch"; batchId: string };

/** What the draw queue carries (draw/job.ts): the draw and the step the message is for. */
export interface DrawJobMessage {
  draw: string;
  step: number;
}

export type { ServiceSecrets };

/**
 * Env with the delivery queue typed by its message, and the secrets as optional strings. An intersection (not
 * `extends`), so that a later `wrangler types` run that sees the secrets in a `.dev.vars` still compiles.
 */
export type ServiceEnv = Omit<Env, "DELIVERY" | "DRAW_JOB"> & {
  DELIVERY: Queue<DeliveryMessage | LaunchMessage>;
  DRAW_JOB: Queue<DrawJobMessage>;
} & Partial<ServiceSecrets> &
  DevelopmentVars;

/** Vars a local run passes (`npm start`) and wrangler.jsonc does not declare, since production must not have them. */
export interface DevelopmentVars {
  /**
   * The origin the product is served from, e.g. `http://127.0.0.1:8787`: the links the service writes start with it
   * instead of the build's siteUrl (site-origin.ts). In development only.
   */
  SITE_ORIGIN?: string;
  /**
   * The operator's console signs this operator (an e-mail address) in without an Access token: `npm start`'s local
   * operator (console/access.ts), on a loopback host only. In development only: any other Worker ignores it and
   * refuses signups while it is set.
   */
  CONSOLE_LOCAL_OPERATOR?: string;
  /** The local operator's role (`viewer` to try the console as a viewer); `operator` unless it says `viewer`. */
  CONSOLE_LOCAL_ROLE?: string;
}

/** The ENVIRONMENT var of `npm start` and the tests; a deployed Worker has `production` (wrangler.jsonc `vars`). */
export const DEVELOPMENT = "development";

/**
 * Whether this Worker may relax anything (the local operator, demo delivery, SITE_ORIGIN, Server-Timing, plain-http
 * Access): only when ENVIRONMENT is exactly `development`. Any other value (`production`, `staging`, empty, a typo)
 * is production, so a deployment that names its environment wrongly fails closed.
 */
export function isDevelopment(env: Pick<ServiceEnv, "ENVIRONMENT">): boolean {
  return env.ENVIRONMENT === DEVELOPMENT;
}

/**
 * What keeps a production Worker from taking signups, for the log: each secret it lacks (secrets.ts's
 * requiredSecrets), each one too short or patterned to be random, SITE_ORIGIN or CONSOLE_LOCAL_OPERATOR when set
 * (development vars: links that would lead away from the site, a console operator signed in without Access), a page
 * without a Turnstile site key (every signup would fail the check), and a referral program that counts at signup
 * (shared/referral-program.ts: countsAtSignup).
 * @param settings null when they cannot be read
 * @returns [] in development
 */
export function productionProblems(env: ServiceEnv, settings: ServiceSettings | null): string[] {
  if (isDevelopment(env)) return [];
  const missing = requiredSecrets(settings).filter((name) => !env[name]);
  const weak = weakSecrets(env).map((name) => `${name} (not random: at least ${RANDOM_SECRET_MIN_LENGTH} random characters)`);
  const development = (["SITE_ORIGIN", "CONSOLE_LOCAL_OPERATOR"] as const).filter((name) => env[name]);
  const build: string[] = [];
  if (settings && !settings.turnstileSiteKey) build.push("turnstileSiteKey");
  if (settings && countsAtSignup(settings.referrals)) build.push("referrals.countAfter (signup; production counts after confirmation)");
  return [...missing, ...weak, ...development, ...build];
}

/** Hono's environment of every route. */
export interface AppEnv {
  Bindings: ServiceEnv;
  Variables: {
    /** The build's settings (middleware.ts: withSettings). */
    settings: ServiceSettings;
    /** Who is signed in to the operator's console (console/access.ts: consoleAccess); console routes only. */
    operator: Operator;
    /** The person whose status token the request brings (referrals/status.ts: statusTokenHolder); status routes only. */
    statusHolder: { person: ReferralPerson; token: string };
  };
}

/** An operator of the console: their identity from Access (or the local operator), whether it is the local one, their role. */
export interface Operator {
  /** The Access JWT's `email`, a service token's `common_name`, or CONSOLE_LOCAL_OPERATOR. */
  id: string;
  local: boolean;
  /** What they may do (console/access.ts: roleOf). */
  role: ConsoleRole;
}
