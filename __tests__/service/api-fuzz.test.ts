/**
 * Every route of the waitlist API fuzzed (docs/api.md: Fuzzing): for each route of shared/api's route table, requests
 * built from its schemas and hostile values (support/fuzz.ts), sent to the Worker in workerd. Whatever arrives, the
 * answer is never a 5xx, it is one the OpenAPI description declares (the service's fetch checks that, support/openapi.ts),
 * a refusal's error names its own status and a 400 the member or parameter at fault, and a refused request stores
 * nothing. `npm run fuzz` sends many more requests than `npm run test:service` (FUZZ_RUNS) and prints each route's count.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ErrorDocument } from "../../shared/api/errors";
import { API_ROUTES, type ApiRoute, type Security } from "../../shared/api/routes";
import { SignupForm } from "../../shared/api/signups";
import { FORM_CONTENT_TYPE, JSON_API_CONTENT_TYPE, JSON_CONTENT_TYPE } from "../../shared/contract";
import { SUCCESS_PATH } from "../../shared/routes";
import { isApiPath } from "../../worker/src/http";
import {
  type BodySpec,
  bodyText,
  clientIps,
  headerVariants,
  inputSchemaOf,
  jsonBodies,
  LARGE_BODY_BYTES,
  METHODS,
  pathIds,
  queries,
  queryText,
  type RequestSpec,
  storeState,
  valuesOf,
  wellFormed,
} from "./support/fuzz";
import {
  LOCAL_ORIGIN,
  nextClientIp,
  postSignup,
  startWaitlistService,
  TEST_SETTINGS,
  type WaitlistService,
  welcomeOf,
} from "./support/service";
import { startSiteverifyStandIn, type SiteverifyStandInClient } from "./support/stand-ins";
import { undecodable } from "./support/openapi";
import { TURNSTILE_DUMMY_TOKEN, TURNSTILE_TEST_SECRETS } from "./support/turnstile-test-keys";

const OPERATOR = "fuzz-operator@example.com";
const WEBHOOK_SECRET = "fuzz-webhook-secret";
const CHECK_IN_SECRET = "fuzz-check-in-secret";
const HOLDER_EMAIL = "fuzz.holder@example.com";
const SUBJECT_EMAIL = "fuzz.subject@example.com";

/** Requests per route (fast-check's numRuns): few in the service suite, many under `npm run fuzz`. */
const RUNS = inject("fuzzRuns");

/**
 * A valid JSON body of each route that takes one (by operationId): the mutations start from it, so that most
 * requests reach the rules behind the schema. A route added without one fails its test.
 */
const SAMPLES: Record<string, Record<string, unknown>> = {
  createSignup: {
    email: "fuzz.signup@example.com",
    firstName: "Dana",
    lastName: "Quinn",
    source: "Waitlist",
    properties: { utm_source: "fuzz" },
    turnstileToken: TURNSTILE_DUMMY_TOKEN,
    ref: "Abc23456",
    website: "",
    page: "/",
  },
  chooseLeaderboard: { shown: true },
  confirmFromKlaviyo: { email: HOLDER_EMAIL },
  // Every console action takes the same body.
  ...Object.fromEntries(
    API_ROUTES.filter(({ tag, body }) => tag === "console" && body).map(({ id }) => [id, { reason: "Checked by the fuzz test." }]),
  ),
  inviteInvitation: { reason: "Checked by the fuzz test." },
  revokeInvitation: { reason: "Checked by the fuzz test." },
  resendInvitation: { reason: "Checked by the fuzz test." },
  pauseBatch: { reason: "Checked by the fuzz test." },
  resumeBatch: { reason: "Checked by the fuzz test." },
  createBatch: { count: 1, reason: "Checked by the fuzz test.", idempotencyKey: "fuzz" },
  setSchedule: { dailyCount: 1, timeOfDay: "09:00", paused: true, reason: "Checked by the fuzz test." },
  checkIn: { token: "A".repeat(43) },
  acceptInvitation: { token: "A".repeat(43) },
  commitDraw: { draw: "launch", winners: 2, cutoff: "2026-01-01T00:00:00Z" },
};

/** A query each route's rules take, beyond what its schema alone says (by operationId). */
const QUERY_SAMPLES: Record<string, Record<string, string>> = {
  searchPeople: { q: HOLDER_EMAIL },
  previewBatch: { count: "1" },
};

/** One route as the fuzz test calls it: a route of the table with one of its media types, or the paths it lacks. */
interface FuzzRoute {
  /** What the summary calls it: method, path pattern and, for a route of two media types, which. */
  name: string;
  /** The table's route; undefined for the paths the API does not have. */
  route?: ApiRoute;
  /** The paths requested (path parameters filled in). */
  path: fc.Arbitrary<string>;
  body?: fc.Arbitrary<BodySpec>;
  /** What a legitimate caller sends, and other values for each header. */
  headers: Record<string, string>;
  alternatives: Record<string, string[]>;
}

let siteverify: SiteverifyStandInClient;
let service: WaitlistService;

/** The people the routes act on, signed up before the tests: one holds a status token, the console acts on the other. */
interface Seed {
  statusToken: string;
  subjectId: string;
}
let seed: Seed;

/**
 * Header values a caller gets wrong. The service runs as `npm start` does (LOCAL_ORIGIN, where the console's local
 * operator is signed in), so its own origin is that one and the build's site.url is another.
 */
const OTHER_ORIGINS = [
  "https://evil.example",
  "null",
  TEST_SETTINGS.siteUrl,
  `${LOCAL_ORIGIN}.evil.example`,
  LOCAL_ORIGIN.toUpperCase(),
  `${LOCAL_ORIGIN}/`,
  LOCAL_ORIGIN.replace("127.0.0.1", "localhost"),
];
const OTHER_CONTENT_TYPES = [
  "text/plain",
  "application/json; charset=utf-16",
  "APPLICATION/JSON",
  FORM_CONTENT_TYPE,
  "multipart/form-data; boundary=x",
  JSON_API_CONTENT_TYPE,
  "application/json;;",
  ";",
  "application/json, text/plain",
];
const OTHER_FETCH_SITES = ["cross-site", "same-site", "none", "SAME-ORIGIN"];
const otherBearers = (token: string) => [
  "Bearer",
  "Bearer x",
  `Basic ${token}`,
  `bearer  ${token}`,
  `Bearer ${token}x`,
  `Bearer ${"a".repeat(4_000)}`,
];

/** The no-JavaScript form's bodies: its fields from SignupForm, and raw form text with repeated fields and broken encodings. */
const formBodies: fc.Arbitrary<BodySpec> = fc.oneof(
  valuesOf(inputSchemaOf(SignupForm)).map((fields) => ({ text: new URLSearchParams(fields as Record<string, string>).toString() })),
  fc.constantFrom(
    { text: "email=%E0%A4%A&first_name=Dana&last_name=Quinn" },
    { text: "email=a%40example.com&email=b%40example.com&first_name=Dana&last_name=Quinn" },
    { text: "%=&=%&&=" },
    { text: "email=fuzz.form%40example.com&first_name=%00&last_name=%E2%80%AE" },
    { text: "page=%2F%2Fevil.example%2F&email=x" },
    { text: "page=javascript:alert(1)&email=x" },
  ),
  fc.string().map((text) => ({ text })),
  fc.constant({ large: LARGE_BODY_BYTES, member: "email" }),
);

/** A path that is none of the API's: under /api/ and elsewhere, odd segments among them. */
const unknownPaths = fc.oneof(
  fc
    .tuple(fc.constantFrom("/api/", "/api/console/", "/", "/api/hooks/", "/api/signups/"), pathIds)
    .map(([prefix, id]) => `${prefix}${id}x`),
  fc.constantFrom("/api", "/api/", "/api//signups", "/API/signups", "/api/signups/", "/api/console", "/api/status/", "/api/%2e%2e/signups"),
);

/** A route's paths: its parameters from their schema (encoded), odd path ids, and the seeded person's id. */
function pathsOf(route: ApiRoute, { subjectId }: Seed): fc.Arbitrary<string> {
  if (!route.params) return fc.constant(route.path);
  const names = Object.keys((route.path.match(/:\w+/g) ?? []).reduce((all, name) => ({ ...all, [name.slice(1)]: true }), {}));
  const fromSchema = valuesOf(inputSchemaOf(route.params)).map((params) =>
    Object.fromEntries(names.map((name) => [name, encodeURIComponent(wellFormed(String((params as Record<string, unknown>)[name])))])),
  );
  const odd = fc.record(Object.fromEntries(names.map((name) => [name, pathIds])));
  const seeded = fc.constant(Object.fromEntries(names.map((name) => [name, subjectId])));
  return fc.oneof(fromSchema, odd, seeded).map((values) => route.path.replace(/:(\w+)/g, (_, name: string) => values[name]));
}

/** What a legitimate caller of each kind sends to prove who it is (the console's operator is `npm start`'s local one). */
function credentials(security: Security | undefined, { statusToken }: Seed): Pick<FuzzRoute, "headers" | "alternatives"> {
  const token =
    security === "statusToken"
      ? statusToken
      : security === "webhookSecret"
        ? WEBHOOK_SECRET
        : security === "checkInSecret"
          ? CHECK_IN_SECRET
          : null;
  return token === null
    ? { headers: {}, alternatives: {} }
    : { headers: { authorization: `Bearer ${token}` }, alternatives: { authorization: otherBearers(token) } };
}

/** The fuzz test's routes: each route of the table once per media type it takes, and the paths the API lacks. */
function routes(seed: Seed): FuzzRoute[] {
  const fuzzRoutes = API_ROUTES.flatMap((route): FuzzRoute[] => {
    const { headers, alternatives } = credentials(route.security, seed);
    const base = {
      route,
      path: pathsOf(route, seed),
      alternatives: { origin: OTHER_ORIGINS, "content-type": OTHER_CONTENT_TYPES, "sec-fetch-site": OTHER_FETCH_SITES, ...alternatives },
    };
    const name = `${route.method.toUpperCase()} ${route.path}`;
    const origin = { origin: LOCAL_ORIGIN };
    const { body: bodies } = route;
    if (!bodies) return [{ ...base, name, headers: { ...origin, ...headers } }];
    return Object.entries(bodies).map(([type, schema]) => {
      const sample = SAMPLES[route.id];
      if (type !== FORM_CONTENT_TYPE && !sample) throw new Error(`SAMPLES has no body of ${route.id}: add a valid one.`);
      const body = type === FORM_CONTENT_TYPE ? formBodies : jsonBodies(schema, sample);
      const named = Object.keys(bodies).length > 1 ? `${name} (${type})` : name;
      return { ...base, name: named, body, headers: { ...origin, ...headers, "content-type": type } };
    });
  });
  const anyBody = jsonBodies(API_ROUTES[0].body![JSON_CONTENT_TYPE]!, SAMPLES.createSignup);
  return [
    ...fuzzRoutes,
    {
      name: "any method, unknown path",
      path: unknownPaths,
      body: anyBody,
      headers: {},
      alternatives: { "content-type": OTHER_CONTENT_TYPES },
    },
  ];
}

/** The requests of a route: mostly its own method, now and then any other. */
function requestsOf(route: FuzzRoute): fc.Arbitrary<RequestSpec> {
  const own = route.route?.method.toUpperCase();
  return fc.record({
    method: own
      ? fc.oneof({ weight: 6, arbitrary: fc.constant(own) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) })
      : fc.constantFrom(...METHODS),
    path: route.path,
    query: queries(route.route?.query, route.route && QUERY_SAMPLES[route.route.id]),
    headers: headerVariants(route.headers, route.alternatives),
    ip: clientIps,
    body: route.body ?? fc.constant(undefined),
  });
}

/** Send a request as described: a fresh client address for "fresh", no body on GET and HEAD. */
function send(spec: RequestSpec): Promise<Response> {
  const headers = new Headers(spec.headers);
  if (spec.ip !== null) headers.set("cf-connecting-ip", spec.ip === "fresh" ? nextClientIp() : spec.ip);
  const body = spec.body === undefined || spec.method === "GET" || spec.method === "HEAD" ? undefined : bodyText(spec.body);
  return service.fetch(`${spec.path}${queryText(spec.query)}`, { method: spec.method, headers, body, redirect: "manual" });
}

/** Whether a body is JSON text at all (a 400 for one that is not has no member to point at). */
function parses(spec: RequestSpec): boolean {
  if (spec.body === undefined) return false;
  try {
    JSON.parse(bodyText(spec.body));
    return true;
  } catch {
    return false;
  }
}

/** Per route: requests sent (shrinking's included), those that broke a rule, and how many got each status. */
const tally = new Map<string, { tried: number; failed: number; statuses: Map<number, number> }>();

/**
 * Send one request and hold its answer to the API's rules.
 * @throws an assertion error naming the rule broken, the status and the answer's text
 */
async function answersWell(spec: RequestSpec, statuses: Map<number, number>): Promise<void> {
  const before = await storeState(service);
  const response = await send(spec);
  const { status } = response;
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const text = await response.text();
  const answer = `${status} ${text.slice(0, 500)}`;
  expect(status, `never a 5xx: ${answer}`).toBeLessThan(500);
  // The service's fetch has checked the rest against the OpenAPI description: the status is one the route declares (a
  // path the API lacks is 404, a method the path does not take 405), and the body is the declared document.

  let refused = status >= 400;
  if (status >= 300 && status < 400) {
    const location = new URL(response.headers.get("location") ?? "", service.origin);
    expect(location.origin, "a redirect stays on the site").toBe(service.origin);
    refused = location.pathname !== SUCCESS_PATH;
  }
  const { pathname } = new URL(spec.path, service.origin);
  const notDecoded = undecodable(pathname);
  const page = !isApiPath(pathname);
  if (page) {
    // A path outside the API is a page: the static build answers it, 404 for one the build lacks (its 404 page on a
    // GET), 405 for a method no file takes, or a redirect to its canonical path (on the site: checked above); a path
    // that does not decode is a bare 400.
    expect(
      status === 404 || status === 405 || (status >= 300 && status < 400) || (notDecoded && status === 400),
      `a page the build lacks: ${answer}`,
    ).toBe(true);
  } else if (status >= 400 && spec.method !== "HEAD") {
    const { errors } = ErrorDocument.parse(JSON.parse(text));
    expect(errors[0].status, answer).toBe(String(status));
    if (status === 400)
      for (const error of errors)
        // The body or the path as a whole at fault: no member or parameter to name.
        if (!(error.code === "invalid_json" && !parses(spec)) && !(error.code === "path_invalid" && notDecoded))
          expect(error.source?.pointer ?? error.source?.parameter, `a 400 names the member or parameter at fault: ${answer}`).toEqual(
            expect.any(String),
          );
  }
  if (refused) expect(await storeState(service), `a refused request stores nothing: ${answer}`).toBe(before);
}

beforeAll(async () => {
  // Turnstile checked through the loopback siteverify with the always-passing test secret: every token sent reaches it.
  siteverify = await startSiteverifyStandIn();
  service = startWaitlistService({
    origin: LOCAL_ORIGIN,
    vars: {
      CONSOLE_LOCAL_OPERATOR: OPERATOR,
      KLAVIYO_WEBHOOK_SECRET: WEBHOOK_SECRET,
      LAUNCH_CHECKIN_SECRET: CHECK_IN_SECRET,
      TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRETS.passes,
      TURNSTILE_VERIFY_URL: siteverify.verifyUrl,
    },
  });
  for (const email of [HOLDER_EMAIL, SUBJECT_EMAIL])
    expect(
      (await postSignup(service, { email, firstName: "Fuzz", lastName: "Tester", turnstileToken: TURNSTILE_DUMMY_TOKEN })).status,
    ).toBe(202);
  seed = { statusToken: (await welcomeOf(service, HOLDER_EMAIL)).statusToken, subjectId: (await welcomeOf(service, SUBJECT_EMAIL)).id };
});

afterAll(async () => {
  const lines = [...tally].map(([name, { tried, failed, statuses }]) => {
    const answers = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
    return `${String(tried).padStart(7)} ${String(failed).padStart(5)}  ${name}  (${answers.join(" ")})`;
  });
  const total = [...tally.values()].reduce((sum, { tried, failed }) => [sum[0] + tried, sum[1] + failed], [0, 0]);
  console.log(
    [
      "requests failed  route  (answers by status)",
      ...lines,
      `${String(total[0]).padStart(7)} ${String(total[1]).padStart(5)}  all routes`,
    ].join("\n"),
  );
  // After a long run the stand-in host may have closed the pooled connection this call would reuse: once more on a new one.
  await siteverify?.close().catch(() => siteverify.close());
});

it("starts from a body each route takes", () => {
  for (const route of API_ROUTES) {
    const schema = route.body?.[JSON_CONTENT_TYPE];
    if (schema) expect(schema.safeParse(SAMPLES[route.id]).error, route.id).toBeUndefined();
  }
});

describe("every route of the API, fuzzed", () => {
  // The routes' arbitraries need the seeded people; their names do not.
  for (const { name } of routes({ statusToken: "", subjectId: "" }))
    it(`${name}: never a 5xx, refusals are JSON:API errors naming the field, and store nothing`, async () => {
      const route = routes(seed).find((candidate) => candidate.name === name)!;
      const count = { tried: 0, failed: 0, statuses: new Map<number, number>() };
      tally.set(name, count);
      await fc.assert(
        fc.asyncProperty(requestsOf(route), async (spec) => {
          count.tried += 1;
          try {
            await answersWell(spec, count.statuses);
          } catch (error) {
            count.failed += 1;
            throw error;
          }
        }),
        { numRuns: RUNS },
      );
    });
});
