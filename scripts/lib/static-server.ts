/**
 * Serves the built site on 127.0.0.1 as static hosts do (trailing-slash redirects, `404.html`),
 * optionally with `_headers` applied, precompressed copies and fixed JSON in place of the service's API.
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import handler from "serve-handler";
import { COMPRESSIBLE_TYPES, PRECOMPRESSED_ENCODINGS, type ContentEncoding } from "./precompress";

export interface StaticServer {
  /** e.g. http://127.0.0.1:40124 */
  origin: string;
  /** Stop listening. */
  close(): Promise<void>;
}

export interface StaticServerOptions {
  /** Answer with the headers `publicDir/_headers` sets for the requested path (default false). */
  applyHeadersFile?: boolean;
  /**
   * Answer a text file with its precompressed copy (`file.br`, else `file.gz`, written beside it
   * by precompressDir) when the request's `Accept-Encoding` allows it, with `Content-Encoding`
   * and `Vary: Accept-Encoding`, as Netlify and Cloudflare do (default false). Without it
   * Lighthouse's transfer sizes and simulated timings would describe a server nobody deploys to.
   */
  precompressed?: boolean;
  /**
   * Paths answered with `200` and this value as JSON (`cache-control: no-store`), whatever the method, in place
   * of the waitlist service's API, e.g. `{ "/api/leaderboard": { entries: [] } }`: the bench audits the pages that
   * read the API on a static host, where the service is not running.
   */
  jsonAnswers?: Record<string, unknown>;
}

/** One block of a `_headers` file: a path pattern and the headers it sets. */
export interface HeadersRule {
  /** e.g. "/*" or "/static/*" */
  pattern: string;
  /** In file order; a name given twice in one block is joined with ", " (multi-value header). */
  headers: [string, string][];
  /** Names the block detaches (`! Name`, Cloudflare's syntax): an earlier block's value is dropped. */
  detached: string[];
}

/**
 * Parse a `_headers` file (Netlify / Cloudflare Pages format): a path on a line of its
 * own, then its headers as indented `Name: value` lines, or `! Name` to detach one; `#` starts a comment line.
 * @throws Error naming the line when a header line has no path above it or no colon
 */
export function parseHeadersFile(text: string): HeadersRule[] {
  const rules: HeadersRule[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) return;
    if (!/^\s/.test(line)) {
      rules.push({ pattern: trimmed, headers: [], detached: [] });
      return;
    }
    const colon = trimmed.indexOf(":");
    const rule = rules.at(-1);
    if (rule && trimmed.startsWith("!")) {
      rule.detached.push(trimmed.slice(1).trim());
      return;
    }
    if (!rule || colon <= 0)
      throw new Error(`_headers line ${index + 1}: expected "Name: value" under a path, got ${JSON.stringify(line)}`);
    const name = trimmed.slice(0, colon).trim();
    const value = trimmed.slice(colon + 1).trim();
    const same = rule.headers.find(([existing]) => existing.toLowerCase() === name.toLowerCase());
    if (same) same[1] = `${same[1]}, ${value}`;
    else rule.headers.push([name, value]);
  });
  return rules;
}

/**
 * Whether a `_headers` path pattern (e.g. "/*.js") applies to a request path without its query:
 * `*` matches anything (slashes included), everything else literally.
 */
export function headersPatternMatches(pattern: string, pathname: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`).test(pathname);
}

/**
 * The headers for one request path: every matching block in file order; as on
 * Netlify, a later matching block replaces an earlier block's value of the same header.
 */
export function headersForPath(rules: HeadersRule[], pathname: string): Map<string, [string, string]> {
  const headers = new Map<string, [string, string]>();
  for (const rule of rules.filter((r) => headersPatternMatches(r.pattern, pathname))) {
    for (const name of rule.detached) headers.delete(name.toLowerCase());
    for (const [name, value] of rule.headers) headers.set(name.toLowerCase(), [name, value]);
  }
  return headers;
}

/** The path as the host matches it (`%20` → space); a malformed escape is left as it is. */
function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/**
 * The encodings a request's `Accept-Encoding` allows, e.g. "gzip, deflate, br" → br and gzip.
 * A `q=0` parameter refuses an encoding; `*` allows every one not named.
 */
export function acceptedEncodings(header: string | undefined): Set<ContentEncoding> {
  const named = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    named.set(name, q === undefined ? 1 : Number(q));
  }
  const allowed = (encoding: ContentEncoding) => (named.get(encoding) ?? named.get("*") ?? 0) > 0;
  return new Set(PRECOMPRESSED_ENCODINGS.map(({ encoding }) => encoding).filter(allowed));
}

/** A text file as the host can answer it: its type, and its precompressed copy in an encoding the browser accepts, if any. */
interface TextFileAnswer {
  contentType: string;
  encoded: { encoding: ContentEncoding; file: string; bytes: number } | null;
}

/**
 * How to answer a request for a text file: the file the path names (a path ending in `/` names
 * its `index.html`, as serve-handler resolves it), in the best encoding the browser accepts
 * whose copy exists beside it.
 * @returns null when the path names no text file (serve-handler answers as usual: the file
 *   itself, a redirect to the trailing slash, or the 404 page)
 */
function textFileAnswer(publicDir: string, pathname: string, accepted: Set<ContentEncoding>): TextFileAnswer | null {
  const decoded = decodedPath(pathname);
  const file = path.join(publicDir, decoded.endsWith("/") ? `${decoded}index.html` : decoded);
  if (!file.startsWith(path.join(publicDir, path.sep))) return null;
  const contentType = COMPRESSIBLE_TYPES[path.extname(file).toLowerCase()];
  if (!contentType || !statSync(file, { throwIfNoEntry: false })?.isFile()) return null;
  for (const { encoding, suffix } of PRECOMPRESSED_ENCODINGS) {
    const stats = accepted.has(encoding) ? statSync(`${file}${suffix}`, { throwIfNoEntry: false }) : undefined;
    if (stats?.isFile()) return { contentType, encoded: { encoding, file: `${file}${suffix}`, bytes: stats.size } };
  }
  return { contentType, encoded: null };
}

/**
 * Serve a directory on 127.0.0.1 at a free port.
 * @throws Error when applyHeadersFile is set and `publicDir/_headers` is missing or malformed
 */
export async function startStaticServer(publicDir: string, options: StaticServerOptions = {}): Promise<StaticServer> {
  const rules = options.applyHeadersFile ? parseHeadersFile(readFileSync(path.join(publicDir, "_headers"), "utf8")) : [];
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url ?? "/", "http://127.0.0.1");
    if (options.jsonAnswers && Object.hasOwn(options.jsonAnswers, pathname)) {
      res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      res.end(JSON.stringify(options.jsonAnswers[pathname]));
      return;
    }
    // Set before serve-handler writes: its own headers (type, length, etag) are added to these.
    for (const [name, value] of headersForPath(rules, decodedPath(pathname)).values()) res.setHeader(name, value);
    const text = options.precompressed ? textFileAnswer(publicDir, pathname, acceptedEncodings(req.headers["accept-encoding"])) : null;
    // A cache between host and browser must keep one copy per encoding.
    if (text) res.setHeader("Vary", "Accept-Encoding");
    if (text?.encoded) {
      res.writeHead(200, {
        "Content-Type": text.contentType,
        "Content-Encoding": text.encoded.encoding,
        "Content-Length": text.encoded.bytes,
      });
      if (req.method === "HEAD") res.end();
      else createReadStream(text.encoded.file).pipe(res);
      return;
    }
    // serve-handler answers a missing file with `404.html` from publicDir and status 404.
    handler(req, res, { public: publicDir, trailingSlash: true, directoryListing: false }).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
