/**
 * The service's rate limits (wrangler.jsonc `ratelimits`, one binding per kind of request): each counts per client
 * network (ip-hash.ts: networkKey) in a window of its own, and every limited request gets the one answer here, 429
 * `rate_limited` with `Retry-After`. docs/api.md: Rate limits.
 */
import type { ServiceEnv } from "./env";
import { type ApiError, errorResponse } from "./http";
import { networkKey } from "./ip-hash";
import { log } from "./log";
import { type Limiter, RATE_LIMITS } from "./limits";

/** The key of a request without CF-Connecting-IP (Cloudflare sets it on every request; only a test may lack it). */
const NO_ADDRESS_KEY = "unknown";

/** The client network a request counts against: networkKey of CF-Connecting-IP. */
export function clientNetwork(request: Request): string {
  const ip = request.headers.get("cf-connecting-ip");
  return ip ? networkKey(ip) : NO_ADDRESS_KEY;
}

/** Count the request against `limiter` for its client network: false once the network is over the limit. */
export async function withinLimit(env: ServiceEnv, limiter: Limiter, request: Request): Promise<boolean> {
  const { success } = await env[limiter].limit({ key: clientNetwork(request) });
  if (!success) log("rate_limited", { limiter });
  return success;
}

/**
 * The 429 of `limiter`: the JSON:API error and its `Retry-After` (s), for a route that answers it in its own way (the
 * signup form's redirect).
 * @param detail what was limited, for a developer (a visitor's words come from content/site.yaml)
 */
export function rateLimitedError(limiter: Limiter, detail: string): { error: ApiError; headers: Record<string, string> } {
  return {
    error: { status: 429, code: "rate_limited", detail: `${detail} Try again in ${RATE_LIMITS[limiter].periodS} seconds.` },
    headers: { "retry-after": String(RATE_LIMITS[limiter].periodS) },
  };
}

/** The 429 answer of `limiter` (rateLimitedError as a JSON:API error document). */
export function rateLimited(limiter: Limiter, detail: string): Response {
  const { error, headers } = rateLimitedError(limiter, detail);
  return errorResponse([error], headers);
}
