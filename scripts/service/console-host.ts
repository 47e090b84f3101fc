/**
 * The console's own host as wrangler.jsonc's `vars.CONSOLE_HOST` names it: the one place the Worker
 * (worker/src/hosts.ts), `npm run deploy` and `npm run waitlist -- … --env production` read it from.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_DIR } from "../lib/wrangler";

/** wrangler.jsonc's console host until the one-time setup names the real one. */
export const PLACEHOLDER_CONSOLE_HOST = "console.your-domain.example";

/** The var in wrangler.jsonc's text (its `vars` hold plain strings). */
const CONSOLE_HOST_VAR = /"CONSOLE_HOST"\s*:\s*"([^"]*)"/;

/** CONSOLE_HOST in wrangler.jsonc's text, trimmed and lower case; "" when it is empty or missing. */
export function consoleHostOf(config: string): string {
  return (CONSOLE_HOST_VAR.exec(config)?.[1] ?? "").trim().toLowerCase();
}

/**
 * The deployed console's origin, `https://<CONSOLE_HOST>`, from the repository's wrangler.jsonc.
 * @throws Error when CONSOLE_HOST is empty or still the placeholder
 */
export function productionConsoleOrigin(): string {
  const host = consoleHostOf(readFileSync(path.join(PROJECT_DIR, "wrangler.jsonc"), "utf8"));
  if (host === "" || host === PLACEHOLDER_CONSOLE_HOST)
    throw new Error(
      `wrangler.jsonc names no console host (vars.CONSOLE_HOST is ${JSON.stringify(host)}): set it to the console's own host ` +
        "(docs/operators.md: The console's own origin), or pass --origin https://<console host>.",
    );
  return `https://${host}`;
}
