/**
 * The origin the links the service writes start with (referral link, status link, Klaviyo's properties): the build's
 * `siteUrl`, except in development when the `SITE_ORIGIN` var names the origin the product is served from
 * (`npm start` passes `http://127.0.0.1:<port>`), so that a local run's links lead back to it. Every link is built from
 * the build's settings, so the override is applied where the settings are read: the Worker's ASSETS binding is handed
 * on with a service-settings.json whose `siteUrl` is that origin. Any other Worker (production, staging, a typo) never
 * applies it, and refuses signups while it is set (env.ts: productionProblems).
 */
import { SERVICE_SETTINGS_PATH } from "../../shared/service-settings";
import { isDevelopment, type ServiceEnv } from "./env";

/**
 * The served origin in development: SITE_ORIGIN when it is an http(s) origin.
 * @returns e.g. "http://127.0.0.1:8787", or null outside development, when unset, or when it is not an origin
 */
export function developmentSiteOrigin(env: Pick<ServiceEnv, "ENVIRONMENT" | "SITE_ORIGIN">): string | null {
  if (!isDevelopment(env) || !env.SITE_ORIGIN) return null;
  let url: URL;
  try {
    url = new URL(env.SITE_ORIGIN);
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
}

/** One wrapper per ASSETS binding and origin, so the settings cache (settings.ts, kept per binding) still holds. */
const wrapped = new WeakMap<Fetcher, Map<string, Fetcher>>();

/**
 * `env` with links on the served origin: in development with SITE_ORIGIN set, an ASSETS binding whose
 * service-settings.json says `"siteUrl": SITE_ORIGIN` (every other file as the build wrote it); otherwise `env` itself.
 */
export function withServedOrigin<E extends Pick<ServiceEnv, "ENVIRONMENT" | "SITE_ORIGIN" | "ASSETS">>(env: E): E {
  const origin = developmentSiteOrigin(env);
  if (origin === null) return env;
  let byOrigin = wrapped.get(env.ASSETS);
  if (!byOrigin) wrapped.set(env.ASSETS, (byOrigin = new Map<string, Fetcher>()));
  let assets = byOrigin.get(origin);
  if (!assets) byOrigin.set(origin, (assets = assetsServedFrom(env.ASSETS, origin)));
  return { ...env, ASSETS: assets };
}

function assetsServedFrom(assets: Fetcher, origin: string): Fetcher {
  const served: Fetcher = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await assets.fetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname !== SERVICE_SETTINGS_PATH || !response.ok) return response;
      const settings = await response.json<Record<string, unknown>>();
      return new Response(JSON.stringify({ ...settings, siteUrl: origin }), { headers: response.headers });
    },
    connect: (...args: Parameters<Fetcher["connect"]>) => assets.connect(...args),
  };
  return served;
}
