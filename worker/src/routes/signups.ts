/**
 * POST /api/signups: one signup, checked, stored in D1 before the answer, then queued for delivery to Klaviyo.
 *
 * Checks, in order (each answers as soon as it fails): method (405), Origin (403), content type (415), the service's
 * configuration (503 `not_configured`), body size (413), JSON syntax (400 `invalid_json`), rate limit per client IP
 * (429 + Retry-After), honeypot (a 201-shaped answer, with a made-up standing when the program is on, nothing
 * stored), member types and bounds (400), the shared signup rules (400 with a pointer), disposable address (400
 * `disposable_email`), Turnstile (403), then store.
 *
 * A JSON request gets a JSON answer: 201 `{ id, createdAt }` for a new person, 200 with the first signup's `{ id,
 * createdAt }` for an address already on the list, or a JSON:API error document. With the referral program on, both
 * also carry the person's standing, `referralCode`, `referralUrl`, `position`, `referrals`, `entries`, and the 201
 * its `statusUrl` (the status link's token exists only in this answer and, until delivered, for the welcome e-mail;
 * only its hash is kept, so a 200 cannot repeat it and has no statusUrl: the link is in the person's e-mail).
 *
 * The referral program (content: `referrals`): every new person gets a referral code and a status token and is put
 * in line; a signup that brings a known code (`ref` in JSON; for the no-JavaScript form, which cannot carry it,
 * `ref` of the same-origin Referer's query) is linked to that first referrer, and with `countAfter: signup` the
 * referral counts in the same D1 batch as the insert. An unknown or malformed code is ignored. The no-JavaScript form
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
import { type DeliveryMessage, productionProblems, PRODUCTION, type ServiceEnv } from "../env";
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
import { REFERRAL_PARAMETER } from "../../../src/referrals/links";
import type { ServiceSettings } from "../../../src/signup/service-settings";
import { standingAnswer, type StandingAnswer } from "../referrals/answer";
import { hashStatusToken, newReferralCode, newStatusToken, REFERRAL_CODE_PATTERN } from "../referrals/codes";
import { readSettings, SettingsUnavailable } from "../settings";
import { emailKey } from "../signups/email-key";
import { fieldsFromForm, fieldsFromJson, honeypotFilled, readSignup, type SignupFields } from "../signups/input";
import { hashIp } from "../signups/ip-hash";
import { peopleInLine, positionOf } from "../store/rank";
import { insertSignup, ReferralCodeTaken, type StoredSignup } from "../store/signups";

/** Cloudflare's default siteverify, when TURNSTILE_VERIFY_URL is unset. */
const DEFAULT_TURNSTILE_VERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

/** Retry-After of a 429 (s): the rate-limit binding's period in wrangler.jsonc, after which the client's window has reset. */
const RATE_LIMIT_RETRY_AFTER_S = 60;

/** Retry-After of a 503 `unavailable` (s): D1 or the queue failing is usually over within seconds. */
const UNAVAILABLE_RETRY_AFTER_S = 5;

/**
 * Referral codes drawn for one signup at most: a draw collides about once in 200 million at a million people
 * (worker/src/referrals/codes.ts), so a third collision in a row means something else is wrong.
 */
const REFERRAL_CODE_DRAWS = 3;

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
  /** The person's standing, with the referral program on. */
  standing?: StandingAnswer;
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
    return jsonResponse(outcome.status, { id: outcome.id, createdAt: outcome.createdAt, ...outcome.standing });
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
    const decoy: Accepted = { status: 201, id: crypto.randomUUID(), createdAt: new Date().toISOString() };
    if (settings.referrals.enabled && !form) decoy.standing = await decoyStanding(env, settings);
    return decoy;
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

  const program = settings.referrals;
  const statusToken = program.enabled ? newStatusToken() : null;
  const signup = {
    id: crypto.randomUUID(),
    email: values.email,
    emailKey: emailKey(values.email),
    firstName: values.firstName,
    lastName: values.lastName,
    source: input.source ?? (settings.source || null),
    properties: input.properties,
    ipHash: ip ? await hashIp(ip, env.IP_HASH_SALT) : null,
    createdAt: new Date().toISOString(),
    statusToken: statusToken === null ? null : { token: statusToken, hash: await hashStatusToken(statusToken) },
  };
  const rules = program.enabled
    ? {
        ref: referralCodeOf(request, fields, form),
        countNow: program.countAfter === "signup",
        placesPerReferral: program.placesPerReferral,
      }
    : null;
  let stored: StoredSignup | null = null;
  try {
    for (let draw = 1; stored === null; draw += 1) {
      try {
        stored = await insertSignup(env.DB, { ...signup, referralCode: newReferralCode() }, rules);
      } catch (error) {
        if (!(error instanceof ReferralCodeTaken) || draw >= REFERRAL_CODE_DRAWS) throw error;
      }
    }
  } catch (error) {
    log("signup_store_failed", { reason: error instanceof Error ? error.message : "unknown" });
    return unavailable();
  }
  log("signup_stored", { id: stored.id, created: stored.created, referralCounted: stored.creditedReferrerId !== null });

  // The row is stored and stays `pending` if this fails: the delivery sweep (scheduled) queues pending rows again. A
  // lost update of the referrer's profile properties is made good by their next one.
  const messages: MessageSendRequest<DeliveryMessage>[] = [];
  if (stored.created) messages.push({ body: { signupId: stored.id } });
  if (stored.creditedReferrerId) messages.push({ body: { signupId: stored.creditedReferrerId, kind: "profile" } });
  if (messages.length > 0) {
    try {
      await env.DELIVERY.sendBatch(messages);
    } catch (error) {
      log("signup_enqueue_failed", { id: stored.id, reason: error instanceof Error ? error.message : "unknown" });
    }
  }

  const accepted: Accepted = { status: stored.created ? 201 : 200, id: stored.id, createdAt: stored.createdAt };
  // The form's answer is a redirect that carries no standing, so its position is not read.
  if (program.enabled && stored.referralCode !== null && !form) {
    accepted.standing = await standingOf(env, settings, stored, stored.created ? statusToken : null);
  }
  return accepted;
}

/**
 * The standing of a honeypot's made-up answer, shaped as a newcomer's: a fresh referral code and status link that no
 * row holds, zero referrals and the place a newcomer would take (last: their score is the newest sequence number).
 * With the referral program on every real 201 carries a standing, so an answer without one would tell a bot that it
 * was caught. Reads one row; undefined when it cannot be read, as a real answer is then without its standing too.
 */
async function decoyStanding(env: ServiceEnv, settings: ServiceSettings): Promise<StandingAnswer | undefined> {
  try {
    const position = (await peopleInLine(env.DB)) + 1;
    return standingAnswer(settings, { referralCode: newReferralCode(), referrals: 0 }, position, newStatusToken());
  } catch (error) {
    log("signup_standing_unread", { id: "honeypot", reason: error instanceof Error ? error.name : "unknown" });
    return undefined;
  }
}

/**
 * The standing members of a signup's answer; undefined when the position cannot be read (the signup is stored all
 * the same, so the answer is still a success, without them: the page then points to the e-mail).
 */
async function standingOf(
  env: ServiceEnv,
  settings: ServiceSettings,
  stored: StoredSignup,
  statusToken: string | null,
): Promise<StandingAnswer | undefined> {
  try {
    const position = await positionOf(env.DB, stored.id);
    if (!position || stored.referralCode === null) return undefined;
    return standingAnswer(settings, { referralCode: stored.referralCode, referrals: stored.referrals }, position.position, statusToken);
  } catch (error) {
    log("signup_standing_unread", { id: stored.id, reason: error instanceof Error ? error.name : "unknown" });
    return undefined;
  }
}

/**
 * The referral code a signup brings, or null: JSON's `ref`; the form's `ref` field, or when it has none the `ref` of
 * the Referer's query when the Referer is a page of this origin (a friend's link, `/?ref=CODE`, is the page the
 * no-JavaScript form was posted from). Only a well-formed code (REFERRAL_CODE_PATTERN); anything else is ignored, as
 * an unknown code is.
 */
function referralCodeOf(request: Request, fields: SignupFields, form: boolean): string | null {
  let code: unknown = fields[REFERRAL_PARAMETER];
  if (form && (typeof code !== "string" || code.trim() === "")) {
    try {
      const referer = new URL(request.headers.get("referer") ?? "");
      if (referer.origin === new URL(request.url).origin) code = referer.searchParams.get(REFERRAL_PARAMETER);
    } catch {
      code = null;
    }
  }
  if (typeof code !== "string") return null;
  const trimmed = code.trim();
  return REFERRAL_CODE_PATTERN.test(trimmed) ? trimmed : null;
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
  try {
    const settings = await readSettings(env.ASSETS);
    const problems: string[] = productionProblems(env, settings);
    if (env.ENVIRONMENT === PRODUCTION && !settings.turnstileSiteKey) problems.push("turnstileSiteKey");
    return problems;
  } catch (error) {
    if (!(error instanceof SettingsUnavailable)) throw error;
    // The file's own complaint (what is missing or malformed), for the operator; it holds no personal data.
    return [...productionProblems(env, null), `service-settings.json (${error.message})`];
  }
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
