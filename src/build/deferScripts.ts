/**
 * After the build: Gatsby's scripts start only once the prerendered page has been painted.
 *
 * Gatsby ends every page with `<script src="…" async>` for its webpack runtime, React
 * and the app bundle. An async script runs the moment it arrives, so on a fast
 * connection the app bundle is evaluated (tens of ms on a phone) before the browser
 * has drawn the page, and the largest contentful paint waits for it. Traces of the
 * bench showed exactly that in its bad runs.
 *
 * This step swaps those tags for one inline loader that adds the same scripts, in the
 * same order, when afterFirstPaint says the page has painted or the visitor has started
 * to act. The files are not preloaded either: a script that has finished downloading
 * before the paint is still counted into Lighthouse's simulated LCP (its slow-4G
 * download competes with the page), and in the bench preloads cost about 1.6× the
 * no-JS LCP where the loader alone matched it. Starting the downloads at the paint
 * costs hydration that one download, while the page is already readable. Only the block Gatsby marks as its scripts slice is
 * touched; other HTML (a CMS page, a static file) is left as it is. Inline scripts keep
 * their place, and the Content-Security-Policy hashes the loader like any other inline
 * script (securityHeaders.ts reads the rewritten HTML). Build-time only.
 */
import { afterFirstPaint, PAINT_WAIT_LIMIT_MS } from "../root/afterFirstPaint";

/** Gatsby's scripts slice: `<!-- slice-start id="_gatsby-scripts-1" -->…<!-- slice-end id="_gatsby-scripts-1" -->`. */
const SCRIPTS_SLICE = /(<!-- slice-start id="_gatsby-scripts-\d+" -->)([\s\S]*?)(<!-- slice-end id="_gatsby-scripts-\d+" -->)/;
/** An external script tag as Gatsby writes it (no body, `src` then `async`). */
const EXTERNAL_SCRIPT = /<script src="([^"]+)" async(?:="")?><\/script>/g;

/** The `id` of the loader's script element (the bench reads the file list from it). */
export const SCRIPT_LOADER_ID = "gatsby-script-starter";

/** The inline loader for `sources`: appends one async script per source after the first paint. */
export function scriptLoader(sources: string[]): string {
  const load = `function(){${JSON.stringify(sources)}.forEach(function(src){var s=document.createElement("script");s.src=src;s.async=true;document.body.appendChild(s)})}`;
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
 * @param html a page as Gatsby wrote it
 * @returns the page, unchanged when it has no Gatsby scripts slice or no external script in it
 */
export function deferScripts(html: string): string {
  return html.replace(SCRIPTS_SLICE, (slice, start: string, body: string, end: string) => {
    const sources = [...body.matchAll(EXTERNAL_SCRIPT)].map((match) => match[1]);
    if (sources.length === 0) return slice;
    return `${start}${body.replace(EXTERNAL_SCRIPT, "")}${scriptLoader(sources)}${end}`;
  });
}
