/**
 * POST /api/signups: one signup, checked, stored in D1 before the answer, then queued for delivery to Klaviyo.
 *
 * Checks, in order (each answers as soon as it fails): method (405), Origin (403), content type (415), the service's
 * configuration (503 `not_configured`), body size (413), JSON syntax (400 `invalid_json`), rate limit per client IP
 * (429 + Retry-After), honeypot (a 201-shaped answer, nothing stored), member types and bounds (400), the shared
 * signup rules (400 with a pointer), disposable address (400 `disposable_email`), Turnstile (403), then store.
 *
 * A JSON request gets a JSON answer: 201 `{ id, createdAt }` for a new person, 200 with the first signup's `{ id,
 * createdAt }` for an address already on the list, or a JSON:API error document. The no-JavaScript form
 * (`application/x-www-form-urlencoded`) gets 303 See Other: to the success page, or back to the form's `page` with
 * `#signup-error-<key>`, the anchor of the message the static page carries for that failure.
 */
import { HOME_PATH, SUCCESS_PATH } from "../../../src/routes";
import { FORM_ERROR_ANCHOR_PREFIX, type FormErrorKey } from "../../../src/signup/formErrors";
import {
  fieldTooLong,
  firstValidationFailure,
  trimSubmission,
  type SignupField,
  type ValidationFailure,
} from "../../../src/signup/validation";
import { isDisposableAddress } from "../bots/disposable";
import { TurnstileUnavailable, verifyTurnstile } from "../bots/turnstile";
import { productionProblems, PRODUCTION, type ServiceEnv } from "../env";
import {
  type ApiError,
  BodyTooLarge,
  errorResponse,
  FORM_CONTENT_TYPE,
  isSameOrigin,
  JSON_CONTENT_TYPE,
  jsonResponse,
  MAX_BODY_BYTES,
  mediaType,
  methodNotAllowed,
  readBody,
  seeOther,
} from "../http";
import { readSettings, SettingsUnavailable } from "../settings";
import { emailKey } from "../signups/email-key";
import { fieldsFromForm, fieldsFromJson, honeypotFilled, readSignup } from "../signups/input";
import { hashIp } from "../signups/ip-hash";
import { insertSignup } from "../store/signups";

/** Cloudflare's default siteverify, when TURNSTILE_VERIFY_URL is unset. */
const DEFAULT_TURNSTILE_VERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

/** Retry-After of a 429 (s): the rate-limit binding's period in wrangler.jsonc, after which the client's window has reset. */
const RATE_LIMIT_RETRY_AFTER_S = 60;

/** Retry-After of a 503 `unavailable` (s): D1 or the queue failing is usually over within seconds. */
const UNAVAILABLE_RETRY_AFTER_S = 5;

/** A failed signup: the JSON:API error, what the form's page shows for it, and extra headers. */
interface Refusal {
  error: ApiError;
  formError: FormErrorKey;
  headers?: Record<string, string>;
}

/** A signup that succeeded, or looked as if it did (the honeypot). */
interface Accepted {
  status: 200 | 201;
  id: string;
  createdAt: string;
}

/** The JSON:API answer of each shared validation failure. */
const VALIDATION_ERRORS: Record<ValidationFailure, Omit<ApiError, "status">> = {
  emailRequired: { code: "email_required", detail: "email is required.", pointer: "/email" },
  firstNameRequired: { code: "first_name_required", detail: "firstName is required.", pointer: "/firstName" },
  lastNameRequired: { code: "last_name_required", detail: "lastName is required.", pointer: "/lastName" },
  invalidEmail: { code: "invalid_email", detail: "email is not an e-mail address.", pointer: "/email" },
};

/**
 * What the form's page shows for a field over its length limit. The page's inputs carry `maxlength`, so only a
 * hand-made request gets here: an address that long cannot be delivered (invalid), a name that long has no message of its own.
 */
const TOO_LONG_FORM_ERRORS: Record<SignupField, FormErrorKey> = {
  email: "invalidEmail",
  firstName: "subscriptionFailed",
  lastName: "subscriptionFailed",
};

const refusal = (
  status: number,
  code: string,
  detail: string,
  formError: FormErrorKey,
  extra: Partial<Refusal> & { pointer?: string } = {},
) => ({
  error: { status, code, detail, ...(extra.pointer === undefined ? {} : { pointer: extra.pointer }) },
  formError,
  headers: extra.headers,
});

/** One line of the Worker's log: an event and ids or codes, never an address or a name. */
function log(event: string, fields: Record<string, string | number | boolean>): void {
  console.log(JSON.stringify({ event, ...fields }));
}

/** An error's stack without its first line (the message), for the log. */
function stackFrames(error: unknown): string {
  return error instanceof Error && error.stack ? error.stack.split("\n").slice(1, 6).join(" | ").trim() : "";
}

/**
 * Answer POST /api/signups (other methods: 405).
 * @param request the visitor's request
 * @param env bindings, vars and secrets
 */
export async function handleSignups(request: Request, env: ServiceEnv): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed(request, ["POST"]);
  if (!isSameOrigin(request))
    return errorResponse([{ status: 403, code: "origin_not_allowed", detail: "Signups are taken only from the site's own pages." }]);
  const type = mediaType(request);
  if (type !== JSON_CONTENT_TYPE && type !== FORM_CONTENT_TYPE)
    return errorResponse([{ status: 415, code: "unsupported_media_type", detail: `Send ${JSON_CONTENT_TYPE} or ${FORM_CONTENT_TYPE}.` }], {
      "accept-post": `${JSON_CONTENT_TYPE}, ${FORM_CONTENT_TYPE}`,
    });
  const form = type === FORM_CONTENT_TYPE;
  const page = { path: HOME_PATH };
  let outcome: Accepted | Refusal;
  try {
    outcome = await signUp(request, env, form, page);
  } catch (error) {
    // The name and where it was thrown; not the message, which can quote the request (and so an address).
    log("signup_failed", { error: error instanceof Error ? error.name : typeof error, at: stackFrames(error) });
    outcome = refusal(500, "internal_error", "The signup could not be handled.", "subscriptionFailed");
  }
  if ("id" in outcome) {
    if (form) return seeOther(request, SUCCESS_PATH);
    return jsonResponse(outcome.status, { id: outcome.id, createdAt: outcome.createdAt });
  }
  if (form) return seeOther(request, `${page.path}#${FORM_ERROR_ANCHOR_PREFIX}${outcome.formError}`);
  return errorResponse([outcome.error], outcome.headers);
}

/**
 * Every check after the content type, then store and enqueue.
 * @param page receives the form's `page` (a same-origin path) once the body is read, for the redirect
 */
async function signUp(request: Request, env: ServiceEnv, form: boolean, page: { path: string }): Promise<Accepted | Refusal> {
  const notConfigured = await configurationProblems(env);
  if (notConfigured.length > 0) {
    log("signup_not_configured", { missing: notConfigured.join(" ") });
    return refusal(
      503,
      "not_configured",
      "The waitlist service is not configured; its operator has been told by the log.",
      "subscriptionFailed",
    );
  }
  const settings = await readSettings(env.ASSETS);

  let body: string;
  try {
    body = await readBody(request);
  } catch (error) {
    if (error instanceof BodyTooLarge)
      return refusal(413, "body_too_large", `The body may be at most ${MAX_BODY_BYTES} bytes.`, "subscriptionFailed");
    throw error;
  }
  let fields;
  if (form) {
    fields = fieldsFromForm(body);
    page.path = sameOriginPath(request, fields.page);
  } else {
    const parsed = fieldsFromJson(body);
    if (!parsed.ok) return { error: parsed.error, formError: "subscriptionFailed" };
    fields = parsed.value;
  }

  const ip = request.headers.get("cf-connecting-ip");
  const { success: withinLimit } = await env.SIGNUP_LIMITER.limit({ key: ip ?? "unknown" });
  if (!withinLimit) {
    log("signup_rate_limited", {});
    return refusal(429, "rate_limited", "Too many signups from this address; try again in a minute.", "subscriptionFailed", {
      headers: { "retry-after": String(RATE_LIMIT_RETRY_AFTER_S) },
    });
  }

  // A bot filled the field people never see: answer as if it worked, so it learns nothing, and store nothing.
  if (honeypotFilled(fields)) {
    log("signup_honeypot", {});
    return { status: 201, id: crypto.randomUUID(), createdAt: new Date().toISOString() };
  }

  const read = readSignup(fields);
  if (!read.ok) return { error: read.error, formError: "subscriptionFailed" };
  const input = read.value;
  const values = trimSubmission(input);
  const failure = firstValidationFailure(values);
  if (failure) return { error: { status: 400, ...VALIDATION_ERRORS[failure] }, formError: failure };
  const tooLong = fieldTooLong(values);
  if (tooLong) return refusal(400, "too_long", `${tooLong} is too long.`, TOO_LONG_FORM_ERRORS[tooLong], { pointer: `/${tooLong}` });
  if (isDisposableAddress(values.email))
    return refusal(400, "disposable_email", "Disposable e-mail addresses cannot join the waitlist.", "invalidEmail", { pointer: "/email" });

  if (env.TURNSTILE_SECRET_KEY) {
    try {
      const verdict = await verifyTurnstile({
        verifyUrl: env.TURNSTILE_VERIFY_URL || DEFAULT_TURNSTILE_VERIFY_URL,
        secret: env.TURNSTILE_SECRET_KEY,
        token: input.turnstileToken,
        remoteIp: ip,
      });
      if (!verdict.success) {
        log("signup_turnstile_failed", { errorCodes: verdict.errorCodes.join(" ") });
        return refusal(
          403,
          "turnstile_failed",
          `Turnstile refused the request (${verdict.errorCodes.join(", ") || "no reason given"}).`,
          "verificationFailed",
        );
      }
    } catch (error) {
      if (!(error instanceof TurnstileUnavailable)) throw error;
      log("signup_turnstile_unavailable", { reason: error.message });
      return unavailable();
    }
  }

  let stored;
  try {
    stored = await insertSignup(env.DB, {
      id: crypto.randomUUID(),
      email: values.email,
      emailKey: emailKey(values.email),
      firstName: values.firstName,
      lastName: values.lastName,
      source: input.source ?? (settings.source || null),
      properties: input.properties,
      ipHash: ip ? await hashIp(ip, env.IP_HASH_SALT) : null,
      createdAt: new Date().toISOString(),
    });
  } catch (error) {
    log("signup_store_failed", { reason: error instanceof Error ? error.message : "unknown" });
    return unavailable();
  }
  log("signup_stored", { id: stored.id, created: stored.created });

  if (stored.created) {
    // The row is stored and stays `pending` if this fails: the delivery sweep (scheduled) queues pending rows again.
    try {
      await env.DELIVERY.send({ signupId: stored.id });
    } catch (error) {
      log("signup_enqueue_failed", { id: stored.id, reason: error instanceof Error ? error.message : "unknown" });
    }
  }
  return { status: stored.created ? 201 : 200, id: stored.id, createdAt: stored.createdAt };
}

/** 503 `unavailable`: D1, the queue or siteverify failed; the client may try again shortly. */
function unavailable(): Refusal {
  return refusal(503, "unavailable", "The waitlist is briefly unavailable; try again shortly.", "subscriptionFailed", {
    headers: { "retry-after": String(UNAVAILABLE_RETRY_AFTER_S) },
  });
}

/**
 * What stops the service from taking signups, for the log: missing production secrets (env.ts), a build without the
 * service's settings, and in production a page without a Turnstile widget (every signup would fail the check).
 */
async function configurationProblems(env: ServiceEnv): Promise<string[]> {
  const problems: string[] = productionProblems(env);
  try {
    const settings = await readSettings(env.ASSETS);
    if (env.ENVIRONMENT === PRODUCTION && !settings.turnstileSiteKey) problems.push("turnstileSiteKey");
  } catch (error) {
    if (!(error instanceof SettingsUnavailable)) throw error;
    problems.push("service-settings.json");
  }
  return problems;
}

/**
 * The path the form's visitor goes back to: the form's `page` when it is a path of this site, else the home page.
 * Only a path of the request's own origin, so that the service can never be made to redirect elsewhere.
 */
function sameOriginPath(request: Request, page: unknown): string {
  if (typeof page !== "string" || !page.startsWith("/") || page.startsWith("//") || page.startsWith("/\\")) return HOME_PATH;
  try {
    const target = new URL(page, request.url);
    if (target.origin !== new URL(request.url).origin) return HOME_PATH;
    return `${target.pathname}${target.search}`;
  } catch {
    return HOME_PATH;
  }
}
