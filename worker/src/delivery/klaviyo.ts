/**
 * Klaviyo's server API as the delivery calls it (revision KLAVIYO_REVISION): Create or Update Profile, then Bulk
 * Subscribe Profiles. Both are idempotent by address, so a delivery tried again does no harm. Each answer becomes a
 * DeliveryOutcome; the queue consumer (queue.ts) decides the row's and the message's fate. Two reads: is an address
 * on the list (asked before a confirmation counts), and the list's opt-in process (`npm run deploy` checks it).
 * docs/delivery.md.
 */
import { JSON_API_CONTENT_TYPE } from "../../../shared/contract";

/** The API revision both requests are written for (the `revision` header). */
export const KLAVIYO_REVISION = "2026-07-15";

/** Klaviyo's API, when KLAVIYO_API_URL is unset. */
export const DEFAULT_KLAVIYO_API_URL = "https://a.klaviyo.com";

/**
 * How long one request may take (ms) before it counts as failed and is retried: a request hanging this long is an
 * outage, and the consumer's batch should not wait on it.
 */
export const KLAVIYO_REQUEST_TIMEOUT_MS = 10_000;

/**
 * Statuses by which Klaviyo refuses the request's content (the address, a value): sending it again cannot succeed.
 * Every other 4xx (401/403 key or scopes, 404 list, 415…) is our configuration, fixed by the operator, so those are
 * retried like an outage and the signup waits instead of being lost.
 */
const REFUSAL_STATUSES = new Set([400, 409, 413, 422]);

/** The longest reason kept for the row and the log (characters). */
const REASON_MAX_LENGTH = 300;

/** One signup, as Klaviyo receives it. */
export interface KlaviyoSignup {
  email: string;
  firstName: string;
  lastName: string;
  /** The consent records' custom source (the signup's, else the build's); null sends none. */
  customSource: string | null;
  /** The Klaviyo list id to subscribe to. */
  listId: string;
  /** Profile properties: UTM / attribution values, and the referral program's (referral-properties.ts). */
  properties: Record<string, string | number>;
}

/** A profile update: the address and the properties to set (others are left as they are). */
export interface KlaviyoProfileUpdate {
  email: string;
  properties: Record<string, string | number>;
  /** Properties removed from the profile (`meta.patch_properties.unset`), e.g. `referred_by` once the referrer is erased. */
  unset?: string[];
}

/** Where and as whom to call Klaviyo. */
export interface KlaviyoAccount {
  /** e.g. https://a.klaviyo.com (no trailing slash needed). */
  apiUrl: string;
  /** The private API key (`pk_…`). */
  privateApiKey: string;
}

/**
 * What one delivery attempt came to. Every `reason` is free of personal data: the address and the names are removed
 * from whatever Klaviyo wrote, so it can go into the row and the log.
 */
export type DeliveryOutcome =
  /** Profile imported and subscription job accepted. */
  | { kind: "delivered" }
  /** 429: try again after `retryAfterS` seconds (Klaviyo's Retry-After; null when it sent none). */
  | { kind: "throttled"; retryAfterS: number | null; reason: string }
  /** 5xx, another non-refusal 4xx (`status`), or no answer at all (network error, timeout: `status` null): try again later. */
  | { kind: "failed"; status: number | null; reason: string }
  /** Klaviyo refused the content (`status` in REFUSAL_STATUSES), e.g. an address it will not accept: do not try again. */
  | { kind: "refused"; status: number; reason: string };

/** A failed read: throttled (429) or failed (any other non-2xx, no answer, or an answer that cannot be read). */
export type ReadFailure = Extract<DeliveryOutcome, { kind: "throttled" } | { kind: "failed" }>;

/** Whether an address is on a list: a member (subscribed, or confirmed on a double opt-in list) or not. */
export type ListMembership = { kind: "member" } | { kind: "absent" } | ReadFailure;

/** A list's opt-in process as Klaviyo names it (`opt_in_process`). */
export type OptInProcess = "double_opt_in" | "single_opt_in";

/** A list's opt-in process, or why it could not be read (a `failed` with `status` 404: no such list). */
export type ListOptIn = { kind: OptInProcess } | ReadFailure;

/**
 * `value` as a string of Klaviyo's filter syntax: in double quotes, a backslash before a quote or a backslash, so that
 * an address cannot end the string and add a condition of its own.
 */
export function filterString(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&")}"`;
}

/** The body of `POST /api/profile-import` (answered 201 new, 200 updated): address, names, properties plus `source`. */
export function profileImportDocument(signup: KlaviyoSignup) {
  const properties = signup.customSource === null ? signup.properties : { ...signup.properties, source: signup.customSource };
  return {
    data: {
      type: "profile",
      attributes: { email: signup.email, first_name: signup.firstName, last_name: signup.lastName, properties },
    },
  };
}

/** The body of `POST /api/profile-import` for a profile update: the address, the properties and those to remove. */
export function profileUpdateDocument(update: KlaviyoProfileUpdate) {
  const unset = update.unset ?? [];
  return {
    data: {
      type: "profile",
      attributes: { email: update.email, properties: update.properties },
      ...(unset.length === 0 ? {} : { meta: { patch_properties: { unset } } }),
    },
  };
}

/**
 * The body of `POST /api/profile-subscription-bulk-create-jobs` (answered 202): one profile with its address and
 * consent only (a bulk job's profiles take no names or properties), the custom source, the list.
 */
export function subscriptionJobDocument(signup: KlaviyoSignup) {
  return {
    data: {
      type: "profile-subscription-bulk-create-job",
      attributes: {
        ...(signup.customSource === null ? {} : { custom_source: signup.customSource }),
        profiles: {
          data: [
            { type: "profile", attributes: { email: signup.email, subscriptions: { email: { marketing: { consent: "SUBSCRIBED" } } } } },
          ],
        },
      },
      relationships: { list: { data: { type: "list", id: signup.listId } } },
    },
  };
}

/**
 * Deliver one signup: profile-import, then (only if Klaviyo took the profile) the subscription job.
 * @returns the first request's outcome that was not a success, else `delivered`; never throws for Klaviyo's or the
 *   network's failures
 */
export async function deliverToKlaviyo(
  signup: KlaviyoSignup,
  account: KlaviyoAccount,
  fetcher: typeof fetch = fetch,
): Promise<DeliveryOutcome> {
  const imported = await post(fetcher, account, "/api/profile-import", profileImportDocument(signup), signup);
  if (imported) return imported;
  const subscribed = await post(fetcher, account, "/api/profile-subscription-bulk-create-jobs", subscriptionJobDocument(signup), signup);
  return subscribed ?? { kind: "delivered" };
}

/**
 * Update one profile's properties (profile-import alone; the profile is made if Klaviyo has none yet).
 * @returns its outcome; never throws for Klaviyo's or the network's failures
 */
export async function updateKlaviyoProfile(
  update: KlaviyoProfileUpdate,
  account: KlaviyoAccount,
  fetcher: typeof fetch = fetch,
): Promise<DeliveryOutcome> {
  const names = { email: update.email, firstName: "", lastName: "" };
  return (await post(fetcher, account, "/api/profile-import", profileUpdateDocument(update), names)) ?? { kind: "delivered" };
}

/** One event about a profile: its metric, the profile by address and names, its properties and its unique id. */
export interface KlaviyoEvent {
  metric: string;
  email: string;
  firstName: string;
  lastName: string;
  properties: Record<string, string | number>;
  /** Klaviyo records an event once per profile, metric and unique_id: a retried event is never recorded twice. */
  uniqueId: string;
}

/** The body of `POST /api/events` (answered 202): JSON:API, the metric by name, the profile by address. */
export function eventDocument(event: KlaviyoEvent) {
  return {
    data: {
      type: "event",
      attributes: {
        properties: event.properties,
        metric: { data: { type: "metric", attributes: { name: event.metric } } },
        profile: { data: { type: "profile", attributes: { email: event.email, first_name: event.firstName, last_name: event.lastName } } },
        unique_id: event.uniqueId,
      },
    },
  };
}

/**
 * Create one event (Create Event); a metric-triggered flow turns it into an e-mail.
 * @returns `delivered` when Klaviyo took it (202); never throws for Klaviyo's or the network's failures
 */
export async function createKlaviyoEvent(
  event: KlaviyoEvent,
  account: KlaviyoAccount,
  fetcher: typeof fetch = fetch,
): Promise<DeliveryOutcome> {
  return (await post(fetcher, account, "/api/events", eventDocument(event), event)) ?? { kind: "delivered" };
}

/** The body of `POST /api/data-privacy-deletion-jobs` (answered 202): the profile named by its address alone. */
export function deletionJobDocument(email: string) {
  return {
    data: {
      type: "data-privacy-deletion-job",
      attributes: { profile: { data: { type: "profile", attributes: { email } } } },
    },
  };
}

/**
 * Ask Klaviyo to delete every profile with this address (Data Privacy API; the deletion itself runs later).
 * @returns `delivered` when Klaviyo accepted the job; never throws for Klaviyo's or the network's failures
 */
export async function requestProfileDeletion(
  email: string,
  account: KlaviyoAccount,
  fetcher: typeof fetch = fetch,
): Promise<DeliveryOutcome> {
  const names = { email, firstName: "", lastName: "" };
  return (await post(fetcher, account, "/api/data-privacy-deletion-jobs", deletionJobDocument(email), names)) ?? { kind: "delivered" };
}

/**
 * Is `email` on the list? `GET /api/lists/{id}/profiles?filter=equals(email,"…")&fields[profile]=email`: the list's
 * profiles with that address. Only a profile whose own address is `email` (case-insensitive) makes a member, so an
 * answer about anyone else never counts.
 * @param fetcher the fetch to use (the Worker's global by default)
 * @returns `member`, `absent` (Klaviyo answered with no such profile), `throttled` (429, Klaviyo's Retry-After in s),
 *   or `failed` (another non-2xx such as 404 for an unknown list, no answer within KLAVIYO_REQUEST_TIMEOUT_MS, or an
 *   answer that is not the documented collection); never throws
 */
export async function listMembership(
  email: string,
  listId: string,
  account: KlaviyoAccount,
  fetcher: typeof fetch = fetch,
): Promise<ListMembership> {
  const names = { email, firstName: "", lastName: "" };
  const query = `filter=${encodeURIComponent(`equals(email,${filterString(email)})`)}&fields[profile]=email`;
  const read = await get(fetcher, account, `/api/lists/${encodeURIComponent(listId)}/profiles?${query}`, names);
  if (read.kind !== "answered") return read;
  const data = (read.document as { data?: unknown } | null)?.data;
  const unreadable = (what: string): ReadFailure => ({ kind: "failed", status: read.status, reason: `lists/profiles: ${what}` });
  if (!Array.isArray(data)) return unreadable("the answer has no data array");
  if (data.length === 0) return { kind: "absent" };
  const wanted = email.trim().toLowerCase();
  const same = data.some((item: unknown) => {
    const profile = item as { type?: unknown; attributes?: { email?: unknown } } | null;
    return (
      profile?.type === "profile" &&
      typeof profile.attributes?.email === "string" &&
      profile.attributes.email.trim().toLowerCase() === wanted
    );
  });
  // Profiles that are not this address mean the filter was not applied: no answer to the question.
  return same ? { kind: "member" } : unreadable("the answer names other profiles only");
}

/**
 * The list's opt-in process: `GET /api/lists/{id}?fields[list]=opt_in_process`.
 * @param fetcher the fetch to use (the Worker's global by default)
 * @returns `double_opt_in` or `single_opt_in`, `throttled` (429), or `failed` (404: no such list in the account of
 *   the key; 401/403: the key or its scopes; no answer within KLAVIYO_REQUEST_TIMEOUT_MS; an answer without
 *   `opt_in_process`); never throws
 */
export async function listOptInProcess(listId: string, account: KlaviyoAccount, fetcher: typeof fetch = fetch): Promise<ListOptIn> {
  const read = await get(fetcher, account, `/api/lists/${encodeURIComponent(listId)}?fields[list]=opt_in_process`, null);
  if (read.kind !== "answered") return read;
  const process = (read.document as { data?: { attributes?: { opt_in_process?: unknown } } } | null)?.data?.attributes?.opt_in_process;
  if (process === "double_opt_in" || process === "single_opt_in") return { kind: process };
  return { kind: "failed", status: read.status, reason: "lists: the answer has no opt_in_process" };
}

/** A GET: Klaviyo's 2xx answer read as JSON (null when it is not JSON), or why there is none (a refusal is a failure). */
async function get(
  fetcher: typeof fetch,
  account: KlaviyoAccount,
  pathAndQuery: string,
  names: Pick<KlaviyoSignup, "email" | "firstName" | "lastName"> | null,
): Promise<{ kind: "answered"; status: number; document: unknown } | ReadFailure> {
  const sent = await send(fetcher, account, "GET", pathAndQuery, undefined, names ?? { email: "", firstName: "", lastName: "" });
  if (!("response" in sent)) return sent.kind === "refused" ? { kind: "failed", status: sent.status, reason: sent.reason } : sent;
  let document: unknown = null;
  try {
    document = await sent.response.json();
  } catch {
    // Unreadable: the caller finds no data in it.
  }
  return { kind: "answered", status: sent.response.status, document };
}

/** One POST; null when Klaviyo answered 2xx, else the outcome that stops the delivery. */
async function post(
  fetcher: typeof fetch,
  account: KlaviyoAccount,
  path: string,
  document: unknown,
  signup: Pick<KlaviyoSignup, "email" | "firstName" | "lastName">,
): Promise<Exclude<DeliveryOutcome, { kind: "delivered" }> | null> {
  const sent = await send(fetcher, account, "POST", path, JSON.stringify(document), signup);
  if (!("response" in sent)) return sent;
  // Nothing in a success answer is needed; cancelling frees the connection at once.
  await sent.response.body?.cancel();
  return null;
}

/** One request; Klaviyo's 2xx response, else the outcome of its failure (reasons free of the signup's personal data). */
async function send(
  fetcher: typeof fetch,
  account: KlaviyoAccount,
  method: "GET" | "POST",
  pathAndQuery: string,
  body: string | undefined,
  signup: Pick<KlaviyoSignup, "email" | "firstName" | "lastName">,
): Promise<{ response: Response } | Exclude<DeliveryOutcome, { kind: "delivered" }>> {
  const operation = pathAndQuery.slice("/api/".length).split("?")[0];
  let response: Response;
  try {
    response = await fetcher(`${account.apiUrl.replace(/\/+$/, "")}${pathAndQuery}`, {
      method,
      headers: {
        authorization: `Klaviyo-API-Key ${account.privateApiKey}`,
        revision: KLAVIYO_REVISION,
        ...(body === undefined ? {} : { "content-type": JSON_API_CONTENT_TYPE }),
        accept: JSON_API_CONTENT_TYPE,
      },
      body,
      signal: AbortSignal.timeout(KLAVIYO_REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    // By name, not instanceof: an AbortSignal's DOMException may come from another realm.
    const timedOut = (error as { name?: unknown } | null)?.name === "TimeoutError";
    const what = timedOut ? `no answer within ${KLAVIYO_REQUEST_TIMEOUT_MS} ms` : `network error (${errorText(error)})`;
    return { kind: "failed", status: null, reason: withoutPersonalData(`${operation}: ${what}`, signup) };
  }
  if (response.ok) return { response };
  const reason = withoutPersonalData(`${operation}: ${response.status} ${await firstError(response)}`.trim(), signup);
  if (response.status === 429) return { kind: "throttled", retryAfterS: retryAfterSeconds(response.headers.get("retry-after")), reason };
  if (REFUSAL_STATUSES.has(response.status)) return { kind: "refused", status: response.status, reason };
  return { kind: "failed", status: response.status, reason };
}

/** Klaviyo's first JSON:API error as `code at pointer: detail`, or "" when the body is not one. */
async function firstError(response: Response): Promise<string> {
  let document: unknown;
  try {
    document = await response.json();
  } catch {
    return "";
  }
  const first = (document as { errors?: unknown[] } | null)?.errors?.[0] as
    { code?: unknown; detail?: unknown; title?: unknown; source?: { pointer?: unknown; parameter?: unknown } } | undefined;
  if (!first) return "";
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const where = text(first.source?.pointer) || text(first.source?.parameter);
  const code = text(first.code);
  const head = [code, where && `at ${where}`].filter(Boolean).join(" ");
  const detail = text(first.detail) || text(first.title);
  return head && detail ? `${head}: ${detail}` : head || detail;
}

/**
 * A Retry-After value in seconds: delta-seconds or an HTTP date (RFC 9110); null when absent or unreadable.
 * @param now the current time (ms since the epoch), for a date
 */
export function retryAfterSeconds(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.message ? `${error.name}: ${error.message}` : error.name;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const ADDRESS_PATTERN = /[^\s"'<>()[\]]+@[^\s"'<>()[\]]+/g;

/**
 * `text` without the signup's address, names or anything shaped like an address, each replaced by a placeholder, and
 * at most REASON_MAX_LENGTH characters: what Klaviyo writes about a refusal may quote what it refused, and the row's
 * `delivery_error` and the log must hold no personal data.
 */
export function withoutPersonalData(text: string, signup: Pick<KlaviyoSignup, "email" | "firstName" | "lastName">): string {
  // An empty address (a read that names none) would match everywhere.
  const withoutAddress = signup.email ? text.replace(new RegExp(escapeRegExp(signup.email), "gi"), "[address]") : text;
  let clean = withoutAddress.replace(ADDRESS_PATTERN, "[address]");
  for (const name of [signup.firstName, signup.lastName]) {
    // Whole words only, so that a short name does not cut into Klaviyo's own words.
    if (name.trim())
      clean = clean.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name.trim())}(?![\\p{L}\\p{N}])`, "giu"), "[name]");
  }
  return clean.length > REASON_MAX_LENGTH ? `${clean.slice(0, REASON_MAX_LENGTH - 1)}…` : clean;
}
