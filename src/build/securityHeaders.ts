/**
 * `public/_headers` (Netlify, Cloudflare Pages): a CSP that allows inline scripts by their SHA-256
 * hashes, taken from the built HTML so they always match, never by 'unsafe-inline'. Build-time only.
 */
import { createHash } from "node:crypto";
import { META_PIXEL_ORIGINS, META_PIXEL_SCRIPT_URL } from "../consent/pixel";
import { inlineScripts } from "./inlineScripts";
import { consolePolicy } from "../../shared/console-policy";
import { CONSOLE_PATH } from "../../shared/routes";

export interface SecurityHeadersInput {
  /** Every built HTML page's text. */
  htmlPages: string[];
  /** The endpoint of the transport this build's script sends signups to: an absolute URL, or a path of the site (the waitlist service). */
  endpointUrl: string;
  /** Where the form posts without JavaScript (an absolute URL or a path of the site); the endpoint when left out. */
  noScriptFormUrl?: string;
  /** Whether an ad pixel is configured (only then is the ad network allowed). */
  pixel: boolean;
  /** The Cloudflare Turnstile script the form loads, when it has the widget (only then are Cloudflare's script and frames allowed). */
  turnstileScriptUrl?: string | null;
  /** Hosts the web editor at /admin/ talks to (its backend), when the build has the editor. */
  admin?: AdminOrigins;
  /** The operator's console's built HTML, when the build has it: its page gets a policy of its own. */
  consolePage?: string;
  /**
   * Whether the host joins the values of a header that two matching blocks set (Cloudflare: the waitlist service's
   * Worker), so that a block replacing a header detaches it first (`! Name`). Netlify lets the later block win and
   * refuses a `!` line, so a build for a static host leaves them out.
   */
  detach?: boolean;
}

/** The web editor's backend hosts, beside the site's own origin. */
export interface AdminOrigins {
  connect: string[];
  img: string[];
}

/** Where the web editor lives; only there does the CSP allow what Decap CMS needs. */
export const ADMIN_PATH_PATTERN = "/admin/*";
/** The operator's console: kept out of search engines by a header too, for crawlers that read no HTML. */
export const CONSOLE_PATH_PATTERN = `${CONSOLE_PATH}*`;

/** HSTS lifetime: two years (s), the value hstspreload.org asks for. */
export const HSTS_MAX_AGE_S = 63_072_000;

/** CSP source expressions ('sha256-…') of every executable inline script in `html`. */
export function inlineScriptHashes(html: string): string[] {
  return inlineScripts(html).map((body) => `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`);
}

/**
 * A URL as a CSP source: a path of the site (the waitlist service's `/api/signups`) is `'self'`, an absolute URL its origin.
 * @throws TypeError when the value is neither a path nor an absolute URL
 */
function sourceOf(url: string): string {
  return url.startsWith("/") && !url.startsWith("//") ? "'self'" : new URL(url).origin;
}

/** The Content-Security-Policy value for the whole site. */
export function contentSecurityPolicy({
  htmlPages,
  endpointUrl,
  noScriptFormUrl,
  pixel,
  turnstileScriptUrl,
}: SecurityHeadersInput): string {
  const hashes = [...new Set(htmlPages.flatMap(inlineScriptHashes))].sort();
  // The script may reach only the chosen transport's origin; the native form only the no-JavaScript endpoint.
  // The waitlist service is on the site's own origin: then both are 'self' alone.
  const endpoint = sourceOf(endpointUrl);
  const noScriptForm = sourceOf(noScriptFormUrl ?? endpointUrl);
  const adNetwork = pixel ? META_PIXEL_ORIGINS : [];
  // Turnstile's script draws its widget in a frame of its own origin.
  const turnstile = turnstileScriptUrl ? [new URL(turnstileScriptUrl).origin] : [];
  const directives: [string, string[]][] = [
    ["default-src", ["'self'"]],
    ["script-src", ["'self'", ...hashes, ...(pixel ? [new URL(META_PIXEL_SCRIPT_URL).origin] : []), ...turnstile]],
    // styled-components and Radix write <style> tags and style attributes at run time.
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "data:", ...adNetwork]],
    ["font-src", ["'self'"]],
    ["connect-src", ["'self'", endpoint, ...adNetwork]],
    ["form-action", ["'self'", noScriptForm]],
    ...(turnstile.length > 0 ? [["frame-src", turnstile] as [string, string[]]] : []),
    ["manifest-src", ["'self'"]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'self'"]],
    ["frame-ancestors", ["'none'"]],
  ];
  return directives.map(([name, sources]) => [name, ...new Set(sources)].join(" ")).join("; ");
}

/**
 * The Content-Security-Policy of the operator's console only (shared/console-policy.ts), allowing the console page's
 * inline scripts by their hashes.
 */
export function consoleContentSecurityPolicy(consolePage: string): string {
  return consolePolicy([...new Set(inlineScriptHashes(consolePage))].sort());
}

/**
 * The Content-Security-Policy of the web editor's page only. Decap CMS compiles its
 * config validator at run time (`'unsafe-eval'`) and styles itself with inline styles;
 * it talks to its backend's hosts. No inline scripts at all. Nothing else on the site
 * gets these allowances.
 */
export function adminContentSecurityPolicy(admin: AdminOrigins): string {
  const directives: [string, string[]][] = [
    ["default-src", ["'self'"]],
    ["script-src", ["'self'", "'unsafe-eval'"]],
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "data:", "blob:", ...admin.img]],
    ["font-src", ["'self'", "data:"]],
    ["connect-src", ["'self'", ...admin.connect]],
    ["form-action", ["'self'"]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'self'"]],
    ["frame-ancestors", ["'none'"]],
  ];
  return directives.map(([name, sources]) => [name, ...new Set(sources)].join(" ")).join("; ");
}

/** `[header, value]` pairs for every path. */
export function securityHeaders(input: SecurityHeadersInput): [string, string][] {
  return [
    ["Content-Security-Policy", contentSecurityPolicy(input)],
    ["Strict-Transport-Security", `max-age=${HSTS_MAX_AGE_S}; includeSubDomains; preload`],
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()"],
    ["X-Frame-Options", "DENY"],
  ];
}

/**
 * The `_headers` file: security headers on every path, plus Gatsby's caching
 * rules (hashed files cached for ever; HTML and page data always revalidated), and
 * `X-Robots-Tag: noindex` and a policy of its own on the operator's console, and the web editor's own policy on
 * /admin/ when `input.admin` is given. Each header a later block replaces is sent once: on a host that joins
 * values (`input.detach`), the block detaches it first.
 */
export function headersFile(input: SecurityHeadersInput): string {
  // `replaced`: headers an earlier matching block sets too, detached first on a host that joins values.
  const block = (path: string, headers: [string, string][], replaced: string[] = []) =>
    [path, ...(input.detach ? replaced.map((name) => `  ! ${name}`) : []), ...headers.map(([k, v]) => `  ${k}: ${v}`)].join("\n");
  const immutable: [string, string][] = [["Cache-Control", "public, max-age=31536000, immutable"]];
  const revalidate: [string, string][] = [["Cache-Control", "public, max-age=0, must-revalidate"]];
  return `${[
    "# Written by the build (src/build/securityHeaders.ts). Do not edit: changes are overwritten.",
    block("/*", securityHeaders(input)),
    block("/static/*", immutable),
    block("/*.js", immutable),
    block("/*.css", immutable),
    block("/page-data/*", revalidate),
    block("/*.html", revalidate),
    // After /*, so that the console's own policy replaces the site's.
    input.consolePage === undefined
      ? block(CONSOLE_PATH_PATTERN, [["X-Robots-Tag", "noindex, nofollow"]])
      : block(
          CONSOLE_PATH_PATTERN,
          [
            ["Content-Security-Policy", consoleContentSecurityPolicy(input.consolePage)],
            ["X-Robots-Tag", "noindex, nofollow"],
          ],
          ["Content-Security-Policy"],
        ),
    // Last, so that it replaces the site-wide CSP and the immutable caching of /*.js (decap-cms.js has no hash in its name).
    ...(input.admin
      ? [
          block(
            ADMIN_PATH_PATTERN,
            [["Content-Security-Policy", adminContentSecurityPolicy(input.admin)], ["X-Robots-Tag", "noindex, nofollow"], ...revalidate],
            ["Content-Security-Policy", "Cache-Control"],
          ),
        ]
      : []),
  ].join("\n\n")}\n`;
}
