/**
 * The console on its own origin (worker/src/hosts.ts): /console/ and /api/console/* answer only on CONSOLE_HOST, the
 * web editor only on EDITOR_HOST, and neither host serves another page, so no public page's script runs where an
 * operator is signed in. A path that does not decode is refused on every host. The pages are the fixture build's
 * (fixtures/public). Each test is named after its attack.
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
  it.each(["/index.html", "/status/", "/404.html", "/no-such-page/"])(
    "%s on the console's host is a bare 404: none of the site's scripts runs beside the console",
    async (path) => {
      const response = await service.fetch(`${CONSOLE_ORIGIN}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      const body = await response.text();
      expect(body).not.toContain("<script");
      expect(body).not.toContain(HOME_PAGE);
    },
  );

  it("the console's bare host leads to the console", async () => {
    const response = await service.fetch(`${CONSOLE_ORIGIN}/`);
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location") ?? "", CONSOLE_ORIGIN).href).toBe(`${CONSOLE_ORIGIN}${CONSOLE_PATH}`);
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
