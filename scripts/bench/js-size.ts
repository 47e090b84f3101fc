/** The bench's JavaScript measurement: every script a real page load fetches without interaction, in gzip bytes, and its makeup. */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";
import type { Browser } from "playwright-core";
import { inlineScripts } from "../../src/build/inlineScripts";
import { openAndSettle } from "../lib/hydration";
import { bytesBySource, type SourceMap } from "./sourcemap";
import { MOBILE_VIEWPORT } from "./mobile";
import { GZIP_LEVEL } from "../lib/precompress";
import { GATSBY_RUNTIME_BUNDLE_PREFIXES } from "./targets";

export interface JsFile {
  /** Path under public/, or `inline #n` for an inline script of the HTML. */
  file: string;
  kind: "runtime" | "ours";
  rawBytes: number;
  gzipBytes: number;
}

/** A package (or folder of src/) and roughly how much of a page's JavaScript it is. */
export interface JsSource {
  source: string;
  rawBytes: number;
  /** The file's gzip bytes shared out in proportion to raw bytes: an estimate, gzip is not additive. */
  approxGzipBytes: number;
}

/** The JavaScript one page fetches without interaction. */
export interface PageJs {
  path: string;
  files: JsFile[];
  runtimeGzipBytes: number;
  oursGzipBytes: number;
  totalGzipBytes: number;
  /** Largest contributors across all files, from their source maps. */
  bySource: JsSource[];
}

/** gzip size of `data` at the level the precompressed copies are served at (9, as `gzip -9`, gzip-size and size-limit report). */
export function gzipSize(data: Buffer | string): number {
  return zlib.gzipSync(data, { level: GZIP_LEVEL }).length;
}

/** Gatsby's own bundles (framework = React + ReactDOM, webpack runtime, legacy polyfill) are "runtime"; everything else is "ours". */
function kindOf(file: string): JsFile["kind"] {
  return GATSBY_RUNTIME_BUNDLE_PREFIXES.some((prefix) => path.basename(file).startsWith(prefix)) ? "runtime" : "ours";
}

/**
 * The same-origin scripts a visitor's browser fetches on `pagePath` without touching anything: a
 * fresh context on a phone viewport loads the page and lets it settle (openAndSettle), so chunks
 * requested after hydration are counted too.
 * @returns paths under the site's root, without the leading slash, in the order they were first requested
 * @throws when the page does not hydrate in time
 */
export async function scriptsFetchedWithoutInteraction(browser: Browser, origin: string, pagePath: string): Promise<string[]> {
  const context = await browser.newContext({ viewport: MOBILE_VIEWPORT });
  try {
    const requests = await openAndSettle(await context.newPage(), `${origin}${pagePath}`);
    const scripts = requests
      .map((request) => ({ url: new URL(request.url), resourceType: request.resourceType }))
      .filter(({ url, resourceType }) => resourceType === "script" && url.origin === origin)
      .map(({ url }) => decodeURIComponent(url.pathname).replace(/^\//, ""));
    return [...new Set(scripts)];
  } finally {
    await context.close();
  }
}

/**
 * Weighs the scripts a page fetched, as built (inline scripts included): raw and gzip size, the
 * runtime/ours split, and the biggest packages behind it.
 * @param fetched from scriptsFetchedWithoutInteraction
 */
export async function measurePageJs(publicDir: string, pagePath: string, fetched: string[]): Promise<PageJs> {
  const measured: JsFile[] = [];
  const sources = new Map<string, JsSource>();
  for (const file of fetched) {
    const code = await readFile(path.join(publicDir, file));
    const entry: JsFile = { file, kind: kindOf(file), rawBytes: code.length, gzipBytes: gzipSize(code) };
    measured.push(entry);
    const mapFile = path.join(publicDir, `${file}.map`);
    const groups = existsSync(mapFile)
      ? bytesBySource(code.toString("utf8"), JSON.parse(await readFile(mapFile, "utf8")) as SourceMap)
      : new Map([[`${file} (no source map)`, code.length]]);
    for (const [source, bytes] of groups) {
      const total = sources.get(source) ?? { source, rawBytes: 0, approxGzipBytes: 0 };
      total.rawBytes += bytes;
      total.approxGzipBytes += (bytes / entry.rawBytes) * entry.gzipBytes;
      sources.set(source, total);
    }
  }
  const html = await readFile(path.join(publicDir, pagePath, "index.html"), "utf8");
  inlineScripts(html).forEach((code, i) => {
    // Gatsby writes these (chunk mapping, compilation hash) and the build adds the script loader: runtime, not ours.
    measured.push({ file: `inline #${i + 1}`, kind: "runtime", rawBytes: Buffer.byteLength(code), gzipBytes: gzipSize(code) });
  });
  const sum = (kind?: JsFile["kind"]) => measured.filter((f) => !kind || f.kind === kind).reduce((total, f) => total + f.gzipBytes, 0);
  const bySource = [...sources.values()]
    .map((s) => ({ ...s, approxGzipBytes: Math.round(s.approxGzipBytes) }))
    .sort((a, b) => b.rawBytes - a.rawBytes);
  return {
    path: pagePath,
    files: measured,
    runtimeGzipBytes: sum("runtime"),
    oursGzipBytes: sum("ours"),
    totalGzipBytes: sum(),
    bySource,
  };
}
