/**
 * Answers and request readings the referral routes share (status, leaderboard, the Klaviyo webhook).
 */
import { errorResponse } from "../http";

/** 404 for the referral program's routes while `referrals.enabled` is false: they do not exist then. */
export function programOff(request: Request): Response {
  return errorResponse([
    { status: 404, code: "not_found", detail: `No API at ${new URL(request.url).pathname}: the referral program is off.` },
  ]);
}

/** 503 `not_configured`: the build has no (valid) service-settings.json. */
export function notConfigured(): Response {
  return errorResponse([
    { status: 503, code: "not_configured", detail: "The waitlist service is not configured; its operator has been told by the log." },
  ]);
}

/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750; the scheme case-insensitive), or null.
 */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1] : null;
}
