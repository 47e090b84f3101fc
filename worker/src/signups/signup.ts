/**
 * POST /api/signups: one signup, read → screened → stored in D1 → queued for delivery → answered. docs/api.md's
 * "The waitlist service's API" lists every answer. A JSON request gets JSON (202 SIGNUP_ACCEPTED, or a JSON:API error); the
 * no-JavaScript form gets 303 See Other to the success page, or back to its page at `#signup-error-<key>`. A stranger
 * learns nothing about anyone: a newcomer, an address already on the list and a bot caught by the honeypot get the
 * very same answer, which carries no standing; a person's standing (place, referral link, status link) reaches only
 * their inbox.
 */
import type { Context, MiddlewareHandler } from "hono";
import { TURNSTILE_SIGNUP_ACTION, UTM_PARAMETERS, VALIDATION_ERROR_CODE } from "../../../shared/contract";
import { FORM_ERROR_ANCHOR_PREFIX, type FormErrorKey } from "../../../shared/form-errors";
import { canonicalAddress } from "../../../shared/email-address";
import { REFERRAL_PARAMETER } from "../../../shared/referral-links";
import { HOME_PATH, SUCCESS_PATH } from "../../../shared/routes";
import type { ServiceSettings } from "../../../shared/service-settings";
import {
  FAILURE_FIELD,
  fieldTooLong,
  firstValidationFailure,
  keptUtmValue,
  trimSubmission,
  type SignupField,
  type ValidationFailure,
} from "../../../shared/validation";
import { SIGNUP_ACCEPTED, type SignupAnswer, type SignupInput } from "../../../shared/api/signups";
import { isDisposableAddress } from "../bots/disposable";
import { TurnstileUnavailable, verifyTurnstile } from "../bots/turnstile";
import { type AppEnv, type DeliveryMessage, productionProblems, type ServiceEnv } from "../env";
import { type ApiError, errorResponse, jsonResponse, seeOther, UNAVAILABLE, UNAVAILABLE_HEADERS } from "../http";
import { errorName, log, stackFrames } from "../log";
import { rateLimitedError, withinLimit } from "../rate-limit";
import { type FairPlayLimits, fairPlayLimits } from "../referrals/fair-play";
import { hashStatusToken, newReferralCode, newStatusToken, REFERRAL_CODE_PATTERN } from "../referrals/codes";
import { readSettings, SettingsUnavailable } from "../settings";
import { personByEmailKey } from "../store/referrals";
import { honeypotFilled, isForm } from "./body";
import { emailKey } from "./email-key";
import { hashIp } from "../ip-hash";
import { insertSignup, ReferralCodeTaken, type NewSignup, type ReferralRules, type StoredSignup } from "./store";

/** Cloudflare's default siteverify, when TURNSTILE_VERIFY_URL is unset. */
const DEFAULT_TURNSTILE_VERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

/**
 * Referral codes drawn for one signup at most: a draw rarely collides (referrals/codes.ts), so a third collision in a
 * row means something else is wrong.
 */
const REFERRAL_CODE_DRAWS = 3;

/** A failed signup: the JSON:API error, what the form's page shows for it, and extra headers. */
interface Refusal {
  error: ApiError;
  formError: FormErrorKey;
  headers?: Record<string, string>;
}

/** A signup that succeeded, or looked as if it did (an address already on the list, the honeypot): one answer for all. */
type Outcome = SignupAnswer | Refusal;

/**
 * What the form's page shows for a field over its length limit; only a hand-made request gets here (the inputs carry
 * `maxlength`). An address that long cannot be delivered; a name that long has no message of its own.
 */
const TOO_LONG_FORM_ERRORS: Record<SignupField, FormErrorKey> = {
  email: "invalidEmail",
  firstName: "subscriptionFailed",
  lastName: "subscriptionFailed",
};

const refusal = (error: ApiError, formError: FormErrorKey, headers?: Record<string, string>): Refusal => ({ error, formError, headers });

const unavailable = (): Refusal => refusal(UNAVAILABLE, "subscriptionFailed", UNAVAILABLE_HEADERS);

/** What the request brought, read: its members, where the form's visitor goes back to, and who sent it. */
interface Received {
  input: SignupInput;
  /** The form's page (a same-origin path) for the redirect; HOME_PATH for JSON. */
  page: string;
  form: boolean;
  /** CF-Connecting-IP, or null. */
  ip: string | null;
}

/** A refusal as the client gets it: the JSON:API error, or for the form its page at `#signup-error-<key>`. */
function answerRefusal(c: Context<AppEnv>, { error, formError, headers }: Refusal, page = HOME_PATH): Response {
  if (isForm(c.req.raw)) return seeOther(c.req.raw, `${page}#${FORM_ERROR_ANCHOR_PREFIX}${formError}`);
  return errorResponse([error], headers);
}

/**
 * Middleware before the body is read: `c.var.settings` when the service may take signups, else 503 `not_configured`
 * (configured()).
 */
export const signupsConfigured: MiddlewareHandler<AppEnv> = async (c, next) => {
  const configuration = await configured(c.env);
  if ("error" in configuration) return answerRefusal(c, configuration);
  c.set("settings", configuration.settings);
  await next();
};

/**
 * The validator's answer to a body it refuses (validate.ts): the JSON:API error, or for the form its own page (when
 * its `page` field names one of the build's) with the generic failure. Needs signupsConfigured.
 */
export function refuseSignupBody(c: Context<AppEnv>, error: ApiError, document: unknown): Response {
  const page = (document as { page?: unknown } | undefined)?.page;
  return answerRefusal(c, refusal(error, "subscriptionFailed"), signupPagePath(c.req.raw, page, c.var.settings));
}

/** Answer POST /api/signups with its validated body; the route's middleware has checked the Origin, the media type and the configuration. */
export async function handleSignup(c: Context<AppEnv>, input: SignupInput): Promise<Response> {
  const request = c.req.raw;
  const form = isForm(request);
  const { settings } = c.var;
  const read: Received = {
    input,
    page: form ? signupPagePath(request, input.page, settings) : HOME_PATH,
    form,
    ip: request.headers.get("cf-connecting-ip"),
  };
  let outcome: Outcome;
  try {
    const limits = fairPlayLimits(c.env);
    // signupsConfigured refused invalid limits already.
    if ("invalid" in limits) throw new Error(`${limits.invalid} is invalid`);
    outcome = await signUp(request, c.env, { settings, limits }, read);
  } catch (error) {
    // The name and where it was thrown; not the message, which can quote the request (and so an address).
    log("signup_failed", { error: errorName(error), at: stackFrames(error) });
    outcome = refusal({ status: 500, code: "internal_error", detail: "The signup could not be handled." }, "subscriptionFailed");
  }
  if ("accepted" in outcome) return form ? seeOther(request, SUCCESS_PATH) : jsonResponse(202, SIGNUP_ACCEPTED);
  return answerRefusal(c, outcome, read.page);
}

/** What the service takes signups with: the build's settings and the fair-play limits. */
interface Configuration {
  settings: ServiceSettings;
  limits: FairPlayLimits;
}

/**
 * The configuration, or 503 `not_configured` when the service may not take signups: missing production secrets
 * (env.ts), a build without valid settings, a fair-play limit that is not a number, or in production a page without a
 * Turnstile widget (every signup would fail the check). The log names what is missing; the answer never does.
 */
async function configured(env: ServiceEnv): Promise<Configuration | Refusal> {
  let settings: ServiceSettings | null = null;
  let problems: string[];
  try {
    settings = await readSettings(env.ASSETS);
    problems = productionProblems(env, settings);
  } catch (error) {
    if (!(error instanceof SettingsUnavailable)) throw error;
    // The file's own complaint (what is missing or malformed); it holds no personal data.
    problems = [...productionProblems(env, null), `service-settings.json (${error.message})`];
  }
  const limits = fairPlayLimits(env);
  if ("invalid" in limits) problems.push(`${limits.invalid} (a whole number of at least 1)`);
  if (settings && !("invalid" in limits) && problems.length === 0) return { settings, limits };
  log("signup_not_configured", { missing: problems.join(" ") });
  return refusal(
    { status: 503, code: "not_configured", detail: "The waitlist service is not configured; its operator has been told by the log." },
    "subscriptionFailed",
  );
}

/**
 * Screen, store, enqueue, answer. Every accepted path costs one D1 round trip and ends in SIGNUP_ACCEPTED: a newcomer
 * and an address already on the list run the same insert batch (which inserts nothing for the second), and the
 * honeypot reads by the address's key as that batch would; so neither the answer nor its timing class tells them apart.
 */
async function signUp(request: Request, env: ServiceEnv, configuration: Configuration, read: Received): Promise<Outcome> {
  const screened = await screen(request, env, configuration.settings, read);
  if ("error" in screened) return screened;
  // A bot filled the field people never see: judged last, so only an otherwise valid request learns of it (and then
  // only that it was accepted). Nothing is stored.
  if (honeypotFilled(read.input)) {
    log("signup_honeypot");
    try {
      await personByEmailKey(env.DB, emailKey(screened.values.email));
    } catch (error) {
      log("signup_store_failed", { reason: errorName(error) });
      return unavailable();
    }
    return SIGNUP_ACCEPTED;
  }

  let stored: StoredSignup;
  try {
    stored = await store(env, configuration, request, read, screened);
  } catch (error) {
    log("signup_store_failed", { reason: errorName(error) });
    return unavailable();
  }
  log("signup_stored", {
    id: stored.id,
    created: stored.created,
    referralCounted: stored.creditedReferrerId !== null,
    noticeGranted: stored.noticeGranted,
  });
  // A newcomer's welcome carries their status link; someone already on the list is e-mailed a link of theirs, when the
  // notice was granted (once a day per person, a few a day per network); the answer is the same either way.
  await enqueue(env, stored);
  return SIGNUP_ACCEPTED;
}

/**
 * A signup that passed the screen: the checked input, its trimmed values (the address as its inbox's: NFKC, the
 * domain in ASCII without a trailing dot), and its status token (program on).
 */
interface Screened {
  input: SignupInput;
  values: { email: string; firstName: string; lastName: string };
  statusToken: string | null;
}

/**
 * The checks before anything is stored, after the validator's (member types and bounds), in order: the rate limit per
 * client network (429), the build's sources, the shared rules (400 with the field's pointer), the length limits,
 * disposable addresses, then Turnstile (403; 503 when siteverify cannot be reached).
 */
async function screen(request: Request, env: ServiceEnv, settings: ServiceSettings, { input, ip }: Received): Promise<Screened | Refusal> {
  if (!(await withinLimit(env, "SIGNUP_LIMITER", request))) {
    const { error, headers } = rateLimitedError("SIGNUP_LIMITER", "Too many signups from this network.");
    return refusal(error, "subscriptionFailed", headers);
  }

  // Only the custom sources of the build's own signup pages reach Klaviyo.
  if (input.source !== null && !settings.signupPages.some((page) => page.source === input.source))
    return refusal(
      { status: 400, code: "unknown_source", detail: "source is not one of the site's signup pages.", pointer: "/source" },
      "subscriptionFailed",
    );
  const values = trimSubmission(input);
  const failure = firstValidationFailure(values);
  if (failure) return ruleRefusal(failure);
  const tooLong = fieldTooLong(values);
  if (tooLong)
    return refusal(
      { status: 400, code: "too_long", detail: `${tooLong} is too long.`, pointer: `/${tooLong}` },
      TOO_LONG_FORM_ERRORS[tooLong],
    );
  // The shared rules accepted it, so it has an inbox; it is stored and delivered as that inbox's address.
  const address = canonicalAddress(values.email);
  if (!address.ok) return ruleRefusal("invalidEmail");
  if (isDisposableAddress(values.email))
    return refusal(
      { status: 400, code: "disposable_email", detail: "Disposable e-mail addresses cannot join the waitlist.", pointer: "/email" },
      "invalidEmail",
    );

  const turnstile = await checkTurnstile(env, input.turnstileToken, ip, new URL(settings.siteUrl).hostname);
  if (turnstile) return turnstile;
  return { input, values: { ...values, email: address.address }, statusToken: settings.referrals.enabled ? newStatusToken() : null };
}

/** A shared rule's failure: 400 with the rule's code and its field's pointer; the form's page shows the same failure. */
function ruleRefusal(failure: ValidationFailure): Refusal {
  const field = FAILURE_FIELD[failure];
  return refusal({ status: 400, code: VALIDATION_ERROR_CODE[failure], detail: ruleDetail(failure, field), pointer: `/${field}` }, failure);
}

/** The detail of a shared rule's failure: a required field, an address that is not one, or a name that is not one. */
function ruleDetail(failure: ValidationFailure, field: SignupField): string {
  if (failure === "invalidEmail") return "email is not an e-mail address.";
  if (failure === "firstNameInvalid" || failure === "lastNameInvalid") return `${field} holds a link, an @ or a hidden character.`;
  return `${field} is required.`;
}

/**
 * Turnstile's verdict when TURNSTILE_SECRET_KEY is set: null when it passed for the signup form's action on `hostname`
 * (the site's own host: the served origin's on `npm start`), else the refusal.
 */
async function checkTurnstile(env: ServiceEnv, token: string, ip: string | null, hostname: string): Promise<Refusal | null> {
  if (!env.TURNSTILE_SECRET_KEY) return null;
  try {
    const verdict = await verifyTurnstile({
      verifyUrl: env.TURNSTILE_VERIFY_URL || DEFAULT_TURNSTILE_VERIFY_URL,
      secret: env.TURNSTILE_SECRET_KEY,
      token,
      remoteIp: ip,
      expected: { hostname, action: TURNSTILE_SIGNUP_ACTION },
    });
    if (verdict.success) return null;
    log("signup_turnstile_failed", { errorCodes: verdict.errorCodes.join(" ") });
    return refusal(
      {
        status: 403,
        code: "turnstile_failed",
        detail: `Turnstile refused the request (${verdict.errorCodes.join(", ") || "no reason given"}).`,
      },
      "verificationFailed",
    );
  } catch (error) {
    if (!(error instanceof TurnstileUnavailable)) throw error;
    log("signup_turnstile_unavailable", { reason: error.message });
    return unavailable();
  }
}

/**
 * Store the signup once per person (store.ts), drawing a new referral code while the UNIQUE index refuses one.
 * @throws whatever D1 throws (the caller answers 503)
 */
async function store(
  env: ServiceEnv,
  { settings, limits }: Configuration,
  request: Request,
  read: Received,
  screened: Screened,
): Promise<StoredSignup> {
  const { input, values, statusToken } = screened;
  const program = settings.referrals;
  const signup: Omit<NewSignup, "referralCode"> = {
    id: crypto.randomUUID(),
    email: values.email,
    emailKey: emailKey(values.email),
    firstName: values.firstName,
    lastName: values.lastName,
    source: input.source ?? (settings.source || null),
    properties: keptProperties(input.properties),
    ipHash: read.ip ? await hashIp(read.ip, env.IP_HASH_SALT) : null,
    createdAt: new Date().toISOString(),
    statusToken: statusToken === null ? null : { token: statusToken, hash: await hashStatusToken(statusToken) },
  };
  const rules: ReferralRules | null = program.enabled
    ? {
        ref: referralCodeOf(request, read),
        countNow: program.countAfter === "signup",
        placesPerReferral: program.placesPerReferral,
        limits,
      }
    : null;
  for (let draw = 1; ; draw += 1) {
    try {
      return await insertSignup(env.DB, { ...signup, referralCode: newReferralCode() }, rules);
    } catch (error) {
      if (!(error instanceof ReferralCodeTaken) || draw >= REFERRAL_CODE_DRAWS) throw error;
    }
  }
}

/**
 * Queue the new row's delivery, or for someone already on the list the e-mail that tells them so (when granted), and
 * the credited referrer's profile update. The row is stored and stays `pending` if this fails: the delivery sweep queues pending
 * rows again, and a lost profile update is made good by the next one.
 */
async function enqueue(env: ServiceEnv, stored: StoredSignup): Promise<void> {
  const messages: MessageSendRequest<DeliveryMessage>[] = [];
  if (stored.created) messages.push({ body: { signupId: stored.id } });
  else if (stored.noticeGranted) messages.push({ body: { signupId: stored.id, kind: "already" } });
  if (stored.creditedReferrerId) messages.push({ body: { signupId: stored.creditedReferrerId, kind: "profile" } });
  if (messages.length === 0) return;
  try {
    await env.DELIVERY.sendBatch(messages);
  } catch (error) {
    log("signup_enqueue_failed", { id: stored.id, reason: errorName(error) });
  }
}

/** The attribution properties as stored and sent to Klaviyo: each UTM value as the shared rule keeps it (other). */
function keptProperties(properties: Record<string, string>): Record<string, string> {
  const utm: readonly string[] = UTM_PARAMETERS;
  return Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, utm.includes(name) ? keptUtmValue(value) : value]));
}

/**
 * The referral code a signup brings, or null: JSON's `ref`; the form's `ref` field, or when it has none the `ref` of
 * the Referer's query when the Referer is a page of this origin (a friend's link, `/?ref=CODE`, is the page the
 * no-JavaScript form was posted from). Only a well-formed code; anything else is ignored, as an unknown code is.
 */
function referralCodeOf(request: Request, { input, form }: Received): string | null {
  let code: unknown = input[REFERRAL_PARAMETER];
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

/**
 * The path the form's visitor goes back to: the form's `page` when, resolved against the request's address, it is on
 * this origin and one of the build's signup pages; else the home page. Checked after resolving, so no spelling
 * (`/.//evil.example/`, `/%2e//evil.example/`, `/x/..//evil.example/`) can send the browser elsewhere.
 */
function signupPagePath(request: Request, page: unknown, settings: ServiceSettings): string {
  if (typeof page !== "string") return HOME_PATH;
  try {
    const target = new URL(page, request.url);
    if (target.origin !== new URL(request.url).origin) return HOME_PATH;
    // The page's own query (a campaign's UTM values) comes back with it; it cannot change where the browser goes.
    return settings.signupPages.some(({ path }) => path === target.pathname) ? `${target.pathname}${target.search}` : HOME_PATH;
  } catch {
    return HOME_PATH;
  }
}
