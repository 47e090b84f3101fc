/**
 * The OpenAPI descriptions: what the Worker serves is what `npm run openapi` wrote to docs/openapi.json (the public
 * API) and docs/openapi-console.json (the console's), the public one names no console or development route, the
 * console's answers only on the console's host behind Access, and together they name exactly the routes the Worker
 * has (development routes aside).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import committedConsole from "../../docs/openapi-console.json";
import committed from "../../docs/openapi.json";
import { openApiDocument, openApiPath } from "../../shared/api/openapi";
import { API_ROUTES, audienceOf, CONSOLE_OPENAPI_ENDPOINT, OPENAPI_ENDPOINT } from "../../shared/api/routes";
import { CONSOLE_API } from "../../shared/console";
import { app } from "../../worker/src/index";
import { errorsOf, startWaitlistService } from "./support/service";
import { startAccessStandIn, type AccessStandInClient } from "./support/stand-ins";

interface Description {
  paths: Record<string, Record<string, { operationId: string; security?: Record<string, unknown>[] }>>;
  components: { securitySchemes: Record<string, unknown> };
}

/** Each operation of a description as `METHOD /path` (OpenAPI's `{id}` back to the router's `:id`). */
function operationsOf({ paths }: Description): string[] {
  return Object.entries(paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`),
  );
}

const CONSOLE_HOST = "console.waitlist.example";
let access: AccessStandInClient;

beforeAll(async () => {
  access = await startAccessStandIn();
});
afterAll(() => access.close());

it("serves the committed public description, which is the one the schemas make (run `npm run openapi` after changing them)", async () => {
  const response = await startWaitlistService().fetch(OPENAPI_ENDPOINT);
  expect(response.status).toBe(200);
  const served = await response.json();
  expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument("public"))));
  expect(committed).toEqual(served);
});

it("the public OpenAPI document lists no console or development route", async () => {
  const served = await (await startWaitlistService().fetch(OPENAPI_ENDPOINT)).json<Description>();
  const operations = operationsOf(served);
  expect(operations.filter((operation) => operation.includes(`${CONSOLE_API}/`))).toEqual([]);
  const development = API_ROUTES.filter((route) => audienceOf(route) === "development");
  expect(development.length).toBeGreaterThan(0);
  for (const route of development) expect(operations).not.toContain(`${route.method.toUpperCase()} ${route.path}`);
  expect(Object.keys(served.components.securitySchemes)).not.toContain("access");
});

describe("the console's OpenAPI description answers only on the console host, behind Access", () => {
  const consoleService = () =>
    startWaitlistService({
      origin: `https://${CONSOLE_HOST}`,
      vars: { CONSOLE_HOST, ACCESS_TEAM_DOMAIN: access.teamDomain, ACCESS_AUD: access.aud },
    });

  it("is the committed one, for an operator Access let in", async () => {
    const response = await consoleService().fetch(CONSOLE_OPENAPI_ENDPOINT, {
      headers: { "cf-access-jwt-assertion": await access.sign({ email: "ops@example.com" }) },
    });
    expect(response.status).toBe(200);
    const served = await response.json<Description>();
    expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument("console"))));
    expect(committedConsole).toEqual(served);
    expect(operationsOf(served).every((operation) => operation.includes(`${CONSOLE_API}/`))).toBe(true);
  });

  it("is refused without an Access token, or with another application's", async () => {
    const service = consoleService();
    const without = await service.fetch(CONSOLE_OPENAPI_ENDPOINT);
    expect([without.status, (await errorsOf(without))[0].code]).toEqual([401, "access_token_missing"]);
    const elsewhere = await service.fetch(CONSOLE_OPENAPI_ENDPOINT, {
      headers: { "cf-access-jwt-assertion": await access.sign({ aud: "another-application-aud-tag" }) },
    });
    expect([elsewhere.status, (await errorsOf(elsewhere))[0].code]).toEqual([403, "access_denied"]);
  });

  it("is not found on the site's host, even with a valid Access token", async () => {
    const site = startWaitlistService({
      origin: "https://www.waitlist.example",
      vars: { CONSOLE_HOST, ACCESS_TEAM_DOMAIN: access.teamDomain, ACCESS_AUD: access.aud },
    });
    const response = await site.fetch(CONSOLE_OPENAPI_ENDPOINT, {
      headers: { "cf-access-jwt-assertion": await access.sign({ email: "ops@example.com" }) },
    });
    expect(response.status).toBe(404);
    expect((await errorsOf(response))[0].code).toBe("not_found");
  });
});

it("describes every route the Worker has in one description or the other, and no other (development routes aside)", () => {
  // The published draw's files (/giveaway/draw/…) are files, not the API.
  const registered = new Set(
    app.routes.filter(({ method, path }) => method !== "ALL" && path.startsWith("/api/")).map(({ method, path }) => `${method} ${path}`),
  );
  const described = [...operationsOf(committed as unknown as Description), ...operationsOf(committedConsole as unknown as Description)];
  const development = API_ROUTES.filter((route) => audienceOf(route) === "development").map(
    ({ method, path }) => `${method.toUpperCase()} ${path}`,
  );
  expect(new Set([...described, ...development])).toEqual(registered);
  expect(
    new Set(API_ROUTES.map(({ method, path }) => `${method.toUpperCase()} ${openApiPath(path).replace(/\{(\w+)\}/g, ":$1")}`)),
  ).toEqual(registered);
});
