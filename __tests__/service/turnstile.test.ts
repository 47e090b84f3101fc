/**
 * Turnstile with Cloudflare's always-passing test secret (`1x…AA`), through a loopback siteverify that answers as
 * Cloudflare documents: what the Worker sends it, when it does not ask at all, what a visitor gets when siteverify
 * itself fails, and a token siteverify accepts but that was solved elsewhere (another site, another widget's action).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSiteverifyStandIn, type SiteverifyStandInClient } from "./support/stand-ins";
import { TURNSTILE_DUMMY_TOKEN, TURNSTILE_TEST_SECRETS } from "./support/turnstile-test-keys";
import { errorsOf, postSignup, rowsFor, startWaitlistService, type WaitlistService } from "./support/service";
import { TURNSTILE_SIGNUP_ACTION } from "../../shared/contract";

let siteverify: SiteverifyStandInClient;
let service: WaitlistService;

beforeAll(async () => {
  siteverify = await startSiteverifyStandIn();
  service = startWaitlistService({
    vars: { TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRETS.passes, TURNSTILE_VERIFY_URL: siteverify.verifyUrl },
  });
});

afterAll(() => siteverify?.close());

beforeEach(() => siteverify.reset());

let addressNumber = 0;
function signup(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  addressNumber += 1;
  return {
    email: `verified.${addressNumber}@example.com`,
    firstName: "Alan",
    lastName: "Turing",
    turnstileToken: TURNSTILE_DUMMY_TOKEN,
    ...overrides,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

it("stores a signup whose token siteverify accepts, after sending it the secret, token, client IP and an idempotency key", async () => {
  const body = signup();
  const response = await postSignup(service, body, { ip: "203.0.113.9" });

  expect(response.status).toBe(202);
  expect(await siteverify.calls()).toEqual([
    {
      secret: TURNSTILE_TEST_SECRETS.passes,
      response: TURNSTILE_DUMMY_TOKEN,
      remoteip: "203.0.113.9",
      idempotency_key: expect.stringMatching(UUID) as unknown,
    },
  ]);
  expect(await rowsFor(service, body.email as string)).toHaveLength(1);
});

it("checks the no-JavaScript form's widget token (cf-turnstile-response) too", async () => {
  const email = "form.verified@example.com";
  const form = new URLSearchParams({
    email,
    first_name: "Alan",
    last_name: "Turing",
    "cf-turnstile-response": TURNSTILE_DUMMY_TOKEN,
    page: "/",
  });
  const response = await postSignup(service, form);
  expect(response.status).toBe(303);
  expect(new URL(response.headers.get("location") ?? "").pathname).toBe("/success/");
  expect((await siteverify.calls()).map((call) => call.response)).toEqual([TURNSTILE_DUMMY_TOKEN]);
  expect(await rowsFor(service, email)).toHaveLength(1);
});

it.each([
  ["no token", { turnstileToken: undefined }],
  ["an empty token", { turnstileToken: "  " }],
  ["a token over Cloudflare's 2048 characters", { turnstileToken: "t".repeat(2_049) }],
])("refuses %s with 403 without asking siteverify, storing nothing", async (_case, overrides) => {
  const body = signup(overrides);
  const response = await postSignup(service, body);
  expect(response.status).toBe(403);
  expect((await errorsOf(response))[0].code).toBe("turnstile_failed");
  expect(await siteverify.calls()).toEqual([]);
  expect(await rowsFor(service, body.email as string)).toEqual([]);
});

it("does not spend the visitor's token on a signup the rules refuse first", async () => {
  expect((await postSignup(service, signup({ lastName: "" }))).status).toBe(400);
  expect(await siteverify.calls()).toEqual([]);
});

it("judges the honeypot after Turnstile, so a bot that fails the check learns nothing of the trap", async () => {
  const caught = signup({ website: "bot" });
  expect((await postSignup(service, caught)).status).toBe(202);
  expect(await siteverify.calls()).toHaveLength(1);
  expect(await rowsFor(service, caught.email as string)).toEqual([]);
});

it("asks once more, with the same idempotency key, when siteverify fails once", async () => {
  await siteverify.failNext(1);
  const body = signup();
  expect((await postSignup(service, body)).status).toBe(202);
  expect(await siteverify.calls()).toHaveLength(2);
  const calls = await siteverify.calls();
  expect(calls[1].idempotency_key).toBe(calls[0].idempotency_key);
  expect(await rowsFor(service, body.email as string)).toHaveLength(1);
});

it("answers 503 with Retry-After when siteverify keeps failing, storing nothing", async () => {
  await siteverify.failNext(2);
  const body = signup();
  const response = await postSignup(service, body);
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
  expect((await errorsOf(response))[0].code).toBe("unavailable");
  expect(await rowsFor(service, body.email as string)).toEqual([]);
});

describe("a token siteverify accepts, solved somewhere else", () => {
  it.each([
    ["another hostname", { hostname: "token-farm.example", action: TURNSTILE_SIGNUP_ACTION }, "hostname-mismatch"],
    [
      "a hostname that only starts like the site's",
      { hostname: "waitlist.example.token-farm.example", action: TURNSTILE_SIGNUP_ACTION },
      "hostname-mismatch",
    ],
    ["another action", { hostname: "waitlist.example", action: "login" }, "action-mismatch"],
    ["no action", { hostname: "waitlist.example", action: "" }, "action-mismatch"],
  ])("a Turnstile answer for %s is refused as a failed challenge is, storing nothing", async (_case, widget, reason) => {
    await siteverify.solvedOn(widget);
    const body = signup();
    const response = await postSignup(service, body);
    expect(response.status).toBe(403);
    expect(await errorsOf(response)).toEqual([
      { status: "403", code: "turnstile_failed", detail: expect.stringContaining(reason) as unknown },
    ]);
    expect(await siteverify.calls()).toHaveLength(1);
    expect(await rowsFor(service, body.email as string)).toEqual([]);

    const form = new URLSearchParams({
      email: "farmed.form@example.com",
      first_name: "Eve",
      last_name: "Bot",
      "cf-turnstile-response": TURNSTILE_DUMMY_TOKEN,
      page: "/",
    });
    const refused = await postSignup(service, form);
    expect(refused.status).toBe(303);
    expect(new URL(refused.headers.get("location") ?? "").hash).toBe("#signup-error-verificationFailed");
  });
});
