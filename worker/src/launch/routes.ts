/**
 * Launch day's routes: the console's (behind Access, mounted by console/routes.ts) and the check-in the firm's
 * product calls (mounted by index.ts).
 */
import { Hono } from "hono";
import { ActionRequest, NoQuery, PersonParams } from "../../../shared/api/console";
import { BatchParams, BatchRequest, CheckInRequest, PreviewQuery, ScheduleRequest } from "../../../shared/api/launch";
import { CONSOLE_ERROR_CODE, CONSOLE_PEOPLE_ENDPOINT } from "../../../shared/console";
import { JSON_CONTENT_TYPE } from "../../../shared/contract";
import {
  BATCH_ACTIONS,
  CHECK_IN_ENDPOINT,
  INVITE_ACCEPT_ENDPOINT,
  LAUNCH_BATCHES_ENDPOINT,
  LAUNCH_ENDPOINT,
  LAUNCH_PREVIEW_ENDPOINT,
  LAUNCH_SCHEDULE_ENDPOINT,
  PERSON_INVITATION_ACTIONS,
} from "../../../shared/launch";
import { consolePage, operatorRole } from "../console/access";
import type { AppEnv } from "../env";
import { accepts, refuseOtherMethods, sameOrigin } from "../middleware";
import { valid } from "../validate";
import { checkInSecret, developmentOnly, handleCheckIn } from "./check-in";
import {
  handleBatch,
  handleBatchAction,
  handleLaunch,
  handlePersonAction,
  handlePersonInvitation,
  handlePreview,
  handleSchedule,
} from "./console";

const PARAMETER = { code: CONSOLE_ERROR_CODE.parameterInvalid };
const REASON = { code: CONSOLE_ERROR_CODE.reasonInvalid };
const PERSON_ROUTE = `${CONSOLE_PEOPLE_ENDPOINT}/:id`;
const FROM_CONSOLE = "Launch actions are taken only from the console's own page.";

/**
 * Mounted under the console's routes: Access and the settings are checked before any of these runs; what invites, revokes,
 * pauses or schedules needs the `operator` role.
 */
export const launchConsole = new Hono<AppEnv>()
  .get(LAUNCH_ENDPOINT, consolePage, valid("query", NoQuery, PARAMETER), handleLaunch)
  .get(LAUNCH_PREVIEW_ENDPOINT, consolePage, valid("query", PreviewQuery, PARAMETER), (c) => handlePreview(c, c.req.valid("query").count))
  .post(
    LAUNCH_BATCHES_ENDPOINT,
    sameOrigin(FROM_CONSOLE),
    operatorRole,
    accepts([JSON_CONTENT_TYPE]),
    valid("json", BatchRequest, REASON),
    (c) => handleBatch(c, c.req.valid("json")),
  )
  .put(
    LAUNCH_SCHEDULE_ENDPOINT,
    sameOrigin(FROM_CONSOLE),
    operatorRole,
    accepts([JSON_CONTENT_TYPE]),
    valid("json", ScheduleRequest, REASON),
    (c) => handleSchedule(c, c.req.valid("json")),
  )
  .get(`${PERSON_ROUTE}/invitation`, consolePage, valid("param", PersonParams, PARAMETER), valid("query", NoQuery, PARAMETER), (c) =>
    handlePersonInvitation(c, c.req.valid("param").id),
  );

for (const action of BATCH_ACTIONS)
  launchConsole.post(
    `${LAUNCH_BATCHES_ENDPOINT}/:id/${action}`,
    sameOrigin(FROM_CONSOLE),
    operatorRole,
    accepts([JSON_CONTENT_TYPE]),
    valid("param", BatchParams, PARAMETER),
    valid("json", ActionRequest, REASON),
    (c) => handleBatchAction(c, c.req.valid("param").id, action, c.req.valid("json").reason),
  );

for (const action of PERSON_INVITATION_ACTIONS)
  launchConsole.post(
    `${PERSON_ROUTE}/${action}`,
    sameOrigin(FROM_CONSOLE),
    operatorRole,
    accepts([JSON_CONTENT_TYPE]),
    valid("param", PersonParams, PARAMETER),
    valid("json", ActionRequest, REASON),
    (c) => handlePersonAction(c, c.req.valid("param").id, action, c.req.valid("json").reason),
  );
refuseOtherMethods(launchConsole);

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
