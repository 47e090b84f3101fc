/**
 * The waitlist service's entry: the API under /api/ (fetch; wrangler.jsonc sends only /api/* to the Worker, every
 * other path is a static file of the build) and the delivery handlers. Routing only: each route is a module of its own.
 *
 * Every API answer that read D1 carries `Server-Timing: d1-rows-read;desc="<n>"`, the rows D1 read for it (the sum of
 * its statements' `meta.rows_read`, what D1 bills by); the API bench reports it. A count, never data.
 */
import { consumeDeliveries, sweepPendingDeliveries } from "./delivery/queue";
import type { ServiceEnv } from "./env";
import { notFound } from "./http";
import { handleKlaviyoConfirmed } from "./routes/klaviyo-hooks";
import { handleLeaderboard } from "./routes/leaderboard";
import { handleSignups } from "./routes/signups";
import { handleStatus } from "./routes/status";
import { meterD1, ROWS_READ_METRIC } from "./store/metered";

/** One API route: answers its own methods (405 for others). */
type Route = (request: Request, env: ServiceEnv, ctx: ExecutionContext) => Promise<Response>;

/** The API's routes: path → handler. */
const ROUTES: Record<string, Route> = {
  "/api/signups": handleSignups,
  "/api/status": handleStatus,
  "/api/leaderboard": handleLeaderboard,
  "/api/hooks/klaviyo/confirmed": handleKlaviyoConfirmed,
};

export default {
  async fetch(request, env, ctx) {
    const route = ROUTES[new URL(request.url).pathname];
    if (!route) return notFound(request);
    const meter = meterD1(env.DB);
    const response = await route(request, { ...env, DB: meter.db }, ctx);
    if (!meter.touched()) return response;
    const metered = new Response(response.body, response);
    metered.headers.append("server-timing", `${ROWS_READ_METRIC};desc="${meter.rowsRead()}"`);
    return metered;
  },

  // ── Delivery: the queue consumer (`queue`) and the pending-row sweep (`scheduled`) are wired here by worker/src/delivery. ──
  queue: (batch, env) => consumeDeliveries(batch, env),
  scheduled: (controller, env) => sweepPendingDeliveries(env, controller.scheduledTime),
} satisfies ExportedHandler<ServiceEnv>;
