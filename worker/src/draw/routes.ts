/**
 * The giveaway draw's console routes: closing a draw (commit.ts) and recording its result (run.ts). Mounted by the console's routes, behind its Access
 * check like every console route.
 */
import { Hono } from "hono";
import { CommitRequest, DrawnFile } from "../../../shared/api/draw";
import { JSON_CONTENT_TYPE } from "../../../shared/contract";
import { DRAW_COMMIT_ENDPOINT, DRAW_RUN_ENDPOINT } from "../../../shared/giveaway/commit";
import { operatorRole } from "../console/access";
import type { AppEnv } from "../env";
import { accepts, refuseOtherMethods, sameOrigin } from "../middleware";
import { valid } from "../validate";
import { handleDrawCommit } from "./commit";
import { handleDrawRun } from "./run";

export const draw = refuseOtherMethods(
  new Hono<AppEnv>()
    .post(
      DRAW_COMMIT_ENDPOINT,
      sameOrigin("A draw is committed only from the console's own page."),
      operatorRole,
      accepts([JSON_CONTENT_TYPE]),
      valid("json", CommitRequest, { code: "invalid_type" }),
      (c) => handleDrawCommit(c, c.req.valid("json")),
    )
    .post(
      DRAW_RUN_ENDPOINT,
      sameOrigin("A draw's result is recorded only from the console's own clients."),
      operatorRole,
      accepts([JSON_CONTENT_TYPE]),
      valid("json", DrawnFile, { code: "invalid_type" }),
      (c) => handleDrawRun(c, c.req.valid("json")),
    ),
);
