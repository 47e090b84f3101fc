/**
 * The Worker vars and secrets the shell passes to the local service, so tests can point third parties
 * at stand-ins; one unset keeps wrangler.jsonc's value.
 */

/** The variables passed through, in the order of docs/deploy.md's Configuration table. */
export const PASSED_THROUGH = [
  "KLAVIYO_PRIVATE_API_KEY",
  "KLAVIYO_API_URL",
  "TURNSTILE_SECRET_KEY",
  "TURNSTILE_VERIFY_URL",
  "IP_HASH_SALT",
  "KLAVIYO_WEBHOOK_SECRET",
  "SITE_ORIGIN",
  "CONSOLE_LOCAL_ROLE",
] as const;

/** The `--var` values for wrangler dev: every passed-through variable that is set and not empty. */
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
