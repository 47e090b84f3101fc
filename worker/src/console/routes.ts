/**
 * The operator's console's routes (`/api/console/*`), their OpenAPI description, and the draw's, which sit under
 * them: Cloudflare Access is checked before any of them runs (and before anything is read), then the build's settings
 * are read; a request from another site's page is refused by every route (access.ts: consolePage for reads,
 * sameOrigin for writes). What acts needs the `operator` role (access.ts: operatorRole).
 */
import { Hono } from "hono";
import { ActionRequest, DashboardQuery, NoQuery, PageQuery, PersonParams } from "../../../shared/api/console";
import {
  CONSOLE_API,
  CONSOLE_AUDIT_ENDPOINT,
  CONSOLE_DASHBOARD_ENDPOINT,
  CONSOLE_ERROR_CODE,
  CONSOLE_PEOPLE_ENDPOINT,
  CONSOLE_REVIEW_ENDPOINT,
  CONSOLE_SESSION_ENDPOINT,
  PERSON_ACTIONS,
} from "../../../shared/console";
import { CONSOLE_OPENAPI_ENDPOINT } from "../../../shared/api/routes";
import { JSON_CONTENT_TYPE } from "../../../shared/contract";
import { draw } from "../draw/routes";
import { launchConsole } from "../launch/routes";
import { handleConsoleOpenApi } from "../openapi/routes";
import type { AppEnv } from "../env";
import { accepts, refuseOtherMethods, sameOrigin, withSettings } from "../middleware";
import { valid } from "../validate";
import { consoleAccess, consolePage, operatorRole } from "./access";
import { handleAction } from "./actions";
import { handleAudit } from "./audit";
import { handleDashboard } from "./dashboard";
import { handlePeopleSearch, handlePerson, handlePersonExport, handleSession, PeopleSearchQuery } from "./people";
import { handleReview } from "./review";

/** A query or path parameter the console refuses is 400 `parameter_invalid`. */
const PARAMETER = { code: CONSOLE_ERROR_CODE.parameterInvalid };

/** personEndpoint() and its kin encode the id, so the route patterns are written out here. */
const PERSON_ROUTE = `${CONSOLE_PEOPLE_ENDPOINT}/:id`;

export const consoleRoutes = new Hono<AppEnv>()
  .use(`${CONSOLE_API}/*`, consoleAccess, withSettings)
  .get(CONSOLE_SESSION_ENDPOINT, consolePage, valid("query", NoQuery, PARAMETER), handleSession)
  .get(CONSOLE_OPENAPI_ENDPOINT, consolePage, valid("query", NoQuery, PARAMETER), handleConsoleOpenApi)
  .get(CONSOLE_DASHBOARD_ENDPOINT, consolePage, valid("query", DashboardQuery, PARAMETER), (c) =>
    handleDashboard(c, c.req.valid("query").range),
  )
  .get(CONSOLE_PEOPLE_ENDPOINT, consolePage, valid("query", PeopleSearchQuery, PARAMETER), (c) =>
    handlePeopleSearch(c, c.req.valid("query").q),
  )
  .get(CONSOLE_REVIEW_ENDPOINT, consolePage, valid("query", PageQuery, PARAMETER), (c) => handleReview(c, c.req.valid("query").before))
  .get(CONSOLE_AUDIT_ENDPOINT, consolePage, valid("query", PageQuery, PARAMETER), (c) => handleAudit(c, c.req.valid("query").before))
  .get(PERSON_ROUTE, consolePage, valid("param", PersonParams, PARAMETER), valid("query", NoQuery, PARAMETER), (c) =>
    handlePerson(c, c.req.valid("param").id),
  )
  // An export is an action: it takes a reason and is audited, so it is refused as an action is.
  .post(
    `${PERSON_ROUTE}/export`,
    sameOrigin("A person's data is exported only from the console's own page."),
    operatorRole,
    accepts([JSON_CONTENT_TYPE]),
    valid("param", PersonParams, PARAMETER),
    valid("json", ActionRequest, { code: CONSOLE_ERROR_CODE.reasonInvalid }),
    (c) => handlePersonExport(c, c.req.valid("param").id, c.req.valid("json").reason),
  );

for (const action of PERSON_ACTIONS)
  // Same origin and JSON only: a page elsewhere cannot make an operator's browser (its Access cookie) act.
  consoleRoutes.post(
    `${PERSON_ROUTE}/${action}`,
    sameOrigin("Console actions are taken only from the console's own page."),
    operatorRole,
    accepts([JSON_CONTENT_TYPE]),
    valid("param", PersonParams, PARAMETER),
    valid("json", ActionRequest, { code: CONSOLE_ERROR_CODE.reasonInvalid }),
    (c) => handleAction(c, action, c.req.valid("param").id, c.req.valid("json").reason),
  );

refuseOtherMethods(consoleRoutes).route("/", draw).route("/", launchConsole);
