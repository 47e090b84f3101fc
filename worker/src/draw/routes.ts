/**
 * The giveaway draw's routes: the console's (commit.ts, run.ts), mounted by the console's routes behind its Access check
 * like every console route (committing and running need the `operator` role); and the public ones (public.ts): the published files and a person's place, by their
 * status token.
 */
import { Hono } from "hono";
import { CommitRequest } from "../../../shared/api/draw";
import { JSON_CONTENT_TYPE } from "../../../shared/contract";
import { DRAW_COMMIT_ENDPOINT, DRAW_RUN_ENDPOINT, DRAW_STATE_ENDPOINT, STATUS_DRAW_ENDPOINT } from "../../../shared/giveaway/commit";
import { consolePage, operatorRole } from "../console/access";
import type { AppEnv } from "../env";
import { accepts, refuseOtherMethods, sameOrigin, withSettings } from "../middleware";
import { statusTokenHolder } from "../referrals/status";
import { valid } from "../validate";
import { handleDrawCommit, handleDrawState } from "./commit";
import { handleDrawPlace, handlePublished } from "./public";
import { handleDrawRun } from "./run";

export const draw = refuseOtherMethods(
  new Hono<AppEnv>()
    .get(DRAW_STATE_ENDPOINT, consolePage, handleDrawState)
    .post(
      DRAW_COMMIT_ENDPOINT,
      sameOrigin("A draw is committed only from the console's own page."),
      operatorRole,
      accepts([JSON_CONTENT_TYPE]),
      valid("json", CommitRequest, { code: "invalid_type" }),
      (c) => handleDrawCommit(c, c.req.valid("json")),
    )
    .post(DRAW_RUN_ENDPOINT, sameOrigin("A draw is run only from the console's own page."), operatorRole, handleDrawRun),
);

/** The published draw's files (every other /giveaway/draw/ path is the static build's) and a person's place. */
export const drawPublic = refuseOtherMethods(
  new Hono<AppEnv>().get(
    STATUS_DRAW_ENDPOINT,
    sameOrigin("Your place in the draw is read only from the site's own pages."),
    withSettings,
    statusTokenHolder,
    handleDrawPlace,
  ),
).on(["GET", "HEAD"], "/giveaway/draw/*", handlePublished);
