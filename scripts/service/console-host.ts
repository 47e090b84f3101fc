/**
 * The hosts wrangler.jsonc serves the Worker on: its custom domains (the site's first) and the console's own host,
 * `vars.CONSOLE_HOST`, the one place the Worker (worker/src/hosts.ts), `npm run deploy` and
 * `npm run waitlist -- … --env production` read it from.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_DIR } from "../lib/wrangler";

/** wrangler.jsonc's console host until the one-time setup names the real one. */
export const PLACEHOLDER_CONSOLE_HOST = "console.your-domain.example";

/** The var in wrangler.jsonc's text (its `vars` hold plain strings). */
const CONSOLE_HOST_VAR = /"CONSOLE_HOST"\s*:\s*"([^"]*)"/;

/** A custom domain's route in wrangler.jsonc: `{ "pattern": "<host>", "custom_domain": true }`. */
const CUSTOM_DOMAIN_ROUTES = /\{\s*"pattern"\s*:\s*"([^"]+)"\s*,\s*"custom_domain"\s*:\s*true\s*\}/g;

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

/** The custom domains of wrangler.jsonc's routes, in its order (the site's first), lower case. */
export function customDomainsOf(config: string): string[] {
  return [...config.matchAll(CUSTOM_DOMAIN_ROUTES)].map(([, pattern]) => pattern.toLowerCase());
}

/**
 * Why wrangler.jsonc's console host cannot be deployed, for `npm run deploy`; null when it can: CONSOLE_HOST is set,
 * not the placeholder, not the site's own host, and a custom domain of the Worker (else Cloudflare never routes it).
 * @param siteDomain the site's custom domain, e.g. "www.pickfund.com"
 */
export function consoleHostProblem(config: string, siteDomain: string): string | null {
  const host = consoleHostOf(config);
  const example = '(e.g. "console.pickfund.com"; docs/operators.md: The console\'s own origin)';
  if (host === "" || host === PLACEHOLDER_CONSOLE_HOST)
    return `wrangler.jsonc's vars.CONSOLE_HOST must name the console's own host instead of ${JSON.stringify(host)} ${example}.`;
  if (host === siteDomain.toLowerCase())
    return `wrangler.jsonc's vars.CONSOLE_HOST is the site's own host ${host}: the console needs a host of its own ${example}.`;
  if (!customDomainsOf(config).includes(host))
    return `wrangler.jsonc's routes have no custom domain for the console's host ${host}: add { "pattern": "${host}", "custom_domain": true }.`;
  return null;
}
