/**
 * Which host serves what (docs/operators.md: The console's own origin). The console (/console/ and /api/console/*)
 * answers only on CONSOLE_HOST, the web editor (/admin/) only on EDITOR_HOST; on any other host both are the site's
 * 404. Those two hosts serve no other page, so no script of the public pages (Turnstile, the ad pixel) ever runs on an
 * origin where an operator's browser holds an Access session. wrangler.jsonc runs the Worker first for every page for
 * this; the site's files (scripts, styles, images, page data) are static on any host, since they run only in a page.
 * A path that does not decode is refused on every host before anything reads it.
 */
import type { Context, MiddlewareHandler } from "hono";
import { CONSOLE_API } from "../../shared/console";
import { ADMIN_PATH, CONSOLE_PATH, HOME_PATH } from "../../shared/routes";
import type { AppEnv, ServiceEnv } from "./env";
import { isApiPath, notFound, pathInvalid } from "./http";

/** The built 404 page (Gatsby's), answered with status 404 for the console or the editor asked for on another host. */
const NOT_FOUND_PAGE_PATH = "/404.html";

/** What a path is to the host rule. */
export type Area = "undecodable" | "console-api" | "console" | "editor" | "page" | "other";

/** Whether `path` is `dir` (a path ending in "/") or under it; `dir` without its slash counts too (`/console`). */
function isUnder(path: string, dir: string): boolean {
  return path === dir.slice(0, -1) || path.startsWith(dir);
}

/**
 * What a request path is: one that does not decode, the console's API or page, the editor, another page (`/`, `…/`,
 * `*.html`: the shapes wrangler.jsonc sends to the Worker first), or anything else (the rest of the API, files). The
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
  if (path.startsWith("/api/")) return "other";
  return path === HOME_PATH || path.endsWith("/") || path.endsWith(".html") ? "page" : "other";
}

/** Whether the request's host name is the configured one (a host name without scheme or port; empty: no host is). */
export function isHost(configured: string | undefined, hostname: string): boolean {
  const host = configured?.trim().toLowerCase() ?? "";
  return host !== "" && host === hostname.toLowerCase();
}

/** The site's 404 page with status 404 (as the asset server answers a path that does not exist). */
async function notFoundPage(env: Pick<ServiceEnv, "ASSETS">, url: URL): Promise<Response> {
  const page = await env.ASSETS.fetch(new Request(new URL(NOT_FOUND_PAGE_PATH, url)));
  return new Response(page.body, { status: 404, headers: page.headers });
}

/** A page other than its own on the console's or the editor's host: a bare 404, with no script of the site's. */
function noPageHere(): Response {
  return new Response("Not found: this host serves only its own page.\n", {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff", "cache-control": "no-store" },
  });
}

/** 400 for a path that does not decode: the API's JSON:API error under /api/, else with no body. */
function undecodable(request: Request): Response {
  if (isApiPath(new URL(request.url).pathname)) return pathInvalid(request);
  return new Response(null, {
    status: 400,
    headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff", "cache-control": "no-store" },
  });
}

/** The own page's address on its host, for the host's bare name (an operator who types `console.<domain>`). */
function ownPage(c: Context<AppEnv>, path: string): Response {
  return c.redirect(path, 302);
}

/**
 * The host rule, as Hono middleware before every route:
 * - a path that does not decode: 400 on every host (the API's JSON:API error under /api/);
 * - `/api/console/*`: on CONSOLE_HOST, on to the console's routes; elsewhere the API's JSON:API 404;
 * - `/console/…`: on CONSOLE_HOST the built page; elsewhere the site's 404 page;
 * - `/admin/…`: on EDITOR_HOST the built editor; elsewhere the site's 404 page;
 * - any other page: on CONSOLE_HOST or EDITOR_HOST a bare 404 (`/` leads to the host's own page); elsewhere on to
 *   the routes, which hand pages to the static build;
 * - anything else (the rest of the API, the published draws): on to the routes, on any host.
 */
export const hostRule: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  const onConsoleHost = isHost(c.env.CONSOLE_HOST, url.hostname);
  const onEditorHost = isHost(c.env.EDITOR_HOST, url.hostname);
  switch (areaOf(url.pathname)) {
    case "undecodable":
      return undecodable(c.req.raw);
    case "console-api":
      return onConsoleHost ? next() : notFound(c.req.raw);
    case "console":
      return onConsoleHost ? c.env.ASSETS.fetch(c.req.raw) : notFoundPage(c.env, url);
    case "editor":
      return onEditorHost ? c.env.ASSETS.fetch(c.req.raw) : notFoundPage(c.env, url);
    case "page":
      if (onConsoleHost) return url.pathname === HOME_PATH ? ownPage(c, CONSOLE_PATH) : noPageHere();
      if (onEditorHost) return url.pathname === HOME_PATH ? ownPage(c, ADMIN_PATH) : noPageHere();
      return next();
    case "other":
      return next();
  }
};
