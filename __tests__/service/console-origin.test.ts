/**
 * The console on its own origin (worker/src/hosts.ts): /console/ and /api/console/* answer only on CONSOLE_HOST, the
 * web editor only on EDITOR_HOST, and neither host serves another page; the console's host serves no file of the
 * site's either, only the console's (fixtures/public/console-files.json), so no public page's script runs where an
 * operator is signed in. A path that does not decode is refused on every host. The pages and files are the fixture
 * build's (fixtures/public). Each test is named after its attack.
 */
import { describe, expect, it } from "vitest";
import {
  CONSOLE_AUDIT_ENDPOINT,
  CONSOLE_DASHBOARD_ENDPOINT,
  CONSOLE_ERROR_CODE,
  CONSOLE_PEOPLE_ENDPOINT,
  CONSOLE_SESSION_ENDPOINT,
} from "../../shared/console";
import type { SessionAnswer } from "../../shared/api/console";
import { OPENAPI_ENDPOINT } from "../../shared/api/routes";
import { consolePolicy } from "../../shared/console-policy";
import { ADMIN_PATH, CONSOLE_PATH } from "../../shared/routes";
import { errorsOf, logLinesOf, startWaitlistService, TEST_SETTINGS } from "./support/service";

/** The site's own host (the settings' siteUrl) and the console's, as wrangler.jsonc would route both. */
const PUBLIC_ORIGIN = TEST_SETTINGS.siteUrl;
const CONSOLE_HOST = "console.waitlist.example";
const CONSOLE_ORIGIN = `https://${CONSOLE_HOST}`;
const EDITOR_HOST = "editor.waitlist.example";

/** What the fixture pages say. */
const CONSOLE_PAGE = "Fixture console page";
const NOT_FOUND_PAGE = "Fixture 404 page";
const HOME_PAGE = "Fixture home page";
const EDITOR_PAGE = "Fixture editor page";
/** Every word of the site the fixture build holds (pages, page data, a page's script): none may reach the console's host. */
const SITE_WORDS = [HOME_PAGE, NOT_FOUND_PAGE, "Fixture success page"];

/** The console's policy as the Worker sends it on its own answers on the console's host (no inline script). */
const CONSOLE_POLICY = consolePolicy();
/** Files of the fixture build that the console's list names (fixtures/public/console-files.json). */
const CONSOLE_FILES = ["/app-fixture.js", "/console-app-fixture.js", "/page-data/app-data.json", "/page-data/console/page-data.json"];

const OPERATOR = "local-operator@localhost";

/** The site and its console, served apart as in production, with the local operator set (it must not help). */
const service = startWaitlistService({ origin: PUBLIC_ORIGIN, vars: { CONSOLE_HOST, CONSOLE_LOCAL_OPERATOR: OPERATOR } });

/** Console requests, each written as the attacker would send it to the public host. */
const CONSOLE_API_PATHS = [
  CONSOLE_SESSION_ENDPOINT,
  `${CONSOLE_DASHBOARD_ENDPOINT}?range=7d`,
  `${CONSOLE_PEOPLE_ENDPOINT}?q=ana`,
  CONSOLE_AUDIT_ENDPOINT,
  // Encoded and doubled slashes: read as the router and the asset server read them.
  "/api/%63onsole/session",
  "//api/console/session",
];

describe("a request for /api/console/* on the public host", () => {
  it.each(CONSOLE_API_PATHS)("GET %s on the public host is the API's 404, and Access is never asked", async (path) => {
    const response = await service.fetch(`${PUBLIC_ORIGIN}${path}`, { headers: { "cf-access-jwt-assertion": "a.b.c" } });
    expect(response.status).toBe(404);
    expect((await errorsOf(response))[0].code).toBe("not_found");
    expect(logLinesOf(service, "console_not_configured")).toEqual([]);
  });

  it("an action posted to the public host, same-origin and in JSON, is 404 and changes nothing", async () => {
    const response = await service.fetch(`${PUBLIC_ORIGIN}${CONSOLE_PEOPLE_ENDPOINT}/someone/erase`, {
      method: "POST",
      headers: { origin: PUBLIC_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ reason: "Asked to be removed." }),
    });
    expect(response.status).toBe(404);
    expect(await service.query("SELECT id FROM audit_log")).toEqual([]);
  });

  it("the same request on the console's host reaches the console's gate (the control)", async () => {
    const response = await service.fetch(`${CONSOLE_ORIGIN}${CONSOLE_SESSION_ENDPOINT}`);
    // Not a loopback host: the local operator is not signed in; Access's token is the only way in.
    expect(response.status).toBe(401);
    expect((await errorsOf(response))[0].code).toBe(CONSOLE_ERROR_CODE.accessTokenMissing);
  });

  it("the public API still answers on the public host", async () => {
    const response = await service.fetch(`${PUBLIC_ORIGIN}/api/no-such-route`);
    expect(response.status).toBe(404);
    expect((await service.fetch(`${PUBLIC_ORIGIN}${OPENAPI_ENDPOINT}`)).status).toBe(200);
  });
});

describe("/console/ on the public host", () => {
  it.each([CONSOLE_PATH, "/console", `${CONSOLE_PATH}index.html`, "/%63onsole/", "//console/"])(
    "%s on the public host is the site's 404 page",
    async (path) => {
      const response = await service.fetch(`${PUBLIC_ORIGIN}${path}`);
      expect(response.status).toBe(404);
      const page = await response.text();
      expect(page).toContain(NOT_FOUND_PAGE);
      expect(page).not.toContain(CONSOLE_PAGE);
    },
  );

  it("the console's page is served on the console's host (the control)", async () => {
    const response = await service.fetch(`${CONSOLE_ORIGIN}${CONSOLE_PATH}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(CONSOLE_PAGE);
  });

  it("the public pages are unchanged on the public host", async () => {
    const response = await service.fetch(`${PUBLIC_ORIGIN}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(HOME_PAGE);
  });
});

describe("a public page on the console's host", () => {
  it("the console's bare host leads to the console", async () => {
    const response = await service.fetch(`${CONSOLE_ORIGIN}/`);
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location") ?? "", CONSOLE_ORIGIN).href).toBe(`${CONSOLE_ORIGIN}${CONSOLE_PATH}`);
  });
});

describe("the console host's public paths", () => {
  it.each([
    "/success/",
    "/success",
    "/404.html",
    "/404/",
    "/index.html",
    "/status/",
    "/no-such-page/",
    "/some/unknown/",
    "/some/unknown",
    "/page-data/index/page-data.json",
    "/giveaway/draw/",
    "/giveaway/draw/spring/entrants.txt",
    "/component---src-pages-index-tsx-fixture.js",
    "/service-settings.json",
    "/console-files.json",
    // A console file by another spelling, which the asset server would read as the file.
    "/%61pp-fixture.js",
    "//app-fixture.js",
    // A file the list names that the build lacks: the asset server's answer would be the site's 404 page.
    "/listed-not-built.js",
    `${CONSOLE_PATH}no-such-file`,
  ])("%s on the console's host is a bare 404 under the console's policy, with nothing of the site's", async (path) => {
    const response = await service.fetch(`${CONSOLE_ORIGIN}${path}`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.headers.get("content-security-policy")).toBe(CONSOLE_POLICY);
    const body = await response.text();
    expect(body).toBe("");
    for (const words of SITE_WORDS) expect(body).not.toContain(words);
  });

  it("the console's policy on those answers names no third party and runs no inline script", () => {
    expect(CONSOLE_POLICY).toMatch(/(^|; )script-src 'self'(;|$)/);
    expect(CONSOLE_POLICY).not.toMatch(/https?:/);
    expect(CONSOLE_POLICY).toContain("frame-ancestors 'none'");
  });

  it.each(CONSOLE_FILES)("%s, a file of the console's, is served on the console's host (the control)", async (path) => {
    const response = await service.fetch(`${CONSOLE_ORIGIN}${path}`);
    expect(response.status).toBe(200);
    expect(await response.text()).not.toBe("");
  });

  it("the site's own files and pages are unchanged on the public host (the control)", async () => {
    for (const path of ["/component---src-pages-index-tsx-fixture.js", "/page-data/index/page-data.json", "/success/"]) {
      const response = await service.fetch(`${PUBLIC_ORIGIN}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toMatch(/Fixture (home|success) page/);
    }
    const unknown = await service.fetch(`${PUBLIC_ORIGIN}/some/unknown`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain(NOT_FOUND_PAGE);
  });
});

describe("a path that does not decode", () => {
  /** Percent-encodings that are not UTF-8: a cut sequence, a lone byte, bytes of no character. */
  const PAGE_PATHS = ["/%E0%A4%A", "/%ff", "/success/%ff/", "/%C0%AF.html", `${CONSOLE_PATH}%ff`, "/giveaway/draw/%ff/entrants.txt"];
  const API_PATHS = ["/api/%ff", "/api/signups%E0%A4%A", `${CONSOLE_PEOPLE_ENDPOINT}/%ff`, "/api/%63onsole/%ff"];

  describe.each([
    ["the public host", PUBLIC_ORIGIN],
    ["the console's host", CONSOLE_ORIGIN],
  ])("on %s", (_host, origin) => {
    it.each(PAGE_PATHS)("%s is a bare 400, not a page and not a 500", async (path) => {
      const response = await service.fetch(`${origin}${path}`);
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await response.text()).toBe("");
      if (origin === CONSOLE_ORIGIN) expect(response.headers.get("content-security-policy")).toBe(CONSOLE_POLICY);
    });

    it.each(API_PATHS)("%s is the API's 400 path_invalid, before any route reads it", async (path) => {
      const response = await service.fetch(`${origin}${path}`, { headers: { "cf-access-jwt-assertion": "a.b.c" } });
      expect(response.status).toBe(400);
      expect((await errorsOf(response))[0].code).toBe("path_invalid");
    });
  });

  it("nothing failed on the way: no request_failed line", () => {
    expect(logLinesOf(service, "request_failed")).toEqual([]);
  });
});

describe("a foreign Host on npm start", () => {
  /** `npm start`'s service: the console on localhost (scripts/lib/wrangler.ts), the local operator signed in there. */
  const local = (origin: string) => startWaitlistService({ origin, vars: { CONSOLE_HOST: "localhost", CONSOLE_LOCAL_OPERATOR: OPERATOR } });

  it.each([["http://rebind.evil.example:8787"], ["http://127.0.0.1.evil.example:8787"], ["http://127.0.0.1:8787"]])(
    "the console is not found on %s, a host an attacker's page can be served from or the site's own",
    async (origin) => {
      const rebound = local(origin);
      const session = await rebound.fetch(CONSOLE_SESSION_ENDPOINT);
      expect(session.status).toBe(404);
      expect((await rebound.fetch(CONSOLE_PATH)).status).toBe(404);
    },
  );

  it("the local operator is signed in on http://localhost:<port> (the control)", async () => {
    const session = await local("http://localhost:8787").fetch(CONSOLE_SESSION_ENDPOINT);
    expect(session.status).toBe(200);
    expect(await session.json<SessionAnswer>()).toEqual({ operator: OPERATOR, local: true, role: "operator" });
  });
});

describe("the web editor", () => {
  it.each([[PUBLIC_ORIGIN], [CONSOLE_ORIGIN]])("is not served on %s while EDITOR_HOST is empty (wrangler.jsonc)", async (origin) => {
    const response = await service.fetch(`${origin}${ADMIN_PATH}`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain(EDITOR_PAGE);
  });

  it("with EDITOR_HOST set, it is served there only, and never on the public or the console's host", async () => {
    const withEditor = startWaitlistService({ origin: PUBLIC_ORIGIN, vars: { CONSOLE_HOST, EDITOR_HOST } });
    const onEditorHost = await withEditor.fetch(`https://${EDITOR_HOST}${ADMIN_PATH}`);
    expect(onEditorHost.status).toBe(200);
    expect(await onEditorHost.text()).toContain(EDITOR_PAGE);
    for (const origin of [PUBLIC_ORIGIN, CONSOLE_ORIGIN]) expect((await withEditor.fetch(`${origin}${ADMIN_PATH}`)).status).toBe(404);
    // Nor does the editor's host serve the console, or a public page.
    expect((await withEditor.fetch(`https://${EDITOR_HOST}${CONSOLE_SESSION_ENDPOINT}`)).status).toBe(404);
    expect((await withEditor.fetch(`https://${EDITOR_HOST}/status/`)).status).toBe(404);
  });
});
