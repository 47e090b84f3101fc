/**
 * `X-Content-Type-Options: nosniff` on every file the Worker serves (worker/src/middleware.ts: noSniff): its own
 * answers, the published draws' files from R2, the console's page and files, and the site's files it passes on from
 * the static build. The fixture build has no `_headers`, so on a file of the build the header is the Worker's own.
 * Without it a browser may sniff a published list, page data or a JSON answer into a script or a page.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { OPENAPI_ENDPOINT } from "../../shared/api/routes";
import { CONSOLE_SESSION_ENDPOINT } from "../../shared/console";
import { CONSOLE_PATH } from "../../shared/routes";
import { drawKeys } from "../../worker/src/draw/job";
import { startWaitlistService, TEST_SETTINGS } from "./support/service";

const PUBLIC_ORIGIN = TEST_SETTINGS.siteUrl;
const CONSOLE_HOST = "console.waitlist.example";
const CONSOLE_ORIGIN = `https://${CONSOLE_HOST}`;

/** A published draw in the test's R2, as the draw job leaves it: its list and its commitment. */
const DRAW = "spring";
const LIST = "0001 a1b2c3\n0002 d4e5f6\n";

const service = startWaitlistService({ origin: PUBLIC_ORIGIN, vars: { CONSOLE_HOST } });

beforeAll(async () => {
  await env.DRAWS.put(drawKeys.list(DRAW), LIST, { httpMetadata: { contentType: "text/plain; charset=utf-8" } });
  await env.DRAWS.put(drawKeys.commitment(DRAW), JSON.stringify({ draw: DRAW }), { httpMetadata: { contentType: "application/json" } });
});

describe("nosniff on each kind of file served", () => {
  it.each([
    ["a page of the site", `${PUBLIC_ORIGIN}/`, {}],
    ["a script of the site", `${PUBLIC_ORIGIN}/component---src-pages-index-tsx-fixture.js`, {}],
    ["the site's page data", `${PUBLIC_ORIGIN}/page-data/index/page-data.json`, {}],
    ["the site's 404 page", `${PUBLIC_ORIGIN}/no/such/file`, {}],
    ["the build's settings", `${PUBLIC_ORIGIN}/service-settings.json`, {}],
    ["a published draw's list", `${PUBLIC_ORIGIN}/giveaway/draw/${DRAW}/entrants.txt`, {}],
    ["a part of a published draw's list", `${PUBLIC_ORIGIN}/giveaway/draw/${DRAW}/entrants.txt`, { range: "bytes=0-3" }],
    ["a published draw's commitment", `${PUBLIC_ORIGIN}/giveaway/draw/${DRAW}/draw.json`, {}],
    ["a draw that is not published", `${PUBLIC_ORIGIN}/giveaway/draw/autumn/draw.json`, {}],
    ["the API's description", `${PUBLIC_ORIGIN}${OPENAPI_ENDPOINT}`, {}],
    ["the API's 404", `${PUBLIC_ORIGIN}/api/no-such-route`, {}],
    ["a path that does not decode", `${PUBLIC_ORIGIN}/%ff`, {}],
    ["the console page", `${CONSOLE_ORIGIN}${CONSOLE_PATH}`, {}],
    ["a script of the console's", `${CONSOLE_ORIGIN}/console-app-fixture.js`, {}],
    ["the console's page data", `${CONSOLE_ORIGIN}/page-data/console/page-data.json`, {}],
    ["the console's API", `${CONSOLE_ORIGIN}${CONSOLE_SESSION_ENDPOINT}`, {}],
    ["a site's path on the console's host", `${CONSOLE_ORIGIN}/success/`, {}],
    ["the console's bare host", `${CONSOLE_ORIGIN}/`, {}],
  ])("%s (%s) is sent with nosniff", async (_what, url, headers: Record<string, string>) => {
    const response = await service.fetch(url, { headers, redirect: "manual" });
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("a published list's answer is otherwise unchanged: its type, its bytes, its cache rule (the control)", async () => {
    const response = await service.fetch(`${PUBLIC_ORIGIN}/giveaway/draw/${DRAW}/entrants.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("etag")).not.toBeNull();
    expect(await response.text()).toBe(LIST);
  });
});
