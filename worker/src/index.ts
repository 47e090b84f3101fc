/**
 * The waitlist service's entry: the API's route table and the queue and cron handlers. Only /api/* reaches the
 * Worker (wrangler.jsonc); every other path is a static file of the build.
 */
import { Hono } from "hono";
import { CONSOLE_DASHBOARD_ENDPOINT } from "../../shared/console";
import {
  FORM_CONTENT_TYPE,
  JSON_CONTENT_TYPE,
  LEADERBOARD_ENDPOINT,
  SIGNUPS_ENDPOINT,
  STATUS_ENDPOINT,
  STATUS_LEADERBOARD_ENDPOINT,
} from "../../shared/contract";
import { handleDashboard } from "./console/dashboard";
import { consumeDeliveries } from "./delivery/queue";
import { sweepPendingDeliveries } from "./delivery/sweep";
import type { AppEnv, ServiceEnv } from "./env";
import { errorResponse, notFound } from "./http";
import { errorName, log, stackFrames } from "./log";
import { accepts, meterRowsRead, onlyMethods, programOn, sameOrigin, servedOrigin, withSettings } from "./middleware";
import { CONFIRMATION_WEBHOOK_PATH } from "./referrals/klaviyo-webhook";
import { handleKlaviyoConfirmed, webhookSecret } from "./routes/klaviyo-hooks";
import { handleLeaderboard } from "./routes/leaderboard";
import { handleSignup } from "./routes/signups";
import { handleLeaderboardChoice, handleStatus } from "./routes/status";
import { withServedOrigin } from "./site-origin";

export const app = new Hono<AppEnv>();

app.use("*", meterRowsRead);
app.use("*", servedOrigin);

app.post(
  SIGNUPS_ENDPOINT,
  sameOrigin("Signups are taken only from the site's own pages."),
  accepts([JSON_CONTENT_TYPE, FORM_CONTENT_TYPE]),
  handleSignup,
);
app.all(SIGNUPS_ENDPOINT, onlyMethods(["POST"]));

app.get(STATUS_ENDPOINT, sameOrigin("The status is read only from the site's own pages."), withSettings, programOn, handleStatus);
app.all(STATUS_ENDPOINT, onlyMethods(["GET"]));

app.put(
  STATUS_LEADERBOARD_ENDPOINT,
  sameOrigin("The leaderboard choice is made only from the site's own status page."),
  accepts([JSON_CONTENT_TYPE]),
  withSettings,
  programOn,
  handleLeaderboardChoice,
);
app.all(STATUS_LEADERBOARD_ENDPOINT, onlyMethods(["PUT"]));

app.get(
  LEADERBOARD_ENDPOINT,
  sameOrigin("The leaderboard is read only from the site's own pages."),
  withSettings,
  programOn,
  handleLeaderboard,
);
app.all(LEADERBOARD_ENDPOINT, onlyMethods(["GET"]));

app.post(CONFIRMATION_WEBHOOK_PATH, webhookSecret, accepts([JSON_CONTENT_TYPE], { orNone: true }), withSettings, handleKlaviyoConfirmed);
app.all(CONFIRMATION_WEBHOOK_PATH, onlyMethods(["POST"]));

app.get(CONSOLE_DASHBOARD_ENDPOINT, withSettings, handleDashboard);
app.all(CONSOLE_DASHBOARD_ENDPOINT, onlyMethods(["GET"]));

app.notFound((c) => notFound(c.req.raw));

// Any error a handler did not answer itself: a JSON:API 500, never the runtime's own page; the log gets the error's
// name and where it was thrown, not its message, which could quote the request.
app.onError((error, c) => {
  log("request_failed", { path: c.req.path, error: errorName(error), at: stackFrames(error) });
  return errorResponse([{ status: 500, code: "internal_error", detail: "The request could not be handled." }]);
});

export default {
  fetch: app.fetch,
  queue: (batch, env) => consumeDeliveries(batch, withServedOrigin(env)),
  scheduled: (controller, env) => sweepPendingDeliveries(withServedOrigin(env), controller.scheduledTime),
} satisfies ExportedHandler<ServiceEnv>;
