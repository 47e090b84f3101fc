/**
 * The console's and the editor's own hosts through the real runtime, as `npm start` runs it (`wrangler dev`,
 * scripts/lib/wrangler.ts) with a build's `_headers` (src/build/securityHeaders.ts) applied by the asset server: the
 * host a request came to decides, and each page gets one policy of its own. Only the runtime applies wrangler.jsonc's
 * assets routing (which paths reach the Worker at all), so the console's host serving nothing of the site's is
 * checked here too. Each test is named after its attack.
 */
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { CONSOLE_SESSION_ENDPOINT } from "../../shared/console";
import { CONSOLE_FILES_PATH } from "../../shared/console-files";
import { consolePolicy } from "../../shared/console-policy";
import { ADMIN_PATH, CONSOLE_PATH } from "../../shared/routes";
import { headersFile } from "../../src/build/securityHeaders";
import { applyMigrations, PROJECT_DIR, startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler";

const OPERATOR = "local-operator@localhost";
/** The editor's host in this test: any name works, since the requests below name their Host themselves. */
const EDITOR_HOST = "editor.localhost";
/** Third parties the public pages may load: neither may appear in the console's or the editor's policy. */
const TURNSTILE_SCRIPT_URL = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";
const THIRD_PARTIES = ["challenges.cloudflare.com", "facebook"];

/** The built pages, each with an inline script, as Gatsby writes them. */
const page = (name: string) =>
  `<!doctype html><html><head><title>${name}</title></head><body><h1>${name}</h1><script>window.page=${JSON.stringify(name)}</script></body></html>`;

let directory: string;
let service: WranglerDev;
let port: number;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "local-origins-"));
  const assets = path.join(directory, "public");
  await mkdir(path.join(assets, "console"), { recursive: true });
  await mkdir(path.join(assets, "admin"), { recursive: true });
  const pages = { "index.html": page("Home"), "404.html": page("Not found"), "console/index.html": page("Console") };
  for (const [file, html] of Object.entries(pages)) await writeFile(path.join(assets, file), html);
  await writeFile(path.join(assets, "admin", "index.html"), "<!doctype html><title>Editor</title>");
  // Decap's bundle: one unhashed name for every version.
  await writeFile(path.join(assets, "admin", "decap-cms.js"), "window.CMS = {};");
  await writeFile(path.join(assets, "app-0123abcd.js"), "window.app = 1;");
  // The signup page's own script and page data, which Gatsby's runtime would render the page from.
  await writeFile(path.join(assets, "component---src-pages-index-tsx-0123abcd.js"), 'window.page = "Home";');
  await writeFile(path.join(assets, "logo.svg"), '<svg xmlns="http://www.w3.org/2000/svg"><title>Home</title></svg>');
  await mkdir(path.join(assets, "page-data", "index"), { recursive: true });
  await writeFile(path.join(assets, "page-data", "index", "page-data.json"), JSON.stringify({ path: "/", result: { heading: "Home" } }));
  // The console's files: the runtime's script only.
  await writeFile(path.join(assets, CONSOLE_FILES_PATH), JSON.stringify({ files: ["/app-0123abcd.js"] }));
  await copyFile(
    path.join(PROJECT_DIR, "__tests__", "service", "fixtures", "public", "service-settings.json"),
    path.join(assets, "service-settings.json"),
  );
  // The waitlist build's headers, with every third party the public pages may load.
  const headers = headersFile({
    htmlPages: Object.values(pages),
    endpointUrl: "/api/signups",
    pixel: true,
    turnstileScriptUrl: TURNSTILE_SCRIPT_URL,
    admin: { connect: ["https://api.github.com"], img: [] },
    consolePage: pages["console/index.html"],
    detach: true,
  });
  await writeFile(path.join(assets, "_headers"), headers);
  const stateDir = path.join(directory, "state");
  await applyMigrations(stateDir);
  service = await startWranglerDev({
    assetsDir: assets,
    persistTo: stateDir,
    vars: { KLAVIYO_PRIVATE_API_KEY: "", TURNSTILE_SECRET_KEY: "", IP_HASH_SALT: "", CONSOLE_LOCAL_OPERATOR: OPERATOR, EDITOR_HOST },
  });
  port = Number(new URL(service.origin).port);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await rm(directory, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every value of each header, as sent (a repeated header is several values). */
  raw: Record<string, string[]>;
  body: string;
}

/** GET `path` from the local service with this `Host` (fetch cannot set one), as a browser on that name would. */
function get(host: string, pathname: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port, path: pathname, headers: { host: `${host}:${port}` } }, (response) => {
      const raw: Record<string, string[]> = {};
      for (let i = 0; i < response.rawHeaders.length; i += 2)
        (raw[response.rawHeaders[i].toLowerCase()] ??= []).push(response.rawHeaders[i + 1]);
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, raw, body }));
    });
    request.on("error", reject);
  });
}

/** The policies an answer sets: each header, and each comma-joined value, is one policy a browser enforces. */
const policiesOf = (answer: Answer) => (answer.raw["content-security-policy"] ?? []).flatMap((value) => value.split(","));

describe("a foreign Host on npm start", () => {
  it.each(["rebind.evil.example", "127.0.0.1.evil.example"])(
    "%s, a name an attacker points at 127.0.0.1, reaches no console",
    async (host) => {
      expect((await get(host, CONSOLE_SESSION_ENDPOINT)).status).toBe(404);
      const consolePage = await get(host, CONSOLE_PATH);
      expect(consolePage.status).toBe(404);
      expect(consolePage.body).not.toContain("Console");
    },
  );

  it("the site's own host 127.0.0.1 has no console either: /console/ and /api/console/* are 404", async () => {
    const api = await get("127.0.0.1", CONSOLE_SESSION_ENDPOINT);
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body)).toMatchObject({ errors: [{ status: "404", code: "not_found" }] });
    const consolePage = await get("127.0.0.1", CONSOLE_PATH);
    expect(consolePage.status).toBe(404);
    expect(consolePage.body).toContain("Not found");
  });

  it("the console is one step away on localhost, its local operator signed in (the control)", async () => {
    const session = await get("localhost", CONSOLE_SESSION_ENDPOINT);
    expect(session.status).toBe(200);
    expect(JSON.parse(session.body)).toEqual({ operator: OPERATOR, local: true, role: "operator" });
    expect((await get("localhost", CONSOLE_PATH)).body).toContain("Console");
  });
});

describe("the console host's public paths", () => {
  /** What the site's pages, its 404 page and its scripts and page data say: none of it may reach the console's host. */
  const SITE_WORDS = ["Home", "Not found", "<script"];

  it.each([
    "/success/",
    "/404.html",
    "/some/unknown/",
    "/some/unknown",
    "/page-data/index/page-data.json",
    "/giveaway/draw/",
    "/giveaway/draw/spring/entrants.txt",
    "/component---src-pages-index-tsx-0123abcd.js",
    "/logo.svg",
  ])("%s on the console's host is a bare 404 under the console's policy alone, with nothing of the site's", async (pathname) => {
    const answer = await get("localhost", pathname);
    expect(answer.status).toBe(404);
    expect(answer.body).toBe("");
    for (const words of SITE_WORDS) expect(answer.body).not.toContain(words);
    expect(policiesOf(answer)).toEqual([consolePolicy()]);
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("the console's bare host leads to the console page, with nothing of the site's", async () => {
    const answer = await get("localhost", "/");
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe(CONSOLE_PATH);
    expect(answer.body).toBe("");
    expect(policiesOf(answer)).toEqual([consolePolicy()]);
  });

  it("the console's own file is served there, and the site's files and 404 page on the site's host (the control)", async () => {
    const runtime = await get("localhost", "/app-0123abcd.js");
    expect(runtime.status).toBe(200);
    expect(runtime.headers["x-content-type-options"]).toBe("nosniff");
    expect((await get("127.0.0.1", "/page-data/index/page-data.json")).status).toBe(200);
    expect((await get("127.0.0.1", "/component---src-pages-index-tsx-0123abcd.js")).status).toBe(200);
    expect((await get("127.0.0.1", "/logo.svg")).status).toBe(200);
    const unknown = await get("127.0.0.1", "/some/unknown");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain("Not found");
  });
});

describe("a path that does not decode", () => {
  it.each(["127.0.0.1", "localhost"])("on %s is a bare 400, and the API's 400 under /api/", async (host) => {
    const page = await get(host, "/%E0%A4%A");
    expect(page.status).toBe(400);
    expect(page.body).toBe("");
    const api = await get(host, "/api/%ff");
    expect(api.status).toBe(400);
    expect(JSON.parse(api.body)).toMatchObject({ errors: [{ status: "400", code: "path_invalid" }] });
  });
});

describe("the console page's CSP", () => {
  it("has one policy, its own, with no third-party origin, while the public page's allows Turnstile and the pixel", async () => {
    const consolePage = await get("localhost", CONSOLE_PATH);
    const policies = policiesOf(consolePage);
    expect(policies).toHaveLength(1);
    for (const thirdParty of THIRD_PARTIES) expect(policies[0]).not.toContain(thirdParty);
    expect(policies[0]).toMatch(/script-src 'self' 'sha256-[^']+'(;|$)/);
    expect(consolePage.headers["x-robots-tag"]).toBe("noindex, nofollow");

    // The control: the public page's policy is unchanged, third parties and all.
    const home = policiesOf(await get("127.0.0.1", "/"));
    expect(home).toHaveLength(1);
    for (const thirdParty of THIRD_PARTIES) expect(home[0]).toContain(thirdParty);
  });
});

describe("the editor's headers", () => {
  it("the editor is served on its own host only", async () => {
    expect((await get(EDITOR_HOST, ADMIN_PATH)).status).toBe(200);
    for (const host of ["127.0.0.1", "localhost"]) expect((await get(host, ADMIN_PATH)).status).toBe(404);
  });

  it("decap-cms.js, unhashed, has one policy and one cache rule that revalidates, never a year-long immutable", async () => {
    const bundle = await get(EDITOR_HOST, `${ADMIN_PATH}decap-cms.js`);
    expect(bundle.status).toBe(200);
    expect(policiesOf(bundle)).toHaveLength(1);
    expect(policiesOf(bundle)[0]).toContain("'unsafe-eval'");
    expect(bundle.raw["cache-control"]).toEqual(["public, max-age=0, must-revalidate"]);
    // The control: a hashed script of the site is still cached for good.
    expect((await get("127.0.0.1", "/app-0123abcd.js")).headers["cache-control"]).toContain("immutable");
  });

  it("the editor's page has one policy, the editor's", async () => {
    const editor = await get(EDITOR_HOST, ADMIN_PATH);
    expect(policiesOf(editor)).toHaveLength(1);
    expect(policiesOf(editor)[0]).toContain("connect-src 'self' https://api.github.com");
  });
});
