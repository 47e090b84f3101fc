/**
 * The rate-limiting bindings of wrangler.jsonc and their sizes, as the Worker (rate-limit.ts) and the tests read them.
 * A module of plain values, so that the scripts' unit test can hold them to wrangler.jsonc.
 */

/** The rate-limiting bindings of wrangler.jsonc. */
export type Limiter = "SIGNUP_LIMITER" | "STATUS_LIMITER" | "DRAW_FILES_LIMITER" | "CHECKIN_LIMITER";

/**
 * Each binding's `simple` settings in wrangler.jsonc, which a unit test holds equal: `limit` requests per window per
 * client network, and the window (s; 10 or 60, all Cloudflare takes), after which a limited client's count has reset
 * and which its 429 names as Retry-After. wrangler.jsonc says why each is the size it is.
 */
export const RATE_LIMITS: Record<Limiter, { limit: number; periodS: 10 | 60 }> = {
  SIGNUP_LIMITER: { limit: 60, periodS: 60 },
  STATUS_LIMITER: { limit: 120, periodS: 60 },
  DRAW_FILES_LIMITER: { limit: 240, periodS: 60 },
  CHECKIN_LIMITER: { limit: 100, periodS: 10 },
};
