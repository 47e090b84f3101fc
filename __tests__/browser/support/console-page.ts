/**
 * Where the browser tests open the operator's console: on its own host, localhost, at the port of the site it belongs
 * to (127.0.0.1), as `npm start` serves it (scripts/lib/wrangler.ts; worker/src/hosts.ts answers the console there
 * only). Every test that opens the console takes its address from here, so the host is named once.
 */
import { LOCAL_CONSOLE_HOST } from "../../../scripts/lib/wrangler";
import { CONSOLE_PATH } from "../../../shared/routes";

/** The console's origin beside a site served at `siteOrigin`, e.g. http://127.0.0.1:41063 → http://localhost:41063. */
export function consoleOrigin(siteOrigin: string): string {
  const url = new URL(siteOrigin);
  url.hostname = LOCAL_CONSOLE_HOST;
  return url.origin;
}

/** The console page's address beside a site served at `siteOrigin`, with a view of its own (`#search/…`) when given. */
export function consoleUrl(siteOrigin: string, hash = ""): string {
  return `${consoleOrigin(siteOrigin)}${CONSOLE_PATH}${hash}`;
}

/** Whether a request goes to the console's host (loopback, like the site's 127.0.0.1). */
export function isConsoleHost(hostname: string): boolean {
  return hostname === LOCAL_CONSOLE_HOST;
}
