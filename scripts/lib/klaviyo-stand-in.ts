/**
 * A loopback stand-in for Klaviyo's server API, for the service tests (__tests__/service) and the API bench
 * (scripts/bench/api), holding every request to Klaviyo's own OpenAPI description (the copy
 * in ./klaviyo-openapi, revision 2026-07-15) and answering as Klaviyo documents:
 *
 * - `POST /api/profile-import` (create_or_update_profile): 201 with a JSON:API profile document for a new address,
 *   200 for one it knows (by address, case-insensitive); given attributes replace, omitted ones are kept, properties
 *   are merged by name.
 * - `POST /api/profile-subscription-bulk-create-jobs` (bulk_subscribe_profiles): 202 with no body. A subscriber of a
 *   single opt-in list joins it at once; of a double opt-in list, only when the test says they confirmed (`addToList`).
 *   A job for a list the test never named is taken as before (no member is recorded).
 * - `GET /api/lists/{id}` (get_list): the list with its `opt_in_process` (`double_opt_in` unless the test configured
 *   `single_opt_in`); 404 for a list the test never named (`setList`, `addToList`).
 * - `GET /api/lists/{id}/profiles?filter=equals(email,"…")` (get_profiles_for_list): the list's members with that address
 *   (case-insensitive; the value double- or single-quoted, `\` escaping a quote or a backslash), so one or none; the
 *   attributes `fields[profile]` names, plus `joined_group_at` (the description requires it), and `subscriptions`
 *   with `additional-fields[profile]=subscriptions`. Any other filter is a 400 at `parameter: filter`.
 * - `POST /api/events` (create_event): 202 with no body; recorded in `events`.
 * - `POST /api/data-privacy-deletion-jobs` (request_profile_deletion): 202 with no body; recorded in `deletions`, and the
 *   profile and its list memberships are gone at once (Klaviyo deletes them later).
 * - 400 JSON:API errors `{ errors: [{ id, status, code, title, detail, source: { pointer } }] }` for a body the
 *   description refuses. As Klaviyo's server does ("'properties' is not a valid field for the resource 'profile'"),
 *   an object member the description does not declare is refused too: a bulk job's profile with names or
 *   `properties` gets a 400 pointing at it. Beyond the schemas: a profile needs an identifier, an address must be an
 *   address, `consented_at` only with `historical_import`, at most 1000 profiles per job.
 * - 401 without `Authorization: Klaviyo-API-Key <key>` or with another key; 403 `permission_denied` when the test gave
 *   the key scopes (`limitScopes`) that lack one the operation's description names under "Scopes" (a key has every
 *   scope until then, as Klaviyo's full-access keys do); 400 (source `parameter: revision`) without
 *   the `revision` header (the description makes it a required parameter) or with a revision other than the copy's;
 *   415 for a body that is not `application/vnd.api+json`; 404/405 for other paths and methods; 400 (source
 *   `parameter`) for a query parameter the copy does not keep or a value its schema refuses.
 *
 * Tests and the bench script it: an outage (500 for N requests or S seconds), throttling (429 with `Retry-After`),
 * Klaviyo's rate limits on one operation (a burst per second and a steady rate per minute, fixed windows), a revoked
 * key (401), a key without a scope (403), an address it refuses (400 pointing at the address), each for every operation; requests of one
 * operation held unanswered until released (a write still in flight); the account's lists (`setList`, `addToList`);
 * and read what it took (`profileImports`, `subscriptions`, `events`, `deletions`), the addresses it holds profiles
 * for (`profileEmails`) and every request it answered (`received`, in order, with times). Its own answers are checked
 * against the description's response schemas; a mismatch is recorded in `problems` (a test asserts it stays empty).
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import bulkSubscribeProfiles from "./klaviyo-openapi/bulk_subscribe_profiles.json";
import createEvent from "./klaviyo-openapi/create_event.json";
import createOrUpdateProfile from "./klaviyo-openapi/create_or_update_profile.json";
import getList from "./klaviyo-openapi/get_list.json";
import getProfilesForList from "./klaviyo-openapi/get_profiles_for_list.json";
import requestProfileDeletion from "./klaviyo-openapi/request_profile_deletion.json";

/** The private API key the stand-in accepts unless told another. */
export const STAND_IN_PRIVATE_API_KEY = "pk_stand_in_0123456789abcdef0123456789";

/** JSON:API's media type. */
const JSON_API = "application/vnd.api+json";

/** The most profiles one bulk subscribe job takes (Klaviyo's documented limit). */
const BULK_MAX_PROFILES = 1_000;

/** Crockford base 32, the alphabet of Klaviyo's profile ids (ULIDs). */
const ULID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** The default page size of a collection (`page[size]`, as the description gives it). */
const DEFAULT_PAGE_SIZE = 20;

export type OperationId =
  | "create_or_update_profile"
  | "bulk_subscribe_profiles"
  | "get_list"
  | "get_profiles_for_list"
  | "create_event"
  | "request_profile_deletion";

/** A list's opt-in process, as `GET /api/lists/{id}` gives it. */
export type OptInProcess = "double_opt_in" | "single_opt_in";

/** One parameter of an operation in the copy. */
interface ParameterCopy {
  name: string;
  in: "header" | "path" | "query";
  required?: boolean;
  schema: unknown;
}

/** One operation of the copy, as extract.ts writes it. */
interface OperationCopy {
  source: { revision: string };
  method: string;
  path: string;
  operationId: string;
  /** Klaviyo's description, which names the operation's scopes. */
  description: string;
  parameters: ParameterCopy[];
  /** Absent for a GET. */
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

const OPERATIONS = [
  createOrUpdateProfile,
  bulkSubscribeProfiles,
  getList,
  getProfilesForList,
  createEvent,
  requestProfileDeletion,
] as unknown as OperationCopy[];

/** The API revision the copy describes: the only `revision` header the stand-in takes. */
export const STAND_IN_REVISION = OPERATIONS[0].source.revision;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Members whose values are data, not schemas: copied as they are. */
const LITERAL_KEYWORDS = new Set(["enum", "required", "default", "const"]);

/**
 * OpenAPI 3.0 schema → JSON Schema for Ajv: `nullable: true` becomes a null type (or an anyOf with null where there is
 * no `type`) and `example` is dropped (an annotation).
 * @param closed close every object that declares its properties (`additionalProperties: false`): Klaviyo refuses a
 *   request member its resource does not have. Answers stay open (Klaviyo's errors carry `status`, `links`, `meta`
 *   beyond what the description declares).
 */
function jsonSchemaOf(schema: unknown, closed: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((item) => jsonSchemaOf(item, closed));
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "example" || key === "nullable") continue;
    if (key === "properties" && isObject(value))
      out.properties = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, jsonSchemaOf(member, closed)]));
    else out[key] = LITERAL_KEYWORDS.has(key) ? value : jsonSchemaOf(value, closed);
  }
  if (closed && isObject(out.properties) && !("additionalProperties" in out)) out.additionalProperties = false;
  if (schema.nullable !== true) return out;
  if (typeof out.type !== "string") return { anyOf: [{ type: "null" }, out] };
  out.type = [out.type, "null"];
  if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
  return out;
}

// strictTypes off: the description's allOf branches declare `properties` without `type: "object"`, which is valid.
const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strictTypes: false });
addFormats(ajv);
const isEmailAddress = ajv.compile({ type: "string", format: "email" });

/** A query parameter of the copy: its schema, and whether its value is a comma-separated list (`explode: false`). */
interface QueryParameter {
  validate: ValidateFunction;
  array: boolean;
  integer: boolean;
}

/** The compiled schemas of one operation. */
interface CompiledOperation {
  operationId: OperationId;
  /** Upper case, as a request names it. */
  method: string;
  path: string;
  /** The path template as a pattern; its groups are the path parameters, in order. */
  pattern: RegExp;
  /** Null for a GET (no body). */
  request: ValidateFunction | null;
  /** The scopes its description names (`**Scopes:**` and a backticked scope a line), all of which a key needs. */
  scopes: string[];
  /** The query parameters the copy keeps, by name: any other is refused. */
  query: Map<string, QueryParameter>;
  /** By response key: "200", "201", "4XX", "5XX"…; absent for an answer without a body (202). */
  responses: Map<string, ValidateFunction>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The scopes a description names: `**Scopes:**`, then one backticked scope a line (e.g. `lists:read`). */
function scopesOf(description: string): string[] {
  const listed = /\*\*Scopes:\*\*((?:\s*`[^`]+`)+)/.exec(description)?.[1] ?? "";
  return [...listed.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
}

const COMPILED: CompiledOperation[] = OPERATIONS.map((operation) => {
  const responses = new Map<string, ValidateFunction>();
  for (const [status, response] of Object.entries(operation.responses)) {
    const schema = response.content?.[JSON_API]?.schema;
    if (schema) responses.set(status, ajv.compile(jsonSchemaOf(schema, false) as object));
  }
  const query = new Map<string, QueryParameter>();
  for (const parameter of operation.parameters.filter((candidate) => candidate.in === "query")) {
    const schema = jsonSchemaOf(parameter.schema, false) as Json;
    query.set(parameter.name, { validate: ajv.compile(schema), array: schema.type === "array", integer: schema.type === "integer" });
  }
  const body = operation.requestBody?.content[JSON_API]?.schema;
  return {
    operationId: operation.operationId as OperationId,
    method: operation.method.toUpperCase(),
    path: operation.path,
    pattern: new RegExp(
      `^${operation.path
        .split(/\{[^}]+\}/)
        .map(escapeRegExp)
        .join("([^/]+)")}$`,
    ),
    request: body ? ajv.compile(jsonSchemaOf(body, true) as object) : null,
    scopes: scopesOf(operation.description),
    query,
    responses,
  };
});

/** One JSON:API error as Klaviyo writes it. */
export interface KlaviyoError {
  id: string;
  status: number;
  code: string;
  title: string;
  detail: string;
  source?: { pointer?: string; parameter?: string };
  links: Record<string, never>;
  meta: Record<string, never>;
}

/** A request the stand-in answered, whatever the answer. */
export interface ReceivedRequest {
  /** The operation (an OperationId), or the path for a request that matched none. */
  operation: string;
  status: number;
  /** When it was answered (ms since the epoch). */
  at: number;
  /** The addresses in the body (read as well as it could be), for telling deliveries apart. */
  emails: string[];
  /** The Retry-After sent with a 429 (s). */
  retryAfterS?: number;
}

/** A profile-import the stand-in took. */
export interface ProfileImport {
  email: string;
  firstName: string | null | undefined;
  lastName: string | null | undefined;
  properties: Record<string, unknown> | null | undefined;
  /** The properties `meta.patch_properties.unset` removed, as Klaviyo removes them; [] when none. */
  unset: string[];
  /** 201: a new profile; 200: an update. */
  status: 200 | 201;
  at: number;
}

/** One profile of a bulk subscribe job the stand-in took. */
export interface Subscription {
  email: string;
  /** The job's `custom_source`. */
  customSource: string | null | undefined;
  /** The list relationship's id (null: no list given). */
  listId: string | null;
  /** The profile's attributes exactly as sent. */
  profile: Json;
  at: number;
}

/** An event the stand-in took (`POST /api/events`). */
export interface KlaviyoEvent {
  /** The metric's name. */
  metric: string;
  /** The profile's address (null: identified otherwise). */
  email: string | null;
  /** The event's properties exactly as sent. */
  properties: Json;
  /** The event's `unique_id`, if any. */
  uniqueId: string | null;
  at: number;
}

/** A deletion job the stand-in took (`POST /api/data-privacy-deletion-jobs`): the one identifier it named. */
export interface DeletionRequest {
  email: string | null;
  phoneNumber: string | null;
  profileId: string | null;
  at: number;
}

/** A running stand-in. */
export interface KlaviyoStandIn {
  /** The URL to give the Worker as KLAVIYO_API_URL. */
  apiUrl: string;
  /** The private API key it accepts (for KLAVIYO_PRIVATE_API_KEY). */
  privateApiKey: string;
  /** Every request answered, in order. */
  received: ReceivedRequest[];
  /** Every profile-import taken, in order. */
  profileImports: ProfileImport[];
  /** Every profile of every subscribe job taken, in order. */
  subscriptions: Subscription[];
  /** Every event taken, in order. */
  events: KlaviyoEvent[];
  /** Every deletion job taken, in order. */
  deletions: DeletionRequest[];
  /** The stand-in's own answers that its copy of the description would not allow (should stay empty). */
  problems: string[];
  /** Answer 500 to every request: the next `requests` of them, or for `seconds` from now (whichever lasts longer). */
  failFor(outage: { requests?: number; seconds?: number }): void;
  /** Answer 429 with `Retry-After: retryAfterS` to the next `requests` requests (default 1). */
  throttle(options: { retryAfterS: number; requests?: number }): void;
  /**
   * Hold one operation to Klaviyo's rate limits, as its account would: at most `burstPerSecond` requests taken per
   * clock second and `steadyPerMinute` per clock minute (fixed windows); past either, 429 with `Retry-After` = the
   * whole seconds until that window ends. Until reset().
   */
  rateLimit(operationId: OperationId, limits: RateLimits): void;
  /** Take the private API key back, as an operator revoking it would: 401 until reset(). */
  revokeKey(): void;
  /**
   * Give the private API key only these scopes (e.g. `lists:read`), as a custom key made in Klaviyo has: an operation
   * needing another answers 403 until reset().
   */
  limitScopes(scopes: readonly string[]): void;
  /**
   * Hold every request of one operation unanswered and not yet taken (as a write still on its way to Klaviyo) until
   * release() or reset(); `held()` counts them.
   */
  hold(operationId: OperationId): void;
  /** Take and answer the held requests, in the order they came, and hold no more. */
  release(): void;
  /** How many requests are held now. */
  held(): number;
  /** The addresses (as first given) the account holds a profile for now. */
  profileEmails(): string[];
  /** Refuse an address (case-insensitive) with 400 pointing at it; `detail` is Klaviyo's text (default "Invalid email address"). */
  refuse(email: string, detail?: string): void;
  /**
   * Name a list of the account, or change its opt-in process (default `double_opt_in`, as Klaviyo makes a new list).
   * Its members are kept.
   */
  setList(listId: string, options?: { optInProcess?: OptInProcess; name?: string }): void;
  /**
   * Make an address (case-insensitive) a member of a list, as confirming a double opt-in does; a list not named yet is
   * named with `double_opt_in`. The address gets a profile if it has none.
   */
  addToList(listId: string, email: string): void;
  /** Forget the scripted faults, refusals and a revoked key (not the records, the lists or their members). */
  reset(): void;
  close(): Promise<void>;
}

/** An operation's rate limits (Klaviyo's tiers name them burst and steady). */
export interface RateLimits {
  burstPerSecond: number;
  steadyPerMinute: number;
}

/** Fixed windows of one operation's rate limits: the requests taken in the current second and minute. */
export class RateWindows {
  private second = { start: 0, taken: 0 };
  private minute = { start: 0, taken: 0 };

  constructor(private readonly limits: RateLimits) {}

  /** Take one request at `nowMs`: null when it is within both limits, else the Retry-After (s) of the window it exceeds. */
  take(nowMs: number): number | null {
    const secondStart = nowMs - (nowMs % 1_000);
    const minuteStart = nowMs - (nowMs % 60_000);
    if (this.second.start !== secondStart) this.second = { start: secondStart, taken: 0 };
    if (this.minute.start !== minuteStart) this.minute = { start: minuteStart, taken: 0 };
    if (this.minute.taken >= this.limits.steadyPerMinute) return Math.ceil((minuteStart + 60_000 - nowMs) / 1_000);
    if (this.second.taken >= this.limits.burstPerSecond) return Math.ceil((secondStart + 1_000 - nowMs) / 1_000);
    this.second.taken += 1;
    this.minute.taken += 1;
    return null;
  }
}

/** A Klaviyo profile id: a ULID (26 characters of Crockford base 32). */
function profileId(): string {
  let id = "01";
  for (let i = 0; i < 24; i += 1) id += ULID_ALPHABET[Math.floor(Math.random() * ULID_ALPHABET.length)];
  return id;
}

/** A JSON:API error member as Klaviyo writes it. */
function klaviyoError(status: number, code: string, title: string, detail: string, source?: KlaviyoError["source"]): KlaviyoError {
  return { id: randomUUID(), status, code, title, detail, ...(source ? { source } : {}), links: {}, meta: {} };
}

const invalid = (detail: string, pointer: string) => klaviyoError(400, "invalid", "Invalid input.", detail, { pointer });

/** The `type` of the JSON:API resource that holds the member at `pointer` (the nearest object with a string `type`). */
function resourceTypeAt(document: unknown, pointer: string): string {
  let type = "resource";
  let node: unknown = document;
  for (const part of pointer.split("/").slice(1)) {
    if (isObject(node) && typeof node.type === "string") type = node.type;
    node =
      isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  }
  if (isObject(node) && typeof node.type === "string") type = node.type;
  return type;
}

/** Ajv's errors as Klaviyo's: one per member at fault, the pointer at the member itself. */
function schemaErrors(errors: ErrorObject[], document: unknown): KlaviyoError[] {
  // anyOf (a nullable member) repeats what its branches said; keep the branches' words.
  const specific = errors.filter((error) => error.keyword !== "anyOf");
  const seen = new Set<string>();
  const result: KlaviyoError[] = [];
  for (const error of specific.length > 0 ? specific : errors) {
    let pointer = error.instancePath;
    let detail: string;
    if (error.keyword === "additionalProperties") {
      const member = (error.params as { additionalProperty: string }).additionalProperty;
      pointer = `${pointer}/${member}`;
      detail = `'${member}' is not a valid field for the resource '${resourceTypeAt(document, error.instancePath)}'.`;
    } else if (error.keyword === "required") {
      const member = (error.params as { missingProperty: string }).missingProperty;
      pointer = `${pointer}/${member}`;
      detail = `'${member}' is a required field for the resource '${resourceTypeAt(document, error.instancePath)}'.`;
    } else if (error.keyword === "enum") {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.filter((value) => value !== null);
      detail = `'${pointer.split("/").pop()}' must be one of: ${allowed.map((value) => JSON.stringify(value)).join(", ")}.`;
    } else {
      detail = `'${pointer.split("/").pop() || "data"}' ${error.message ?? "is invalid"}.`;
    }
    if (seen.has(pointer)) continue;
    seen.add(pointer);
    result.push(invalid(detail, pointer || "/"));
  }
  return result;
}

/** The addresses a request body names, read loosely (it may be invalid). */
function emailsIn(operationId: OperationId | null, body: unknown): string[] {
  const data = isObject(body) && isObject(body.data) ? body.data : null;
  const attributes = data && isObject(data.attributes) ? data.attributes : null;
  if (!attributes) return [];
  if (operationId === "create_or_update_profile") return typeof attributes.email === "string" ? [attributes.email] : [];
  if (operationId === "create_event" || operationId === "request_profile_deletion") {
    const profile = isObject(attributes.profile) && isObject(attributes.profile.data) ? attributes.profile.data : null;
    const email = profile && isObject(profile.attributes) ? profile.attributes.email : null;
    return typeof email === "string" ? [email] : [];
  }
  const profiles = isObject(attributes.profiles) && Array.isArray(attributes.profiles.data) ? attributes.profiles.data : [];
  return profiles.flatMap((profile: unknown) =>
    isObject(profile) && isObject(profile.attributes) && typeof profile.attributes.email === "string" ? [profile.attributes.email] : [],
  );
}

/** An error in a query parameter, as Klaviyo writes it. */
const invalidParameter = (detail: string, parameter: string) => klaviyoError(400, "invalid", "Invalid input.", detail, { parameter });

/**
 * The address of `equals(email,"…")` (the value in double or single quotes, a backslash escaping the next character),
 * or null for any other filter.
 */
function filteredEmail(filter: string): string | null {
  const match = /^equals\(\s*email\s*,\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\)$/s.exec(filter.trim());
  if (!match) return null;
  return (match[1] ?? match[2]).replace(/\\(.)/gs, "$1");
}

/** The normalised form the stand-in keys addresses by. */
const addressKey = (email: string) => email.trim().toLowerCase();

/** A profile as the stand-in keeps it. */
interface StoredProfile {
  id: string;
  attributes: Json & { properties: Json };
  created: string;
  updated: string;
}

/**
 * Start the stand-in on 127.0.0.1 at a free port.
 * @param options.privateApiKey the key it accepts (default STAND_IN_PRIVATE_API_KEY)
 */
export async function startKlaviyoStandIn({
  privateApiKey = STAND_IN_PRIVATE_API_KEY,
}: { privateApiKey?: string } = {}): Promise<KlaviyoStandIn> {
  const received: ReceivedRequest[] = [];
  const profileImports: ProfileImport[] = [];
  const subscriptions: Subscription[] = [];
  const problems: string[] = [];
  const events: KlaviyoEvent[] = [];
  const deletions: DeletionRequest[] = [];
  const profiles = new Map<string, StoredProfile>();
  /** The account's lists by id; members by address key, with when they joined. */
  const lists = new Map<string, { name: string; optInProcess: OptInProcess; created: string; members: Map<string, string> }>();
  let outageRequests = 0;
  let outageUntil = 0;
  let throttled: { requests: number; retryAfterS: number } | null = null;
  let rateLimits = new Map<OperationId, RateWindows>();
  let refused = new Map<string, string>();
  let keyRevoked = false;
  let keyScopes: Set<string> | null = null;
  let holding: OperationId | null = null;
  let heldRequests: (() => void)[] = [];
  let apiUrl = "";

  /** Refusals beyond the schema: identifiers, address shapes, refused addresses, consent rules. */
  function ruleErrors(operationId: OperationId, body: Json): KlaviyoError[] {
    const data = body.data as Json;
    const attributes = data.attributes as Json;
    const addressErrors = (email: unknown, pointer: string): KlaviyoError[] => {
      if (typeof email !== "string") return [];
      const refusal = refused.get(email.trim().toLowerCase());
      if (refusal !== undefined) return [invalid(refusal, pointer)];
      return isEmailAddress(email) ? [] : [invalid("Invalid email address", pointer)];
    };
    if (operationId === "create_or_update_profile") {
      const identified = ["email", "phone_number", "external_id", "_kx"].some((name) => typeof attributes[name] === "string") || !!data.id;
      if (!identified)
        return [
          invalid("One of 'email', 'phone_number', 'external_id', '_kx' or 'id' is required to identify a profile.", "/data/attributes"),
        ];
      return addressErrors(attributes.email, "/data/attributes/email");
    }
    if (operationId === "create_event" || operationId === "request_profile_deletion") {
      const profile = (attributes.profile as Json).data as Json;
      const given = profile.attributes as Json;
      const identifiers = ["email", "phone_number"].filter((name) => typeof given[name] === "string");
      if (typeof profile.id === "string") identifiers.push("id");
      const pointer = "/data/attributes/profile/data/attributes";
      if (operationId === "request_profile_deletion" && identifiers.length !== 1)
        return [invalid("Exactly one of 'email', 'phone_number' or 'id' is required.", pointer)];
      if (identifiers.length === 0) return [invalid("A profile identifier is required.", pointer)];
      return addressErrors(given.email, `${pointer}/email`);
    }
    const list = ((attributes.profiles as Json).data as Json[]) ?? [];
    if (list.length > BULK_MAX_PROFILES)
      return [invalid(`A job takes at most ${BULK_MAX_PROFILES} profiles.`, "/data/attributes/profiles/data")];
    return list.flatMap((profile, index) => {
      const pointer = `/data/attributes/profiles/data/${index}/attributes`;
      const profileAttributes = profile.attributes as Json;
      if (typeof profileAttributes.email !== "string" && typeof profileAttributes.phone_number !== "string")
        return [invalid("Either 'email' or 'phone_number' is required.", pointer)];
      const marketing = ((profileAttributes.subscriptions as Json).email as Json | undefined)?.marketing as Json | undefined;
      if (marketing?.consented_at != null && attributes.historical_import !== true)
        return [
          invalid("'consented_at' may only be given with 'historical_import'.", `${pointer}/subscriptions/email/marketing/consented_at`),
        ];
      return addressErrors(profileAttributes.email, `${pointer}/email`);
    });
  }

  /** Take a valid profile-import: create or update the profile; the JSON:API profile document and its status. */
  function importProfile(body: Json): { status: 200 | 201; document: Json } {
    const data = body.data as Json;
    const attributes = data.attributes as Json;
    const key = typeof attributes.email === "string" ? attributes.email.trim().toLowerCase() : `id:${randomUUID()}`;
    const now = new Date().toISOString();
    const existing = profiles.get(key);
    const { properties, ...given } = attributes;
    const profile: StoredProfile = existing ?? { id: profileId(), attributes: { properties: {} }, created: now, updated: now };
    profile.attributes = {
      ...profile.attributes,
      ...given,
      properties: properties === null ? {} : { ...profile.attributes.properties, ...(isObject(properties) ? properties : {}) },
    };
    const patch = isObject(data.meta) && isObject(data.meta.patch_properties) ? data.meta.patch_properties : {};
    const unset = typeof patch.unset === "string" ? [patch.unset] : Array.isArray(patch.unset) ? patch.unset.map(String) : [];
    for (const name of unset) delete (profile.attributes.properties as Record<string, unknown>)[name];
    profile.updated = now;
    profiles.set(key, profile);
    const status = existing ? 200 : 201;
    profileImports.push({
      email: String(attributes.email),
      firstName: attributes.first_name as string | null | undefined,
      lastName: attributes.last_name as string | null | undefined,
      properties: properties as Record<string, unknown> | null | undefined,
      unset,
      status,
      at: Date.now(),
    });
    const nullable = (name: string) => (profile.attributes[name] ?? null) as unknown;
    const document = {
      data: {
        type: "profile",
        id: profile.id,
        attributes: {
          ...Object.fromEntries(
            ["email", "phone_number", "external_id", "first_name", "last_name", "organization", "locale", "title", "image"].map((name) => [
              name,
              nullable(name),
            ]),
          ),
          created: profile.created,
          updated: profile.updated,
          last_event_date: null,
          location: { address1: null, address2: null, city: null, country: null, region: null, zip: null, timezone: null, ip: null },
          properties: profile.attributes.properties,
        },
        links: { self: `${apiUrl}/api/profiles/${profile.id}/` },
      },
      links: { self: `${apiUrl}/api/profile-import` },
    };
    return { status, document };
  }

  /** Take a valid subscribe job: record each profile with the job's source and list. */
  function subscribe(body: Json): void {
    const data = body.data as Json;
    const attributes = data.attributes as Json;
    const list = ((data.relationships as Json | undefined)?.list as Json | undefined)?.data as Json | undefined;
    const known = typeof list?.id === "string" ? lists.get(list.id) : undefined;
    for (const profile of (attributes.profiles as Json).data as Json[]) {
      const profileAttributes = profile.attributes as Json;
      // A single opt-in list takes the subscriber at once; a double opt-in list once they confirm (addToList).
      if (known?.optInProcess === "single_opt_in" && typeof profileAttributes.email === "string")
        join(known.members, profileAttributes.email);
      subscriptions.push({
        email: String(profileAttributes.email),
        customSource: attributes.custom_source as string | null | undefined,
        listId: typeof list?.id === "string" ? list.id : null,
        profile: profileAttributes,
        at: Date.now(),
      });
    }
  }

  /** The stored profile of an address, made (with the address only) when there is none. */
  function profileOf(email: string): StoredProfile {
    const key = addressKey(email);
    let profile = profiles.get(key);
    if (!profile) {
      const now = new Date().toISOString();
      profile = { id: profileId(), attributes: { email: email.trim(), properties: {} }, created: now, updated: now };
      profiles.set(key, profile);
    }
    return profile;
  }

  /** Make an address a member (keeping when it first joined) and give it a profile. */
  function join(members: Map<string, string>, email: string): void {
    profileOf(email);
    if (!members.has(addressKey(email))) members.set(addressKey(email), new Date().toISOString());
  }

  /** Pick the attributes a sparse fieldset (`fields[…]`) names; all of them without one. */
  function sparse(attributes: Json, fields: string[] | undefined, required: string[] = []): Json {
    if (!fields) return attributes;
    return Object.fromEntries(Object.entries(attributes).filter(([name]) => fields.includes(name) || required.includes(name)));
  }

  /** `GET /api/lists/{id}`'s document. */
  function listDocument(listId: string, query: Map<string, unknown>): Json | null {
    const list = lists.get(listId);
    if (!list) return null;
    const attributes = { name: list.name, created: list.created, updated: list.created, opt_in_process: list.optInProcess };
    return {
      data: {
        type: "list",
        id: listId,
        attributes: sparse(attributes, query.get("fields[list]") as string[] | undefined),
        links: { self: `${apiUrl}/api/lists/${listId}/` },
      },
      links: { self: `${apiUrl}/api/lists/${listId}/` },
    };
  }

  /** `GET /api/lists/{id}/profiles`'s document for the members with one address (at most one). */
  function membersDocument(listId: string, email: string, query: Map<string, unknown>): Json | null {
    const list = lists.get(listId);
    if (!list) return null;
    const joinedAt = list.members.get(addressKey(email));
    const profile = joinedAt === undefined ? undefined : profiles.get(addressKey(email));
    const pageSize = (query.get("page[size]") as number | undefined) ?? DEFAULT_PAGE_SIZE;
    const withSubscriptions = ((query.get("additional-fields[profile]") as string[] | undefined) ?? []).includes("subscriptions");
    const data = (profile ? [profile] : []).slice(0, pageSize).map((member) => {
      const attributes: Json = {
        email: member.attributes.email ?? null,
        first_name: member.attributes.first_name ?? null,
        last_name: member.attributes.last_name ?? null,
        created: member.created,
        updated: member.updated,
        properties: member.attributes.properties,
        joined_group_at: joinedAt,
        ...(withSubscriptions
          ? {
              subscriptions: {
                email: { marketing: { can_receive_email_marketing: true, consent: "SUBSCRIBED", consent_timestamp: joinedAt } },
              },
            }
          : {}),
      };
      return {
        type: "profile",
        id: member.id,
        attributes: sparse(attributes, query.get("fields[profile]") as string[] | undefined, ["joined_group_at", "subscriptions"]),
        links: { self: `${apiUrl}/api/profiles/${member.id}/` },
      };
    });
    return { data, links: { self: `${apiUrl}/api/lists/${listId}/profiles/` } };
  }

  /** Take a valid event. */
  function takeEvent(body: Json): void {
    const attributes = (body.data as Json).attributes as Json;
    const metric = ((attributes.metric as Json).data as Json).attributes as Json;
    const profile = ((attributes.profile as Json).data as Json).attributes as Json;
    events.push({
      metric: String(metric.name),
      email: typeof profile.email === "string" ? profile.email : null,
      properties: attributes.properties as Json,
      uniqueId: typeof attributes.unique_id === "string" ? attributes.unique_id : null,
      at: Date.now(),
    });
  }

  /** Take a valid deletion job: recorded, and the profile and its memberships deleted now. */
  function takeDeletion(body: Json): void {
    const profile = ((body.data as Json).attributes as Json).profile as Json;
    const data = profile.data as Json;
    const given = data.attributes as Json;
    const text = (value: unknown) => (typeof value === "string" ? value : null);
    deletions.push({ email: text(given.email), phoneNumber: text(given.phone_number), profileId: text(data.id), at: Date.now() });
    const keys = [...profiles.entries()]
      .filter(([key, stored]) => (typeof given.email === "string" && key === addressKey(given.email)) || stored.id === data.id)
      .map(([key]) => key);
    for (const key of keys) {
      profiles.delete(key);
      for (const list of lists.values()) list.members.delete(key);
    }
  }

  /**
   * The query of a request, each parameter checked against the copy: the values by name (a list split at commas, an
   * integer as a number), or the errors Klaviyo would give.
   */
  function readQuery(operation: CompiledOperation, url: URL): { values: Map<string, unknown> } | { errors: KlaviyoError[] } {
    const values = new Map<string, unknown>();
    const errors: KlaviyoError[] = [];
    for (const [name, raw] of url.searchParams) {
      const parameter = operation.query.get(name);
      if (!parameter) {
        errors.push(invalidParameter(`'${name}' is not a valid query parameter for this endpoint.`, name));
        continue;
      }
      const value = parameter.array ? raw.split(",") : parameter.integer && /^-?\d+$/.test(raw) ? Number(raw) : raw;
      if (!parameter.validate(value)) errors.push(invalidParameter(`'${name}' ${ajv.errorsText(parameter.validate.errors)}.`, name));
      else values.set(name, value);
    }
    return errors.length > 0 ? { errors } : { values };
  }

  /** Answer one request: status, headers, body (undefined: none). */
  function answer(
    request: http.IncomingMessage,
    text: string,
  ): {
    status: number;
    headers?: Record<string, string>;
    body?: unknown;
    operation: CompiledOperation | null;
    parsed?: unknown;
    /** The addresses a GET asked about. */
    emails?: string[];
  } {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const path = url.pathname.replace(/\/+$/, "");
    const atPath = COMPILED.map((candidate) => ({ candidate, match: candidate.pattern.exec(path) })).filter(({ match }) => match);
    const found = atPath.find(({ candidate }) => candidate.method === request.method);
    const operation = found?.candidate ?? null;
    const pathParameters = (found?.match ?? []).slice(1).map((value) => decodeURIComponent(value));
    const errors = (status: number, list: KlaviyoError[], headers?: Record<string, string>) => ({
      status,
      headers,
      body: { errors: list },
      operation,
    });
    if (atPath.length === 0) return errors(404, [klaviyoError(404, "not_found", "Not found.", `No resource at ${path}.`)]);
    if (!operation)
      return errors(405, [klaviyoError(405, "method_not_allowed", "Method not allowed.", `Method "${request.method}" not allowed.`)], {
        allow: atPath.map(({ candidate }) => candidate.method).join(", "),
      });

    if (outageRequests > 0 || Date.now() < outageUntil) {
      outageRequests = Math.max(0, outageRequests - 1);
      return errors(500, [klaviyoError(500, "error", "A server error occurred.", "A server error occurred.")]);
    }
    const credentials = /^Klaviyo-API-Key\s+(\S+)$/.exec(request.headers.authorization ?? "");
    if (!credentials)
      return errors(401, [
        klaviyoError(401, "not_authenticated", "Authentication credentials were not provided.", "Missing or invalid private key."),
      ]);
    if (credentials[1] !== privateApiKey || keyRevoked)
      return errors(401, [
        klaviyoError(401, "authentication_failed", "Incorrect authentication credentials.", "Incorrect authentication credentials."),
      ]);
    const missingScope = keyScopes && operation.scopes.find((scope) => !keyScopes!.has(scope));
    if (missingScope)
      return errors(403, [
        klaviyoError(
          403,
          "permission_denied",
          "You do not have permission to perform this action.",
          "You do not have permission to perform this action.",
          {
            pointer: "/data/",
          },
        ),
      ]);
    const revision = request.headers.revision;
    if (typeof revision !== "string" || revision === "")
      return errors(400, [klaviyoError(400, "invalid", "Invalid input.", "The 'revision' header is required.", { parameter: "revision" })]);
    if (revision !== STAND_IN_REVISION)
      return errors(400, [
        klaviyoError(400, "invalid", "Invalid input.", `The stand-in knows revision ${STAND_IN_REVISION} only, not ${revision}.`, {
          parameter: "revision",
        }),
      ]);
    let retryAfterS: number | null;
    if (throttled && throttled.requests > 0) {
      throttled.requests -= 1;
      retryAfterS = throttled.retryAfterS;
    } else retryAfterS = rateLimits.get(operation.operationId)?.take(Date.now()) ?? null;
    if (retryAfterS !== null) {
      return errors(
        429,
        [klaviyoError(429, "throttled", "Request was throttled.", `Request was throttled. Expected available in ${retryAfterS} seconds.`)],
        {
          "retry-after": String(retryAfterS),
        },
      );
    }
    const query = readQuery(operation, url);
    if ("errors" in query) return errors(400, query.errors);
    if (operation.request === null) return read(operation, pathParameters, query.values);
    if ((request.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase() !== JSON_API)
      return errors(415, [klaviyoError(415, "unsupported_media_type", "Unsupported media type.", `Send ${JSON_API}.`)]);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return errors(400, [klaviyoError(400, "parse_error", "Malformed request.", "JSON parse error.")]);
    }
    if (!operation.request(parsed)) return { ...errors(400, schemaErrors(operation.request.errors ?? [], parsed)), parsed };
    const ruled = ruleErrors(operation.operationId, parsed as Json);
    if (ruled.length > 0) return { ...errors(400, ruled), parsed };
    if (operation.operationId === "bulk_subscribe_profiles") subscribe(parsed as Json);
    else if (operation.operationId === "create_event") takeEvent(parsed as Json);
    else if (operation.operationId === "request_profile_deletion") takeDeletion(parsed as Json);
    else {
      const imported = importProfile(parsed as Json);
      return { status: imported.status, body: imported.document, operation, parsed };
    }
    return { status: 202, operation, parsed };
  }

  /** Answer a GET whose query was valid: the list, or its members with one address. */
  function read(operation: CompiledOperation, [listId]: string[], query: Map<string, unknown>) {
    const unknownList = {
      status: 404,
      body: { errors: [klaviyoError(404, "not_found", "Not found.", `A list with id ${listId} does not exist.`)] },
      operation,
    };
    if (operation.operationId === "get_list") {
      const document = listDocument(listId, query);
      return document ? { status: 200, body: document, operation } : unknownList;
    }
    const filter = query.get("filter");
    const email = typeof filter === "string" ? filteredEmail(filter) : null;
    if (email === null)
      return {
        status: 400,
        body: { errors: [invalidParameter(`The stand-in answers filter=equals(email,"…") only, not ${String(filter)}.`, "filter")] },
        operation,
      };
    const document = membersDocument(listId, email, query);
    return document ? { status: 200, body: document, operation, emails: [email] } : { ...unknownList, emails: [email] };
  }

  /** Record a problem when the stand-in's own answer is not one the description allows. */
  function checkAnswer(operation: CompiledOperation | null, status: number, body: unknown): void {
    const anyOperation = operation ?? COMPILED[0];
    const validate = anyOperation.responses.get(String(status)) ?? anyOperation.responses.get(`${String(status)[0]}XX`);
    if (body === undefined) {
      if (validate) problems.push(`${anyOperation.operationId} ${status}: answered without the body the description gives it`);
      return;
    }
    if (!validate) problems.push(`${anyOperation.operationId} ${status}: the description has no body for this answer`);
    else if (!validate(body)) problems.push(`${anyOperation.operationId} ${status}: ${ajv.errorsText(validate.errors)}`);
  }

  /** The operation a request names by its method and path, or null. */
  function operationOf(request: http.IncomingMessage): OperationId | null {
    const path = new URL(request.url ?? "/", "http://stand-in").pathname.replace(/\/+$/, "");
    return COMPILED.find((candidate) => candidate.method === request.method && candidate.pattern.test(path))?.operationId ?? null;
  }

  /** Answer now, or later when its operation is held. */
  function takeOrHold(request: http.IncomingMessage, take: () => void): void {
    if (holding !== null && operationOf(request) === holding) heldRequests.push(take);
    else take();
  }

  /** Hold no more, and take the held requests in the order they came. */
  function releaseHeld(): void {
    holding = null;
    const taken = heldRequests;
    heldRequests = [];
    for (const take of taken) take();
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () =>
      takeOrHold(request, () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const result = answer(request, text);
        checkAnswer(result.operation, result.status, result.body);
        let parsed = result.parsed;
        if (parsed === undefined)
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = null;
          }
        received.push({
          operation: result.operation?.operationId ?? new URL(request.url ?? "/", "http://stand-in").pathname,
          status: result.status,
          at: Date.now(),
          emails: result.emails ?? emailsIn(result.operation?.operationId ?? null, parsed),
          ...(result.headers?.["retry-after"] ? { retryAfterS: Number(result.headers["retry-after"]) } : {}),
        });
        response.writeHead(result.status, { ...(result.body === undefined ? {} : { "content-type": JSON_API }), ...result.headers });
        response.end(result.body === undefined ? undefined : JSON.stringify(result.body));
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl,
    privateApiKey,
    received,
    profileImports,
    subscriptions,
    events,
    deletions,
    problems,
    failFor: ({ requests = 0, seconds = 0 }) => {
      outageRequests = requests;
      outageUntil = Date.now() + seconds * 1000;
    },
    throttle: ({ retryAfterS, requests = 1 }) => {
      throttled = { requests, retryAfterS };
    },
    rateLimit: (operationId, limits) => {
      rateLimits.set(operationId, new RateWindows(limits));
    },
    revokeKey: () => {
      keyRevoked = true;
    },
    limitScopes: (scopes) => {
      keyScopes = new Set(scopes);
    },
    hold: (operationId) => {
      holding = operationId;
    },
    release: releaseHeld,
    held: () => heldRequests.length,
    profileEmails: () => [...profiles.values()].map((profile) => String(profile.attributes.email)),
    refuse: (email, detail = "Invalid email address") => {
      refused.set(email.trim().toLowerCase(), detail);
    },
    setList: (listId, { optInProcess = "double_opt_in", name } = {}) => {
      const existing = lists.get(listId);
      lists.set(listId, {
        name: name ?? existing?.name ?? `List ${listId}`,
        optInProcess,
        created: existing?.created ?? new Date().toISOString(),
        members: existing?.members ?? new Map<string, string>(),
      });
    },
    addToList: (listId, email) => {
      let list = lists.get(listId);
      if (!list) {
        list = {
          name: `List ${listId}`,
          optInProcess: "double_opt_in",
          created: new Date().toISOString(),
          members: new Map<string, string>(),
        };
        lists.set(listId, list);
      }
      join(list.members, email);
    },
    reset: () => {
      outageRequests = 0;
      outageUntil = 0;
      throttled = null;
      rateLimits = new Map();
      refused = new Map();
      keyRevoked = false;
      keyScopes = null;
      releaseHeld();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
