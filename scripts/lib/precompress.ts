/**
 * `file.br` and `file.gz` beside each text file of a built site, as CDNs serve them, so the bench's
 * transfer sizes describe what a visitor gets rather than on-the-fly compression at a lower level.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

/**
 * The text types a CDN compresses, by file extension, with the Content-Type they are served as
 * (the types Cloudflare compresses by default; images other than SVG and icons are compressed already).
 */
export const COMPRESSIBLE_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "application/javascript; charset=utf-8",
  ".mjs": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".xml": "application/xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".yml": "text/yaml; charset=utf-8",
  ".ico": "image/x-icon",
};

/** The encodings written beside each text file, best first: the file suffix and the `Content-Encoding` name. */
export const PRECOMPRESSED_ENCODINGS = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
] as const;
export type ContentEncoding = (typeof PRECOMPRESSED_ENCODINGS)[number]["encoding"];

/** Brotli quality 11, the highest: what hosts use for files compressed once, ahead of time. */
export const BROTLI_QUALITY = 11;
/** gzip level 9, the highest (as `gzip -9`). */
export const GZIP_LEVEL = 9;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The bytes of `data` in one encoding, at the levels above. */
export function compress(data: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return encoding === "br"
    ? brotli(data, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length },
      })
    : gzip(data, { level: GZIP_LEVEL });
}

/** Whether a file is one a CDN compresses (by extension; `.br`/`.gz` files themselves are not). */
export function isCompressible(file: string): boolean {
  return path.extname(file).toLowerCase() in COMPRESSIBLE_TYPES;
}

export interface PrecompressResult {
  /** Text files given a `.br` and a `.gz` beside them. */
  files: number;
  /** Their raw, brotli and gzip bytes, summed. */
  rawBytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

/**
 * Writes `file.br` and `file.gz` beside every compressible file under `dir` (recursively). Brotli at
 * quality 11 is slow on large files, so results are kept in `cacheDir` by SHA-256 for the next run.
 * @param dir a copy of the built site (the files are added in place)
 * @param cacheDir e.g. `node_modules/.cache/precompressed`
 * @throws when a file cannot be read or written
 */
export async function precompressDir(dir: string, cacheDir: string): Promise<PrecompressResult> {
  await mkdir(cacheDir, { recursive: true });
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && isCompressible(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  const result: PrecompressResult = { files: files.length, rawBytes: 0, brotliBytes: 0, gzipBytes: 0 };
  // zlib's async calls run on libuv's thread pool, so these proceed in parallel across the cores.
  await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      const key = createHash("sha256").update(data).digest("hex");
      result.rawBytes += data.length;
      for (const { encoding, suffix } of PRECOMPRESSED_ENCODINGS) {
        const cached = path.join(cacheDir, `${key}${suffix}`);
        const bytes = await readFile(cached).catch(async () => {
          const fresh = await compress(data, encoding);
          await writeFile(cached, fresh);
          return fresh;
        });
        await writeFile(`${file}${suffix}`, bytes);
        if (encoding === "br") result.brotliBytes += bytes.length;
        else result.gzipBytes += bytes.length;
      }
    }),
  );
  return result;
}
