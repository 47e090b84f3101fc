/**
 * Where `npm run waitlist`'s console commands send their requests (scripts/service/console-client.ts: consoleTarget):
 * with `--env production` the Access service token goes with every request, so only to an https origin.
 */
import { consoleTarget, LOCAL_ORIGIN, SERVICE_TOKEN_HEADERS } from "../../scripts/service/console-client";

const SHELL = { CF_ACCESS_CLIENT_ID: "client-id.access", CF_ACCESS_CLIENT_SECRET: "client-secret" };
const SITE_URL = () => "https://www.pickfund.example/";

test("an http: --origin in production is refused before any request, saying why", () => {
  expect(() => consoleTarget("production", "http://www.pickfund.example", SITE_URL, SHELL)).toThrow(
    "--env production sends the Access service token with every request, so it calls only an https:// origin, not http://www.pickfund.example (--origin)",
  );
});

test("an http: site.url in production is refused the same way", () => {
  expect(() => consoleTarget("production", undefined, () => "http://www.pickfund.example/", SHELL)).toThrow(
    "not http://www.pickfund.example (content's site.url)",
  );
});

test("production takes an https origin, with the service token's headers", () => {
  expect(consoleTarget("production", "https://staging.pickfund.example/some/path", SITE_URL, SHELL)).toEqual({
    origin: "https://staging.pickfund.example",
    headers: { [SERVICE_TOKEN_HEADERS.id]: "client-id.access", [SERVICE_TOKEN_HEADERS.secret]: "client-secret" },
  });
  expect(consoleTarget("production", undefined, SITE_URL, SHELL).origin).toBe("https://www.pickfund.example");
});

test("the local service is called over http, without a token", () => {
  expect(consoleTarget(undefined, undefined, SITE_URL, {})).toEqual({ origin: LOCAL_ORIGIN, headers: {} });
  expect(consoleTarget(undefined, "http://127.0.0.1:9999", SITE_URL, {})).toEqual({ origin: "http://127.0.0.1:9999", headers: {} });
});
