/**
 * Launch day's routes: the console's (behind Access, mounted by console/routes.ts) and the check-in the firm's
 * product calls (mounted by index.ts).
 */
import { Hono } from "hono";
import { ActionRequest, PersonParams } from "../../../shared/api/console";
import { BatchRequest, CheckInRequest, PreviewQuery } from "../../../shared/api/launch";
import { CONSOLE_ERROR_CODE, CONSOLE_PEOPLE_ENDPOINT } from "../../../shared/console";
import { JSON_CONTENT_TYPE } from "../../../shared/contract";
import { NoQuery } from "../../../shared/api/console";
import {
  CHECK_IN_ENDPOINT,
  INVITE_ACCEPT_ENDPOINT,
  LAUNCH_BATCHES_ENDPOINT,
  LAUNCH_ENDPOINT,
  LAUNCH_PREVIEW_ENDPOINT,
} from "../../../shared/launch";
import type { AppEnv } from "../env";
import { accepts, refuseOtherMethods, sameOrigin } from "../middleware";
import { valid } from "../validate";
import { checkInSecret, developmentOnly, handleCheckIn } from "./check-in";
import { handleBatch, handleInvitePerson, handleLaunch, handlePreview, handleRevoke } from "./console";

const PARAMETER = { code: CONSOLE_ERROR_CODE.parameterInvalid };
const REASON = { code: CONSOLE_ERROR_CODE.reasonInvalid };
const PERSON_ROUTE = `${CONSOLE_PEOPLE_ENDPOINT}/:id`;
const FROM_CONSOLE = "Launch actions are taken only from the console's own page.";

/** Mounted under the console's routes: Access and the settings are checked before any of these runs. */
export const launchConsole = refuseOtherMethods(
  new Hono<AppEnv>()
    .get(LAUNCH_ENDPOINT, valid("query", NoQuery, PARAMETER), handleLaunch)
    .get(LAUNCH_PREVIEW_ENDPOINT, valid("query", PreviewQuery, PARAMETER), (c) => handlePreview(c, c.req.valid("query").count))
    .post(LAUNCH_BATCHES_ENDPOINT, sameOrigin(FROM_CONSOLE), accepts([JSON_CONTENT_TYPE]), valid("json", BatchRequest, REASON), (c) =>
      handleBatch(c, c.req.valid("json")),
    )
    .post(
      `${PERSON_ROUTE}/invite`,
      sameOrigin(FROM_CONSOLE),
      accepts([JSON_CONTENT_TYPE]),
      valid("param", PersonParams, PARAMETER),
      valid("json", ActionRequest, REASON),
      (c) => handleInvitePerson(c, c.req.valid("param").id, c.req.valid("json").reason),
    )
    .post(
      `${PERSON_ROUTE}/revoke`,
      sameOrigin(FROM_CONSOLE),
      accepts([JSON_CONTENT_TYPE]),
      valid("param", PersonParams, PARAMETER),
      valid("json", ActionRequest, REASON),
      (c) => handleRevoke(c, c.req.valid("param").id, c.req.valid("json").reason),
    ),
);

/** The firm's product's check-in, and the stand-in /invite/ page's (development only). */
export const invitations = refuseOtherMethods(
  new Hono<AppEnv>()
    .post(CHECK_IN_ENDPOINT, checkInSecret, accepts([JSON_CONTENT_TYPE]), valid("json", CheckInRequest), (c) =>
      handleCheckIn(c, c.req.valid("json").token),
    )
    .post(
      INVITE_ACCEPT_ENDPOINT,
      developmentOnly,
      sameOrigin("An invitation is accepted here only from the site's own /invite/ page."),
      accepts([JSON_CONTENT_TYPE]),
      valid("json", CheckInRequest),
      (c) => handleCheckIn(c, c.req.valid("json").token),
    ),
);
