/**
 * @jest-environment node
 *
 * The bench serves the built site as a CDN does: the precompressed copy of a text file, in the
 * encoding the browser accepts, with the headers a cache between them needs; and it answers the
 * leaderboard's API with fixed rows, as the waitlist service would.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { precompressDir } from "../../scripts/lib/precompress";
import { acceptedEncodings, startStaticServer, type StaticServer } from "../../scripts/lib/static-server";

const PAGE = `<!doctype html><html><body>${"<p>Sign up for the waitlist.</p>".repeat(200)}</body></html>`;
const SCRIPT = `console.log(${JSON.stringify("x".repeat(5000))});`;
const LEADERBOARD = { entries: [{ rank: 1, name: "Jordan S.", referrals: 4 }] };
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let dir: string;
let server: StaticServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "static-server-"));
  await mkdir(path.join(dir, "success"));
  await writeFile(path.join(dir, "index.html"), PAGE);
  await writeFile(path.join(dir, "success", "index.html"), PAGE);
  await writeFile(path.join(dir, "app.js"), SCRIPT);
  await writeFile(path.join(dir, "icon.png"), PNG);
  await precompressDir(dir, path.join(dir, ".cache"));
  server = await startStaticServer(dir, { precompressed: true, jsonAnswers: { "/api/leaderboard": LEADERBOARD } });
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A GET with the given Accept-Encoding, its body as it came over the wire (not decompressed). */
function get(pathname: string, acceptEncoding?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${server.origin}${pathname}`,
      { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    request.on("error", reject);
  });
}

describe("acceptedEncodings", () => {
  it.each([
    ["gzip, deflate, br, zstd", ["br", "gzip"]],
    ["gzip", ["gzip"]],
    ["br;q=1.0, gzip;q=0", ["br"]],
    ["*", ["br", "gzip"]],
    ["*, br;q=0", ["gzip"]],
    ["identity", []],
    [undefined, []],
  ])("reads %p as %p", (header, expected) => {
    expect([...acceptedEncodings(header)].sort()).toEqual([...expected].sort());
  });
});

describe("precompressed serving", () => {
  it("answers a browser that accepts brotli with the brotli copy, the page's type and Vary", async () => {
    const { status, headers, body } = await get("/", "gzip, deflate, br");
    expect(status).toBe(200);
    expect(headers["content-encoding"]).toBe("br");
    expect(headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(headers.vary).toBe("Accept-Encoding");
    expect(Number(headers["content-length"])).toBe(body.length);
    expect(body.length).toBeLessThan(Buffer.byteLength(PAGE) / 10);
    expect(zlib.brotliDecompressSync(body).toString("utf8")).toBe(PAGE);
  });

  it("answers gzip where brotli is not accepted, for pages and scripts alike", async () => {
    const page = await get("/success/", "gzip");
    expect(page.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(page.body).toString("utf8")).toBe(PAGE);
    const script = await get("/app.js", "gzip");
    expect(script.headers["content-type"]).toBe("application/javascript; charset=utf-8");
    expect(zlib.gunzipSync(script.body).toString("utf8")).toBe(SCRIPT);
  });

  it("answers the file as it is when the browser accepts no encoding it has, still with Vary", async () => {
    const { headers, body } = await get("/app.js");
    expect(headers["content-encoding"]).toBeUndefined();
    expect(headers.vary).toBe("Accept-Encoding");
    expect(body.toString("utf8")).toBe(SCRIPT);
  });

  it("leaves binary files, redirects and missing files to the plain static server", async () => {
    const image = await get("/icon.png", "br");
    expect(image.headers["content-encoding"]).toBeUndefined();
    expect(image.body.equals(PNG)).toBe(true);
    expect((await get("/success", "br")).status).toBe(301);
    expect((await get("/nowhere/", "br")).status).toBe(404);
  });

  it("writes no compressed copy of a binary file, and none of a copy", async () => {
    await expect(readFile(path.join(dir, "icon.png.br"))).rejects.toThrow();
    await expect(readFile(path.join(dir, "app.js.br.br"))).rejects.toThrow();
  });
});

describe("fixed JSON answers", () => {
  it("answers a listed path with its JSON, uncached, and leaves every other path to the files", async () => {
    const { status, headers, body } = await get("/api/leaderboard", "br");
    expect(status).toBe(200);
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["cache-control"]).toBe("no-store");
    expect(JSON.parse(body.toString("utf8"))).toEqual(LEADERBOARD);
    expect((await get("/api/status/", "br")).status).toBe(404);
    expect((await get("/api/leaderboard/", "br")).status).toBe(404);
  });
});
