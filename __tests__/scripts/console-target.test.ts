/**
 * Where `npm run waitlist`'s console commands send their requests (scripts/service/console-client.ts: consoleTarget):
 * with `--env production` the Access service token goes with every request, so only to an https origin.
 */
import { consoleTarget, LOCAL_ORIGIN, SERVICE_TOKEN_HEADERS } from "../../scripts/service/console-client";
import { consoleHostOf, consoleHostProblem, productionConsoleOrigin } from "../../scripts/service/console-host";

const SHELL = { CF_ACCESS_CLIENT_ID: "client-id.access", CF_ACCESS_CLIENT_SECRET: "client-secret" };
/** wrangler.jsonc's CONSOLE_HOST as an origin (console-host.ts: productionConsoleOrigin). */
const CONSOLE_ORIGIN = () => "https://console.pickfund.example";

test("an http: --origin in production is refused before any request, saying why", () => {
  expect(() => consoleTarget("production", "http://www.pickfund.example", CONSOLE_ORIGIN, SHELL)).toThrow(
    "--env production sends the Access service token with every request, so it calls only an https:// origin, not http://www.pickfund.example (--origin)",
  );
});

test("an http: console origin in production is refused the same way", () => {
  expect(() => consoleTarget("production", undefined, () => "http://console.pickfund.example", SHELL)).toThrow(
    "not http://console.pickfund.example (wrangler.jsonc's CONSOLE_HOST)",
  );
});

test("production takes an https origin, with the service token's headers", () => {
  expect(consoleTarget("production", "https://staging.pickfund.example/some/path", CONSOLE_ORIGIN, SHELL)).toEqual({
    origin: "https://staging.pickfund.example",
    headers: { [SERVICE_TOKEN_HEADERS.id]: "client-id.access", [SERVICE_TOKEN_HEADERS.secret]: "client-secret" },
  });
  // Without --origin: the console's own host, never the public site's (where /api/console/* is 404).
  expect(consoleTarget("production", undefined, CONSOLE_ORIGIN, SHELL).origin).toBe("https://console.pickfund.example");
});

test("the local service is called over http, without a token", () => {
  expect(consoleTarget(undefined, undefined, CONSOLE_ORIGIN, {})).toEqual({ origin: LOCAL_ORIGIN, headers: {} });
  expect(consoleTarget(undefined, "http://127.0.0.1:9999", CONSOLE_ORIGIN, {})).toEqual({ origin: "http://127.0.0.1:9999", headers: {} });
});

test("the local service's console is on localhost, beside the site on 127.0.0.1", () => {
  expect(new URL(LOCAL_ORIGIN).hostname).toBe("localhost");
});

test("production's console origin is wrangler.jsonc's CONSOLE_HOST, and its placeholder is refused", () => {
  expect(consoleHostOf('"vars": { "CONSOLE_HOST": " Console.PickFund.example " }')).toBe("console.pickfund.example");
  // The repository's wrangler.jsonc has the placeholder until the one-time setup.
  expect(() => productionConsoleOrigin()).toThrow("wrangler.jsonc names no console host");
});

describe("npm run deploy's check of the console's host", () => {
  const config = (consoleHost: string, routes: string[]) =>
    JSON.stringify({ routes: routes.map((pattern) => ({ pattern, custom_domain: true })), vars: { CONSOLE_HOST: consoleHost } });

  test("a console host of its own, routed to the Worker, deploys", () => {
    expect(consoleHostProblem(config("console.pickfund.com", ["www.pickfund.com", "console.pickfund.com"]), "www.pickfund.com")).toBeNull();
  });

  test.each([
    ["empty", config("", ["www.pickfund.com"]), "must name the console's own host"],
    ["the placeholder", config("console.your-domain.example", ["www.pickfund.com"]), "must name the console's own host"],
    ["the site's own host", config("www.pickfund.com", ["www.pickfund.com"]), "the console needs a host of its own"],
    [
      "not routed",
      config("console.pickfund.com", ["www.pickfund.com"]),
      'add { "pattern": "console.pickfund.com", "custom_domain": true }',
    ],
  ])("a console host that is %s is refused, saying how to fix it", (_, text, message) => {
    expect(consoleHostProblem(text, "www.pickfund.com")).toContain(message);
  });
});
