/**
 * The API's OpenAPI 3.1 descriptions (shared/api/openapi.ts), each built once per isolate: GET /api/openapi.json, the
 * public API's, on any host; and the console's, which console/routes.ts mounts at GET /api/console/openapi.json behind
 * the console's host rule and Access like every console route.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { type Described, openApiDocument } from "../../../shared/api/openapi";
import { OPENAPI_ENDPOINT } from "../../../shared/api/routes";
import type { AppEnv } from "../env";
import { jsonResponse } from "../http";
import { refuseOtherMethods } from "../middleware";

const documents: Partial<Record<Described, Record<string, unknown>>> = {};

/** 200 with the description of `audience`. */
function describe(audience: Described): Response {
  return jsonResponse(200, (documents[audience] ??= openApiDocument(audience)));
}

export const openApi = refuseOtherMethods(new Hono<AppEnv>().get(OPENAPI_ENDPOINT, () => describe("public")));

/** Answer GET /api/console/openapi.json (mounted by console/routes.ts, after its Access check). */
export function handleConsoleOpenApi(_c: Context<AppEnv>): Response {
  return describe("console");
}
