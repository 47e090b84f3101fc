/** What several routes check before their handler runs, as Hono middleware, and the origin links are written on. */
import type { Hono, MiddlewareHandler } from "hono";
import { METHOD_NAME_ALL } from "hono/router";
import { type AppEnv, isDevelopment } from "./env";
import { errorResponse, isSameOrigin, mediaType, methodNotAllowed, notConfigured, notFound } from "./http";
import { log } from "./log";
import { readSettings, SettingsUnavailable } from "./settings";
import { withServedOrigin } from "./site-origin";
import { meterD1, ROWS_READ_METRIC } from "./store/metered";

/** 403 `origin_not_allowed` for a request from another site's page. */
export function sameOrigin(detail: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!isSameOrigin(c.req.raw)) return errorResponse([{ status: 403, code: "origin_not_allowed", detail }]);
    await next();
  };
}

/**
 * 403 `origin_not_allowed` for a request a browser made from another site (`Sec-Fetch-Site: cross-site` or
 * `same-site`): a page elsewhere gets nothing of the console's, not even a timing. The console's own page sends
 * `same-origin`, a typed address `none`, the command line nothing.
 */
export function notFromAnotherSite(detail: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const site = c.req.header("sec-fetch-site");
    if (site === "cross-site" || site === "same-site") return errorResponse([{ status: 403, code: "origin_not_allowed", detail }]);
    await next();
  };
}

/**
 * 415 for a body of another media type.
 * @param types the media types taken, lower case
 * @param orNone also take a request without `Content-Type` (a webhook sender may leave it out)
 */
export function accepts(types: readonly string[], { orNone = false } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const type = mediaType(c.req.raw);
    if (!types.includes(type) && !(orNone && type === ""))
      return errorResponse([{ status: 415, code: "unsupported_media_type", detail: `Send ${types.join(" or ")}.` }], {
        "accept-post": types.join(", "),
      });
    await next();
  };
}

/**
 * Answer 405 with `Allow` on every path of a sub-app for any method it does not take. Call it once, after the sub-app's
 * routes: each path's fallback is registered after its own methods, so it runs only when none of them matched.
 */
export function refuseOtherMethods<T extends Hono<AppEnv>>(app: T): T {
  const allowed = new Map<string, Set<string>>();
  for (const { method, path } of app.routes)
    if (method !== METHOD_NAME_ALL) allowed.set(path, (allowed.get(path) ?? new Set<string>()).add(method));
  for (const [path, methods] of allowed) app.all(path, (c) => methodNotAllowed(c.req.raw, [...methods]));
  return app;
}

/** Read the build's settings into `c.var.settings`; without a valid file, 503 `not_configured` and the reason in the log. */
export const withSettings: MiddlewareHandler<AppEnv> = async (c, next) => {
  try {
    c.set("settings", await readSettings(c.env.ASSETS));
  } catch (error) {
    if (!(error instanceof SettingsUnavailable)) throw error;
    log("settings_unavailable", { reason: error.message });
    return notConfigured();
  }
  await next();
};

/** 404 while `referrals.enabled` is false: the referral program's routes do not exist then. Needs withSettings. */
export const programOn: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.settings.referrals.enabled) return notFound(c.req.raw, ": the referral program is off");
  await next();
};

/**
 * Count the rows D1 reads for the request (store/metered.ts) and report them as
 * `Server-Timing: d1-rows-read;desc="<n>"` when any statement ran: a count, never data, and only in development, since
 * elsewhere a count could tell a stranger which path an answer took (an address already on the list reads fewer rows).
 */
export const meterRowsRead: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!isDevelopment(c.env)) return next();
  const meter = meterD1(c.env.DB);
  c.env = { ...c.env, DB: meter.db };
  await next();
  if (!meter.touched()) return;
  // A cached answer's headers are immutable: copy it before adding one.
  c.res = new Response(c.res.body, c.res);
  c.res.headers.append("server-timing", `${ROWS_READ_METRIC};desc="${meter.rowsRead()}"`);
};

/**
 * `X-Content-Type-Options: nosniff` on every answer the Worker gives: its own, the published draws' files from R2, the
 * console's files and the site's files it passes on from the static build. A browser then runs a file only as the
 * type it is served as, so a published list or a JSON answer is never taken for a script or a page.
 */
export const noSniff: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.res.headers.get("x-content-type-options") === "nosniff") return;
  // An answer from a binding (the static build, R2) has immutable headers: copy it before setting one.
  c.res = new Response(c.res.body, c.res);
  c.res.headers.set("x-content-type-options", "nosniff");
};

/** In development with SITE_ORIGIN set, the handlers read settings whose siteUrl is the served origin (site-origin.ts). */
export const servedOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.env = withServedOrigin(c.env);
  await next();
};
