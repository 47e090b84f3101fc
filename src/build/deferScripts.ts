/**
 * After the build: Gatsby's async scripts become one inline loader that adds them, in order, once
 * afterFirstPaint fires, because an async script that arrives before the paint delays the LCP.
 * Not preloaded either: Lighthouse's simulated LCP counts a download that competes with the page.
 * A script that fails to load is added again after a backoff (scriptRetry.ts).
 * Only Gatsby's scripts slice is touched; the CSP hashes the loader (securityHeaders.ts). Build-time only.
 */
import { afterFirstPaint, PAINT_WAIT_LIMIT_MS } from "../lib/afterFirstPaint";
import { SCRIPT_LOAD_RETRIES, SCRIPT_RETRY_BASE_DELAY_MS } from "./scriptRetry";

/** Gatsby's scripts slice: `<!-- slice-start id="_gatsby-scripts-1" -->…<!-- slice-end id="_gatsby-scripts-1" -->`. */
const SCRIPTS_SLICE = /(<!-- slice-start id="_gatsby-scripts-\d+" -->)([\s\S]*?)(<!-- slice-end id="_gatsby-scripts-\d+" -->)/;
/** An external script tag as Gatsby writes it (no body, `src` then `async`). */
const EXTERNAL_SCRIPT = /<script src="([^"]+)" async(?:="")?><\/script>/g;

/** The `id` of the loader's script element (the bench reads the file list from it). */
export const SCRIPT_LOADER_ID = "gatsby-script-starter";

/**
 * The inline loader for `sources`: appends one async script per source after the first paint, and a script whose
 * load fails again after SCRIPT_RETRY_BASE_DELAY_MS, doubling, at most SCRIPT_LOAD_RETRIES times.
 */
export function scriptLoader(sources: string[]): string {
  // The list comes first (the browser tests' snapshot finds it there); `add` is hoisted.
  const add = `function add(src,left,wait){var s=document.createElement("script");s.src=src;s.async=true;s.onerror=function(){s.parentNode.removeChild(s);if(left>0)setTimeout(function(){add(src,left-1,wait*2)},wait)};document.body.appendChild(s)}`;
  const load = `function(){${JSON.stringify(sources)}.forEach(function(src){add(src,${SCRIPT_LOAD_RETRIES},${SCRIPT_RETRY_BASE_DELAY_MS})});${add}}`;
  return `<script id="${SCRIPT_LOADER_ID}">(${afterFirstPaint.toString()})(${load},${PAINT_WAIT_LIMIT_MS})</script>`;
}

/**
 * The script files a built page's loader will add, in order (what the bench counts as first-load JavaScript).
 * @returns [] when the page has no loader
 */
export function scriptLoaderSources(html: string): string[] {
  const loader = new RegExp(`<script id="${SCRIPT_LOADER_ID}">([\\s\\S]*?)</script>`).exec(html)?.[1] ?? "";
  return [...loader.matchAll(/"(\/[^"]+\.js)"/g)].map((match) => match[1]);
}

/**
 * Rewrites one built page: Gatsby's external scripts become the loader.
 * @returns the page, unchanged when it has no Gatsby scripts slice or no external script in it
 */
export function deferScripts(html: string): string {
  return html.replace(SCRIPTS_SLICE, (slice, start: string, body: string, end: string) => {
    const sources = [...body.matchAll(EXTERNAL_SCRIPT)].map((match) => match[1]);
    if (sources.length === 0) return slice;
    return `${start}${body.replace(EXTERNAL_SCRIPT, "")}${scriptLoader(sources)}${end}`;
  });
}
