/**
 * Serves the built site (`public/`) on 127.0.0.1 the way static hosts do: files as
 * they are, `/success` redirected to `/success/`, and any unknown path answered
 * with `404.html` and status 404.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import handler from "serve-handler";

/** A running static server. */
export interface StaticServer {
  /** e.g. http://127.0.0.1:40124 */
  origin: string;
  /** Stop listening. */
  close(): Promise<void>;
}

/**
 * Serve a directory on 127.0.0.1 at a free port.
 * @param publicDir the build output, e.g. `<root>/public`
 */
export async function startStaticServer(publicDir: string): Promise<StaticServer> {
  const server = http.createServer((req, res) => {
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
