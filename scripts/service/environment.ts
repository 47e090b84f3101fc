/**
 * The Worker settings an operator's shell passes to the local service (`npm start`, the API bench): the secrets and
 * the addresses of the third parties, so that tests and staging can point them at stand-ins. Each is a Worker var or
 * secret of the same name; one unset here keeps wrangler.jsonc's value (or stays unset: demo delivery, no Turnstile).
 */

/** The variables passed through, in the README's order. */
export const PASSED_THROUGH = [
  "KLAVIYO_PRIVATE_API_KEY",
  "KLAVIYO_API_URL",
  "TURNSTILE_SECRET_KEY",
  "TURNSTILE_VERIFY_URL",
  "IP_HASH_SALT",
  "KLAVIYO_WEBHOOK_SECRET",
] as const;

/**
 * The `--var` values for wrangler dev: every passed-through variable that is set and not empty.
 * @param env the shell's environment (default process.env)
 */
export function passedThroughVars(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const name of PASSED_THROUGH) {
    const value = env[name]?.trim();
    if (value) vars[name] = value;
  }
  return vars;
}
