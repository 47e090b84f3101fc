/** GET /api/openapi.json: the API's OpenAPI 3.1 description (shared/api/openapi.ts), built once per isolate. */
import { Hono } from "hono";
import { openApiDocument } from "../../../shared/api/openapi";
import { OPENAPI_ENDPOINT } from "../../../shared/api/routes";
import type { AppEnv } from "../env";
import { jsonResponse } from "../http";
import { refuseOtherMethods } from "../middleware";

let document: Record<string, unknown> | null = null;

export const openApi = refuseOtherMethods(
  new Hono<AppEnv>().get(OPENAPI_ENDPOINT, () => jsonResponse(200, (document ??= openApiDocument()))),
);
