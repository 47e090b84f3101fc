/**
 * Which Worker vars and secrets a local run (`npm start`) takes from the shell, the ones it never takes, and what is
 * off on a run while an optional one is unset. One unset in the shell keeps `.dev.vars`' value, else wrangler.jsonc's.
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
  "INVITATION_TOKEN_KEY",
  "AUDIT_SIGNING_KEY",
  "KLAVIYO_WEBHOOK_SECRET",
  "KLAVIYO_WEBHOOK_SECRET_PREVIOUS",
  "LAUNCH_CHECKIN_SECRET",
  "PRODUCT_SIGNUP_ORIGIN",
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

/**
 * What is off on a local run while an optional secret or var is unset, for the start-up output. The others have a
 * default that works locally (wrangler.jsonc's, a development salt, the local operator instead of Access).
 */
export const OFF_WHILE_UNSET: Readonly<Partial<Record<PassedThrough, string>>> = {
  KLAVIYO_PRIVATE_API_KEY:
    "demo delivery: rows are stored, nothing is sent, a delivered signup counts as confirmed, and its status link " +
    "is printed as demo_status_link",
  TURNSTILE_SECRET_KEY: "Turnstile is not checked",
  KLAVIYO_WEBHOOK_SECRET: "POST /api/hooks/klaviyo/confirmed answers 503",
  LAUNCH_CHECKIN_SECRET: "POST /api/invitations/check-in answers 503",
  EDITOR_HOST: "the web editor (/admin/) is served on no host; npm run cms edits locally",
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
 * honoured with ENVIRONMENT=development only, on a loopback host); CONSOLE_LOCAL_OPERATOR in the shell or `.dev.vars`
 * names another.
 */
export const LOCAL_CONSOLE_OPERATOR = "local-operator@localhost";

/**
 * The `--var` values `npm start` gives wrangler dev: the shell's passed-through ones (passedThroughVars), and the two
 * that have a default of the run's own (the operator, LOCAL_CONSOLE_OPERATOR; the links' origin, the served one, set
 * by startWranglerDev), taken from `.dev.vars` when the shell lacks them, since a `--var` default would hide its value.
 * @param shell the shell's variables
 * @param devVars what wrangler reads before any `--var` (scripts/lib/wrangler.ts: localWorkerVars), by name
 * @returns values by name, none empty; SITE_ORIGIN absent when neither sets it
 */
export function localRunVars(shell: NodeJS.ProcessEnv, devVars: Readonly<Record<string, string>>): Record<string, string> {
  const vars = passedThroughVars(shell);
  vars.CONSOLE_LOCAL_OPERATOR ??= devVars.CONSOLE_LOCAL_OPERATOR?.trim() || LOCAL_CONSOLE_OPERATOR;
  const siteOrigin = devVars.SITE_ORIGIN?.trim();
  if (!vars.SITE_ORIGIN && siteOrigin) vars.SITE_ORIGIN = siteOrigin;
  return vars;
}

/**
 * The optional vars and secrets unset on a run, each as `NAME unset: what is off`, in PASSED_THROUGH's order.
 * @param vars the Worker's vars as the run has them: localWorkerVars with the `--var` values over them
 * @returns [] when every one of OFF_WHILE_UNSET is set
 */
export function unsetReport(vars: Readonly<Record<string, string | undefined>>): string[] {
  return PASSED_THROUGH.flatMap((name) => {
    const off = OFF_WHILE_UNSET[name];
    return off !== undefined && !vars[name]?.trim() ? [`${name} unset: ${off}`] : [];
  });
}
