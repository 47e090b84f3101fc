/**
 * The waitlist service's entry: the host rule (hosts.ts: the console and the web editor on their own hosts, the
 * console's host serving nothing else), one sub-app per capability mounted on the API, and the queue and cron handlers.
 * Every request reaches the Worker first (wrangler.jsonc: `run_worker_first: true`); on the site's host a path the
 * routes do not answer is the static build's. Every answer is sent with `nosniff`. The documents each route reads and
 * answers are shared/api's schemas (docs/api.md).
 */
import { Hono } from "hono";
import { consoleRoutes } from "./console/routes";
import { consumeDeliveries } from "./delivery/queue";
import { resumeStalledDraws } from "./draw/job";
import { consumeDrawJob, DRAW_JOB_QUEUE } from "./draw/queue";
import { drawPublic } from "./draw/routes";
import { sweepPendingDeliveries } from "./delivery/sweep";
import type { AppEnv, ServiceEnv } from "./env";
import { hooks } from "./hooks/routes";
import { hostRule } from "./hosts";
import { invitations } from "./launch/routes";
import { runLaunchSchedule } from "./launch/scheduled";
import { errorResponse, isApiPath, notFound } from "./http";
import { errorName, log, stackFrames } from "./log";
import { meterRowsRead, noSniff, servedOrigin } from "./middleware";
import { openApi } from "./openapi/routes";
import { referrals } from "./referrals/routes";
import { signups } from "./signups/routes";
import { publishTransparency } from "./transparency/report";
import { transparency } from "./transparency/routes";
import { withServedOrigin } from "./site-origin";

export const app = new Hono<AppEnv>()
  .use("*", noSniff, meterRowsRead, servedOrigin, hostRule)
  .route("/", signups)
  .route("/", referrals)
  .route("/", hooks)
  .route("/", consoleRoutes)
  .route("/", invitations)
  .route("/", drawPublic)
  .route("/", transparency)
  .route("/", openApi);

// A path of the API that no route answers is the API's 404; any other (a page, a file) is the static build's.
app.notFound((c) => (isApiPath(c.req.path) ? notFound(c.req.raw) : c.env.ASSETS.fetch(c.req.raw)));

// Any error a handler did not answer itself: a JSON:API 500, never the runtime's own page; the log gets the error's
// name and where it was thrown, not its message, which could quote the request.
app.onError((error, c) => {
  log("request_failed", { path: c.req.path, error: errorName(error), at: stackFrames(error) });
  return errorResponse([{ status: 500, code: "internal_error", detail: "The request could not be handled." }]);
});

export default {
  fetch: app.fetch,
  queue: (batch, env) => (batch.queue === DRAW_JOB_QUEUE ? consumeDrawJob(batch, env) : consumeDeliveries(batch, withServedOrigin(env))),
  // Each cron step runs whatever the one before it did: a failed sweep must not hold back the launch schedule or the
  // transparency record. A failure is logged by step, and the run still ends failed so Cloudflare shows it.
  scheduled: async (controller, env) => {
    const served = withServedOrigin(env);
    const at = controller.scheduledTime;
    const steps: [string, () => Promise<void>][] = [
      ["delivery_sweep", () => sweepPendingDeliveries(served, at)],
      ["launch_schedule", () => runLaunchSchedule(served, at)],
      ["draw_resume", () => resumeStalledDraws(env, at)],
      ["transparency", () => publishTransparency(env, at)],
    ];
    const failed: string[] = [];
    for (const [step, run] of steps) {
      try {
        await run();
      } catch (error) {
        log("cron_step_failed", { step, error: errorName(error), at: stackFrames(error) });
        failed.push(step);
      }
    }
    if (failed.length > 0) throw new Error(`cron steps failed: ${failed.join(", ")}`);
  },
} satisfies ExportedHandler<ServiceEnv>;
