/**
 * The service's `POST /api/signups` call and its answer. answer.ts reads the JSON:API errors it shares
 * with Klaviyo; what is the service's own is read here: the accepted signup, Turnstile's refusal.
 */
import { jsonApiErrors, readProviderAnswer, type ProviderAnswer } from "./answer";
import { JSON_CONTENT_TYPE, TURNSTILE_FAILED_CODE, type SignupAnswer, type SignupRequest } from "../../shared/contract";
import type { Submission } from "./submission";

/** What the request needs besides the visitor's values. */
export interface WaitlistApiTarget {
  /** The service's endpoint: the path `/api/signups` on the page's own origin (or a test's absolute override). */
  endpointUrl: string;
  /** Klaviyo's "custom source" of this page (the campaign's, or the site's); left out when empty, and the service uses its default. */
  customSource?: string | null;
}

/** The request body for one signup. */
export function waitlistApiBody(target: Pick<WaitlistApiTarget, "customSource">, submission: Submission): SignupRequest {
  return {
    email: submission.email,
    firstName: submission.firstName,
    lastName: submission.lastName,
    ...(target.customSource ? { source: target.customSource } : {}),
    properties: submission.properties ?? {},
    ...(submission.turnstileToken ? { turnstileToken: submission.turnstileToken } : {}),
    ...(submission.referralCode ? { ref: submission.referralCode } : {}),
  };
}

/**
 * URL and fetch options of the service call. Same origin: no CORS, and every header (`Retry-After` among
 * them) is readable. The honeypot (`website`) is never sent: the form stops a filled one before any request.
 * @returns `[url, init]` for fetch (without an abort signal)
 */
export function waitlistApiRequest(target: WaitlistApiTarget, submission: Submission): [string, RequestInit] {
  return [
    target.endpointUrl,
    {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": JSON_CONTENT_TYPE, accept: "application/json" },
      body: JSON.stringify(waitlistApiBody(target, submission)),
    },
  ];
}

/**
 * The outcome of one service answer: answer.ts's outcomes, with the accepted signup's details, plus
 * `verificationRefused` (403 `turnstile_failed`: Turnstile did not verify the visitor; never retried with the same token).
 */
export type WaitlistAnswer =
  | Exclude<ProviderAnswer, { outcome: "accepted" }>
  | { outcome: "accepted"; answer?: SignupAnswer }
  | { outcome: "verificationRefused"; detail: string };

const isString = (value: unknown): value is string => typeof value === "string";
const isCount = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/**
 * An accepted signup's body as a SignupAnswer: `id` and `createdAt` must be text; every other member is kept only
 * when it has its type (a member of another type is left out, never trusted).
 * @returns undefined when the body is not an object with a text `id` and `createdAt`
 */
export function signupAnswer(body: unknown): SignupAnswer | undefined {
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const value = body as Record<string, unknown>;
  if (!isString(value.id) || !isString(value.createdAt)) return undefined;
  const answer: SignupAnswer = { id: value.id, createdAt: value.createdAt };
  for (const key of ["referralCode", "referralUrl", "statusUrl"] as const) if (isString(value[key])) answer[key] = value[key];
  for (const key of ["position", "referrals", "entries"] as const) if (isCount(value[key])) answer[key] = value[key];
  return answer;
}

/**
 * Read one answer of the service.
 * @param body parsed JSON, or null when it is empty or not JSON
 * @param nowMs ms since the epoch, for an HTTP-date `Retry-After`
 */
export function readWaitlistAnswer(status: number, body: unknown, retryAfter: string | null, nowMs = Date.now()): WaitlistAnswer {
  if (status === 403) {
    const refusal = jsonApiErrors(body).find((error) => error.code === TURNSTILE_FAILED_CODE);
    if (refusal) return { outcome: "verificationRefused", detail: refusal.detail || TURNSTILE_FAILED_CODE };
  }
  const answer = readProviderAnswer(status, body, retryAfter, nowMs);
  return answer.outcome === "accepted" ? { outcome: "accepted", answer: signupAnswer(body) } : answer;
}
