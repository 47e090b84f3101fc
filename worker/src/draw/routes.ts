/**
 * The giveaway draw's console route: closing a draw (commit.ts). Mounted by the console's routes, behind its Access
 * check like every console route.
 */
import { Hono } from "hono";
import { CommitRequest } from "../../../shared/api/draw";
import { JSON_CONTENT_TYPE } from "../../../shared/contract";
import { DRAW_COMMIT_ENDPOINT } from "../../../shared/giveaway/commit";
import type { AppEnv } from "../env";
import { accepts, refuseOtherMethods, sameOrigin } from "../middleware";
import { valid } from "../validate";
import { handleDrawCommit } from "./commit";

export const draw = refuseOtherMethods(
  new Hono<AppEnv>().post(
    DRAW_COMMIT_ENDPOINT,
    sameOrigin("A draw is committed only from the console's own page."),
    accepts([JSON_CONTENT_TYPE]),
    valid("json", CommitRequest, { code: "invalid_type" }),
    (c) => handleDrawCommit(c, c.req.valid("json")),
  ),
);
