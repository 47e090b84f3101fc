/**
 * Which Worker vars and secrets a local run (`npm start`) takes from the shell, and the ones it never takes. One unset
 * in the shell keeps `.dev.vars`' value, else wrangler.jsonc's.
 * docs/deploy.md's Configuration table names every one; a test holds the two lists to it.
 */
import type { SecretName } from "../../worker/src/secrets";

/**
 * The vars and secrets passed from the shell to `wrangler dev` (`--var`), in the order of docs/deploy.md's
 * Configuration table: every one a local run may set, so that tests and developers can point third parties at
 * stand-ins and try each feature that needs a secret.
 */
export const PASSED_THROUGH = [
  "KLAVIYO_PRIVATE_API_KEY",
  "KLAVIYO_API_URL",
  "TURNSTILE_SECRET_KEY",
  "TURNSTILE_VERIFY_URL",
  "IP_HASH_SALT",
  "KLAVIYO_WEBHOOK_SECRET",
  "KLAVIYO_WEBHOOK_SECRET_PREVIOUS",
  "LAUNCH_CHECKIN_SECRET",
  "REFERRALS_PER_CODE_PER_HOUR",
  "REFERRALS_PER_DOMAIN_PER_HOUR",
  "SITE_ORIGIN",
  "ACCESS_TEAM_DOMAIN",
  "ACCESS_AUD",
  "CONSOLE_OPERATORS",
  "CONSOLE_OPERATOR_GROUP",
  "EDITOR_HOST",
  "CONSOLE_LOCAL_OPERATOR",
  "CONSOLE_LOCAL_ROLE",
] as const;

/** A var or secret of PASSED_THROUGH. */
export type PassedThrough = (typeof PASSED_THROUGH)[number];

/** Compiles only for `never`. */
type Nothing<T extends never> = T;

/**
 * The Worker's secrets left out of PASSED_THROUGH, which must be none: a secret added to worker/src/secrets.ts and not
 * passed fails the type check here, since a local run could never try what it guards.
 */
export type SecretsNotPassed = Nothing<Exclude<SecretName, PassedThrough>>;

/**
 * The Worker vars of docs/deploy.md's Configuration table a local run never takes from the shell or `.dev.vars`, each
 * with why: `npm start` sets them itself (scripts/lib/wrangler.ts: startWranglerDev).
 */
export const HELD_BACK: Readonly<Record<string, string>> = {
  ENVIRONMENT:
    "always `development` on a local run: the demo delivery, the local operator and SITE_ORIGIN need it, and a name " +
    "as common as ENVIRONMENT in a shell would otherwise turn them off unnoticed",
  CONSOLE_HOST:
    "always `localhost` on a local run, the host of the console's address that npm start prints; any other host " +
    "would leave that address a 404",
};

/** The `--var` values for wrangler dev: every passed-through variable that is set and not empty, trimmed. */
export function passedThroughVars(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const name of PASSED_THROUGH) {
    const value = env[name]?.trim();
    if (value) vars[name] = value;
  }
  return vars;
}

/**
 * The console's operator on `npm start`, signed in without Cloudflare Access (the Worker's CONSOLE_LOCAL_OPERATOR,
 * honoured with ENVIRONMENT=development only, on a loopback host); CONSOLE_LOCAL_OPERATOR in the shell names another.
 */
export const LOCAL_CONSOLE_OPERATOR = "local-operator@localhost";

/** The CONSOLE_LOCAL_OPERATOR var of a local run: the shell's, else LOCAL_CONSOLE_OPERATOR. */
export function localConsoleOperator(env: NodeJS.ProcessEnv = process.env): string {
  return env.CONSOLE_LOCAL_OPERATOR?.trim() || LOCAL_CONSOLE_OPERATOR;
}
