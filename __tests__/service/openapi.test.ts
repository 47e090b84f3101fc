/**
 * The OpenAPI description: what the Worker serves is what `npm run openapi` wrote to docs/openapi.json, and it names
 * exactly the routes the Worker has.
 */
import { expect, it } from "vitest";
import committed from "../../docs/openapi.json";
import { openApiDocument } from "../../shared/api/openapi";
import { API_ROUTES, OPENAPI_ENDPOINT } from "../../shared/api/routes";
import { app } from "../../worker/src/index";
import { startWaitlistService } from "./support/service";

it("serves the committed description, which is the one the schemas make (run `npm run openapi` after changing them)", async () => {
  const response = await startWaitlistService().fetch(OPENAPI_ENDPOINT);
  expect(response.status).toBe(200);
  const served = await response.json();
  expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  expect(committed).toEqual(served);
});

it("describes every route the Worker has, and no other", () => {
  // The published draw's files (/giveaway/draw/…) are files, not the API.
  const registered = new Set(
    app.routes.filter(({ method, path }) => method !== "ALL" && path.startsWith("/api/")).map(({ method, path }) => `${method} ${path}`),
  );
  expect(new Set(API_ROUTES.map(({ method, path }) => `${method.toUpperCase()} ${path}`))).toEqual(registered);
});
