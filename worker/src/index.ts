/**
 * The waitlist service's entry: the API's route table and the queue and cron handlers. Only /api/* reaches the
 * Worker (wrangler.jsonc); every other path is a static file of the build.
 */
import { Hono } from "hono";
import {
  FORM_CONTENT_TYPE,
  JSON_CONTENT_TYPE,
  LEADERBOARD_ENDPOINT,
  SIGNUPS_ENDPOINT,
  STATUS_ENDPOINT,
  STATUS_LEADERBOARD_ENDPOINT,
} from "../../shared/contract";
import {
  CONSOLE_API,
  CONSOLE_AUDIT_ENDPOINT,
  CONSOLE_DASHBOARD_ENDPOINT,
  CONSOLE_PEOPLE_ENDPOINT,
  CONSOLE_REVIEW_ENDPOINT,
  CONSOLE_SESSION_ENDPOINT,
  PERSON_ACTIONS,
} from "../../shared/console";
import { consoleAccess } from "./console/access";
import { handleAction } from "./console/actions";
import { handleAudit } from "./console/audit";
import { handlePeopleSearch, handlePerson, handlePersonExport, handleSession } from "./console/people";
import { handleDashboard } from "./console/dashboard";
import { handleReview } from "./console/review";
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

// The operator's console: Access is checked before any console route (and before anything is read), then settings.
app.use(`${CONSOLE_API}/*`, consoleAccess);
app.use(`${CONSOLE_API}/*`, withSettings);
app.get(CONSOLE_SESSION_ENDPOINT, handleSession);
app.all(CONSOLE_SESSION_ENDPOINT, onlyMethods(["GET"]));
app.get(CONSOLE_PEOPLE_ENDPOINT, handlePeopleSearch);
app.all(CONSOLE_PEOPLE_ENDPOINT, onlyMethods(["GET"]));
app.get(CONSOLE_REVIEW_ENDPOINT, handleReview);
app.all(CONSOLE_REVIEW_ENDPOINT, onlyMethods(["GET"]));
app.get(CONSOLE_AUDIT_ENDPOINT, handleAudit);
app.all(CONSOLE_AUDIT_ENDPOINT, onlyMethods(["GET"]));
// personEndpoint() and its kin encode the id, so the route patterns are written out here.
const PERSON_ROUTE = `${CONSOLE_PEOPLE_ENDPOINT}/:id`;
app.get(PERSON_ROUTE, handlePerson);
app.all(PERSON_ROUTE, onlyMethods(["GET"]));
app.get(`${PERSON_ROUTE}/export`, handlePersonExport);
app.all(`${PERSON_ROUTE}/export`, onlyMethods(["GET"]));
for (const action of PERSON_ACTIONS) {
  const path = `${PERSON_ROUTE}/${action}`;
  // Same origin and JSON only: a page elsewhere cannot make an operator's browser (its Access cookie) act.
  app.post(
    path,
    sameOrigin("Console actions are taken only from the console's own page."),
    accepts([JSON_CONTENT_TYPE]),
    handleAction(action),
  );
  app.all(path, onlyMethods(["POST"]));
}
app.get(CONSOLE_DASHBOARD_ENDPOINT, handleDashboard);
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
