/**
 * The referral program's routes, which exist only while it runs (`referrals.enabled`; 404 otherwise): a person's
 * status and leaderboard choice, by their status token, and the public leaderboard.
 */
import { Hono } from "hono";
import { LeaderboardChoice } from "../../../shared/api/referrals";
import { JSON_CONTENT_TYPE, LEADERBOARD_ENDPOINT, STATUS_ENDPOINT, STATUS_LEADERBOARD_ENDPOINT } from "../../../shared/contract";
import type { AppEnv } from "../env";
import { accepts, programOn, refuseOtherMethods, sameOrigin, withSettings } from "../middleware";
import { valid } from "../validate";
import { handleLeaderboard } from "./leaderboard";
import { handleLeaderboardChoice, handleStatus, statusTokenHolder } from "./status";

export const referrals = refuseOtherMethods(
  new Hono<AppEnv>()
    .get(
      STATUS_ENDPOINT,
      sameOrigin("The status is read only from the site's own pages."),
      withSettings,
      programOn,
      statusTokenHolder,
      handleStatus,
    )
    .put(
      STATUS_LEADERBOARD_ENDPOINT,
      sameOrigin("The leaderboard choice is made only from the site's own status page."),
      accepts([JSON_CONTENT_TYPE]),
      withSettings,
      programOn,
      statusTokenHolder,
      valid("json", LeaderboardChoice, { code: "invalid_type" }),
      (c) => handleLeaderboardChoice(c, c.req.valid("json")),
    )
    .get(
      LEADERBOARD_ENDPOINT,
      sameOrigin("The leaderboard is read only from the site's own pages."),
      withSettings,
      programOn,
      handleLeaderboard,
    ),
);
