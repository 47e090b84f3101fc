/**
 * Build-time values computed from validated content (not written by editors),
 * and the build-time overrides read from the environment. Build-time only.
 */
import path from "node:path";
import { defaultEndpointUrl, defaultNoScriptFormUrl } from "../signup/endpoints";
import { TURNSTILE_SCRIPT_URL } from "../signup/turnstile";
import { utcOffsetMinutesOf } from "../../shared/local-days";
import { DATE_TIME_WITH_OFFSET, type SiteContent } from "./schema";

/** The fields added to the content node under `derived` (see graphql-types.ts). */
export interface DerivedFields {
  launchAtMs: number;
  builtAtMs: number;
  countdownLabel: string;
  demoMode: boolean;
  /** The address of the page this content is for: "/" for the site's own signup page, "/<slug>/" for a campaign's. */
  pagePath: string;
  /**
   * The Cloudflare Turnstile script the form loads (TURNSTILE_SCRIPT_URL, or the build's override), or null when
   * the form has no Turnstile widget: no site key, another transport than waitlist-api, or a demo build.
   */
  turnstileScriptUrl: string | null;
}

/** The path of the site's own signup page; its content node also feeds /success/ and the 404 page. */
export const SITE_PAGE_PATH = "/";

/**
 * The launch moment written out in its own offset, e.g. `October 13, 2025 at 3:00 PM UTC-08:00`
 * for `2025-10-13T15:00:00-08:00`. Computed at build time so the HTML and the browser agree.
 * @param language BCP 47, for month names and clock style
 */
export function formatLaunchMoment(moment: string, language: string): string {
  const match = DATE_TIME_WITH_OFFSET.exec(moment);
  const offset = match?.[7] ?? "Z";
  const offsetMinutes = utcOffsetMinutesOf(offset);
  const wallClock = new Date(Date.parse(moment) + offsetMinutes * 60_000);
  const text = new Intl.DateTimeFormat(language, {
    timeZone: "UTC",
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  }).format(wallClock);
  // Intl uses narrow no-break spaces in some locales; plain spaces read the same and diff cleanly.
  return `${text.replace(/\u202f/g, " ")} UTC${offset === "Z" ? "" : offset}`;
}

/**
 * Whether this build only simulates signups: `provider.demoMode`, or a setting the transport needs is
 * missing (the list id; for Klaviyo's own transports the public API key too, which the service does not need).
 */
export function isDemoBuild(provider: SiteContent["provider"]): boolean {
  const needsPublicKey = provider.transport !== "waitlist-api";
  return provider.demoMode || !provider.listId || (needsPublicKey && !provider.publicApiKey);
}

/**
 * Values derived from validated content for the pages.
 * @param builtAtMs the build's "now" in ms since the epoch
 * @param pagePath "/" or a campaign's "/<slug>/"
 * @throws Error with a plain explanation when the TURNSTILE_SCRIPT_URL override is not an acceptable URL
 */
export function deriveFields(
  content: SiteContent,
  builtAtMs: number,
  pagePath = SITE_PAGE_PATH,
  env: NodeJS.ProcessEnv = process.env,
): DerivedFields {
  const demoMode = isDemoBuild(content.provider);
  const turnstile = content.provider.transport === "waitlist-api" && Boolean(content.provider.turnstileSiteKey) && !demoMode;
  return {
    launchAtMs: Date.parse(content.launch.moment),
    builtAtMs,
    countdownLabel: content.home.countdown.label.replace("{date}", formatLaunchMoment(content.launch.moment, content.site.language)),
    demoMode,
    pagePath,
    turnstileScriptUrl: turnstile ? (turnstileScriptOverride(env) ?? TURNSTILE_SCRIPT_URL) : null,
  };
}

/**
 * Read and check a URL override from the environment (staging, or a local test endpoint).
 * https is required, except for loopback hosts where plain http is allowed for tests.
 * @returns the override, or undefined when the variable is unset or empty
 * @throws Error with a plain explanation when the value is not an acceptable URL
 */
function urlOverride(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name}="${value}" is not a complete URL (expected e.g. https://staging.example.com/subscribe).`);
  }
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(loopback && url.protocol === "http:")) {
    throw new Error(`${name}="${value}" must use https:// (plain http:// is only allowed for 127.0.0.1 or localhost).`);
  }
  return url.toString();
}

/**
 * The `SIGNUP_ENDPOINT_URL` override: replaces the endpoint of whichever transport is chosen.
 * @throws Error with a plain explanation when the value is not an acceptable URL
 */
export function signupEndpointOverride(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return urlOverride("SIGNUP_ENDPOINT_URL", env);
}

/**
 * The `SIGNUP_NOSCRIPT_FORM_URL` override: replaces `provider.noScriptFormUrl`, where the
 * form posts without JavaScript.
 * @throws Error with a plain explanation when the value is not an acceptable URL
 */
export function noScriptFormOverride(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return urlOverride("SIGNUP_NOSCRIPT_FORM_URL", env);
}

/**
 * The `TURNSTILE_SCRIPT_URL` override: replaces Cloudflare's Turnstile script (tests load a
 * loopback stand-in that implements `window.turnstile` with Cloudflare's dummy token).
 * @throws Error with a plain explanation when the value is not an acceptable URL
 */
export function turnstileScriptOverride(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return urlOverride("TURNSTILE_SCRIPT_URL", env);
}

/**
 * The provider settings a build uses: every URL filled in, overrides applied. Both URLs are absolute,
 * except the waitlist service's own, which is the path SIGNUPS_ENDPOINT on the site's origin.
 */
export type EffectiveProvider = SiteContent["provider"] & { endpointUrl: string; noScriptFormUrl: string };

/**
 * The provider settings this build uses: the endpoint is SIGNUP_ENDPOINT_URL, else
 * provider.endpointUrl, else the transport's own address; the no-JavaScript form
 * posts to SIGNUP_NOSCRIPT_FORM_URL, else provider.noScriptFormUrl, else the transport's
 * own (Klaviyo's non-ajax legacy endpoint, or the service).
 * @throws Error with a plain explanation when an override is not an acceptable URL
 */
export function effectiveProvider(provider: SiteContent["provider"], env: NodeJS.ProcessEnv = process.env): EffectiveProvider {
  return {
    ...provider,
    endpointUrl: signupEndpointOverride(env) ?? provider.endpointUrl ?? defaultEndpointUrl(provider.transport),
    noScriptFormUrl: noScriptFormOverride(env) ?? provider.noScriptFormUrl ?? defaultNoScriptFormUrl(provider.transport),
  };
}

/** The content file every build reads unless SITE_CONTENT_FILE names another. */
export const DEFAULT_CONTENT_FILE = path.join("content", "site.yaml");

/**
 * The content file this build reads: `SITE_CONTENT_FILE` (a campaign variant,
 * a test fixture), or content/site.yaml.
 * @returns an absolute path
 */
export function contentFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.SITE_CONTENT_FILE?.trim() || DEFAULT_CONTENT_FILE);
}
