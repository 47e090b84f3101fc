/**
 * Which host serves what (docs/operators.md: The console's own origin). The Worker runs first for every request on
 * every host (wrangler.jsonc: `run_worker_first: true`), so this rule sees every path:
 * - the console's host (CONSOLE_HOST) serves the console: its page, its files (the build's list, console/files.ts) and
 *   its API, and no piece of the site's pages (no page, 404 page, script, page data or image): each is a bare 404
 *   under the console's own policy, so the signup page, Turnstile or the ad pixel never load on an origin where an
 *   operator's browser holds an Access session. The rest of the API answers JSON there as anywhere (never a page);
 * - the web editor's host (EDITOR_HOST) serves the editor and no other page;
 * - any other host is the site's, where the console and the editor are not found.
 * A path that does not decode is refused on every host before anything reads it.
 */
import type { Context, MiddlewareHandler, Next } from "hono";
import { CONSOLE_API } from "../../shared/console";
import { consolePolicy } from "../../shared/console-policy";
import { ADMIN_PATH, CONSOLE_PATH, HOME_PATH } from "../../shared/routes";
import { consoleFiles } from "./console/files";
import type { AppEnv } from "./env";
import { isApiPath, notFound, notFoundPage, pathInvalid } from "./http";

/** The console's policy without any inline script: what the Worker's own answers on the console's host carry. */
const CONSOLE_HOST_POLICY = consolePolicy();

/** What a path is to the host rule. */
export type Area = "undecodable" | "console-api" | "api" | "console" | "editor" | "page" | "other";

/** Whether `path` is `dir` (a path ending in "/") or under it; `dir` without its slash counts too (`/console`). */
function isUnder(path: string, dir: string): boolean {
  return path === dir.slice(0, -1) || path.startsWith(dir);
}

/**
 * What a request path is: one that does not decode, the console's API, the rest of the API (any letter case), the
 * console's page, the editor, another page (`/`, `…/`, `*.html`), or anything else (files, the published draws). The
 * path is read as the asset server and the router read it: percent-decoded once, repeated slashes as one, so
 * `/%63onsole/` is the console.
 * @returns "undecodable" for a path whose percent-encoding is not UTF-8 (`/%E0%A4%A`, `/api/%ff`)
 */
export function areaOf(pathname: string): Area {
  let path: string;
  try {
    path = decodeURIComponent(pathname).replace(/\/{2,}/g, "/");
  } catch {
    return "undecodable";
  }
  if (isUnder(path, `${CONSOLE_API}/`)) return "console-api";
  if (isUnder(path, CONSOLE_PATH)) return "console";
  if (isUnder(path, ADMIN_PATH)) return "editor";
  if (isApiPath(path)) return "api";
  return path === HOME_PATH || path.endsWith("/") || path.endsWith(".html") ? "page" : "other";
}

/** Whether the request's host name is the configured one (a host name without scheme or port; empty: no host is). */
export function isHost(configured: string | undefined, hostname: string): boolean {
  const host = configured?.trim().toLowerCase() ?? "";
  return host !== "" && host === hostname.toLowerCase();
}

/** An answer of the Worker's own with no body (no page, no script, no words), never cached. */
function bare(status: number): Response {
  return new Response(null, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff", "cache-control": "no-store" },
  });
}

/** 400 for a path that does not decode: the API's JSON:API error under /api/, else bare. */
function undecodable(request: Request): Response {
  return isApiPath(new URL(request.url).pathname) ? pathInvalid(request) : bare(400);
}

/** The answer with the console's policy in place of any other (a response the Worker made, so its headers can change). */
function underConsolePolicy(answer: Response): Response {
  answer.headers.set("content-security-policy", CONSOLE_HOST_POLICY);
  return answer;
}

/** A path of the site's pages on the console's host: a bare 404. */
function notOnConsoleHost(): Response {
  return underConsolePolicy(bare(404));
}

/** The own page's address on its host, for the host's bare name (an operator who types `console.<domain>`). */
function ownPage(c: Context<AppEnv>, path: string): Response {
  return c.redirect(path, 302);
}

/**
 * The console's host: the API on to the routes; `/` to the console page; the console page and the console's files from
 * the build, unless the build has no such file; everything else 404 under the console's policy.
 */
async function consoleHost(c: Context<AppEnv>, next: Next, url: URL, area: Area): Promise<Response | void> {
  if (area === "undecodable") return underConsolePolicy(undecodable(c.req.raw));
  if (area === "console-api" || area === "api") return next();
  if (url.pathname === HOME_PATH) return underConsolePolicy(ownPage(c, CONSOLE_PATH));
  // The list holds paths exactly as the console page asks for them: any other spelling of a file is not the console's.
  if (area === "console" || (area === "other" && (await consoleFiles(c.env.ASSETS)).has(url.pathname))) {
    const served = await c.env.ASSETS.fetch(c.req.raw);
    // The asset server's 404 is the site's 404 page: never on this host.
    if (served.status !== 404) return served;
  }
  return notOnConsoleHost();
}

/**
 * The host rule, as Hono middleware before every route:
 * - a path that does not decode: 400 on every host (the API's JSON:API error under /api/);
 * - on CONSOLE_HOST: the console and the API, nothing of the site's pages (consoleHost);
 * - `/api/console/*` elsewhere: the API's JSON:API 404; `/console/…` elsewhere: the site's 404 page;
 * - `/admin/…`: on EDITOR_HOST the built editor; elsewhere the site's 404 page;
 * - any other page: on EDITOR_HOST a bare 404 (`/` leads to the editor); elsewhere on to the routes, which hand pages
 *   to the static build;
 * - anything else (the rest of the API, the published draws, the site's files): on to the routes.
 */
export const hostRule: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  const area = areaOf(url.pathname);
  if (isHost(c.env.CONSOLE_HOST, url.hostname)) return consoleHost(c, next, url, area);
  const onEditorHost = isHost(c.env.EDITOR_HOST, url.hostname);
  switch (area) {
    case "undecodable":
      return undecodable(c.req.raw);
    case "console-api":
      return notFound(c.req.raw);
    case "console":
      return notFoundPage(c.env, url);
    case "editor":
      return onEditorHost ? c.env.ASSETS.fetch(c.req.raw) : notFoundPage(c.env, url);
    case "page":
      if (onEditorHost) return url.pathname === HOME_PATH ? ownPage(c, ADMIN_PATH) : bare(404);
      return next();
    case "api":
    case "other":
      return next();
  }
};
