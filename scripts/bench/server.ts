/** Job 2: serve a built site folder on 127.0.0.1, as a static host would. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import handler from "serve-handler";

/** A running static server. */
export interface StaticServer {
  /** Origin without trailing slash, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  close(): Promise<void>;
}

/** Content types a static host compresses (text formats; images and fonts are compressed already). */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|manifest\+json|xml)|image\/svg\+xml)/;

/**
 * Gzip the response body when the client accepts it and the type is text.
 * serve-handler does not compress, but every host this site would deploy to does
 * (Netlify, Vercel, GitHub Pages, S3+CloudFront), so without it Lighthouse's
 * transfer sizes and simulated timings would describe a server nobody uses.
 * The bodies are small files, so backpressure is ignored on purpose.
 */
function gzipResponse(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.method !== "GET" || !/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) return;
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: http.OutgoingHttpHeaders) => http.ServerResponse;
  const write = res.write.bind(res) as (chunk: Buffer) => boolean;
  const end = res.end.bind(res) as () => http.ServerResponse;
  let gzip: zlib.Gzip | null = null;
  res.writeHead = ((status: number, headers: http.OutgoingHttpHeaders = {}) => {
    const type = String(headers["Content-Type"] ?? res.getHeader("Content-Type") ?? "");
    if ((status === 200 || status === 404) && COMPRESSIBLE.test(type)) {
      delete headers["Content-Length"];
      res.removeHeader("Content-Length");
      headers["Content-Encoding"] = "gzip";
      headers["Vary"] = "Accept-Encoding";
      gzip = zlib.createGzip();
      gzip.on("data", (chunk: Buffer) => write(chunk));
      gzip.on("end", () => end());
    }
    return writeHead(status, headers);
  }) as typeof res.writeHead;
  res.write = ((chunk: Buffer | string) => {
    if (!gzip) return write(Buffer.from(chunk));
    gzip.write(chunk);
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: Buffer | string) => {
    if (!gzip) return chunk === undefined || typeof chunk === "function" ? end() : (write(Buffer.from(chunk)), end());
    if (chunk !== undefined && typeof chunk !== "function") gzip.write(chunk);
    gzip.end();
    return res;
  }) as typeof res.end;
}

/**
 * Serves `dir` with serve-handler on 127.0.0.1 at a free port: `/success/` → `success/index.html`,
 * unknown paths → `404.html` with status 404 (serve-handler's default for a root 404.html).
 * @param gzip compress text responses like a production host (see gzipResponse)
 */
export async function startStaticServer(dir: string, gzip = true): Promise<StaticServer> {
  const server = http.createServer((req, res) => {
    if (gzip) gzipResponse(req, res);
    handler(req, res, { public: dir, directoryListing: false }).catch((error: unknown) => {
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
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
