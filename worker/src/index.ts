/**
 * The waitlist service's entry: the API under /api/ (fetch; wrangler.jsonc sends only /api/* to the Worker, every
 * other path is a static file of the build) and the delivery handlers. Routing only: each route is a module of its own.
 */
import { consumeDeliveries, sweepPendingDeliveries } from "./delivery/queue";
import type { ServiceEnv } from "./env";
import { notFound } from "./http";
import { handleSignups } from "./routes/signups";

/** The API's routes: path → handler (each answers its own methods, 405 for others). */
const ROUTES: Record<string, (request: Request, env: ServiceEnv) => Promise<Response>> = {
  "/api/signups": handleSignups,
};

export default {
  async fetch(request, env) {
    const route = ROUTES[new URL(request.url).pathname];
    return route ? route(request, env) : notFound(request);
  },

  // ── Delivery: the queue consumer (`queue`) and the pending-row sweep (`scheduled`) are wired here by worker/src/delivery. ──
  queue: (batch, env) => consumeDeliveries(batch, env),
  scheduled: (controller, env) => sweepPendingDeliveries(env, controller.scheduledTime),
} satisfies ExportedHandler<ServiceEnv>;
