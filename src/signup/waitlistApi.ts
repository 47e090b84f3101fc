/**
 * The service's `POST /api/signups` call and its answer. answer.ts reads the JSON:API errors it shares
 * with Klaviyo; what is the service's own is read here: Turnstile's refusal. An accepted signup's answer says
 * nothing about the person (their standing reaches only their inbox), so nothing of it is read.
 */
import { jsonApiErrors } from "../api/errors";
import { readProviderAnswer, type ProviderAnswer } from "./answer";
import { JSON_CONTENT_TYPE, TURNSTILE_FAILED_CODE } from "../../shared/contract";
import type { Submission } from "./submission";
import type { SignupRequest } from "../../shared/api/signups";

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
 * The outcome of one service answer: answer.ts's outcomes, plus `verificationRefused` (403 `turnstile_failed`:
 * Turnstile did not verify the visitor; never retried with the same token).
 */
export type WaitlistAnswer = ProviderAnswer | { outcome: "verificationRefused"; detail: string };

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
  return readProviderAnswer(status, body, retryAfter, nowMs);
}
