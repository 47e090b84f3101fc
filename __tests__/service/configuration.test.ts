/**
 * A production Worker that lacks what it needs takes no signups: without the Klaviyo private API key it would store
 * signups that never reach the list (demo delivery), without the Turnstile secret bots would reach it, without the IP
 * hash salt the stored hashes could be reversed, and without the build's service-settings.json it has no list. It
 * answers 503 `not_configured`, names what is missing in its log (never in the answer), and stores nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { errorsOf, postSignup, rowCount, startWaitlistService, TEST_SETTINGS, type WaitlistService } from "./support/service";

let service: WaitlistService;

beforeAll(() => {
  service = startWaitlistService({ vars: { ENVIRONMENT: "production" }, settings: null });
});

it("answers 503 not_configured and stores nothing", async () => {
  const response = await postSignup(service, { email: "early.bird@example.com", firstName: "Early", lastName: "Bird" });

  expect(response.status).toBe(503);
  const [error] = await errorsOf(response);
  expect(error.code).toBe("not_configured");
  expect(error.detail).not.toMatch(/KLAVIYO|TURNSTILE|SALT/);
  expect(await rowCount(service)).toBe(0);
});

it("names every missing secret and the missing settings file in its log", () => {
  const line = service
    .output()
    .split("\n")
    .find((text) => text.includes('"event":"signup_not_configured"'));
  expect(line).toBeDefined();
  for (const missing of ["KLAVIYO_PRIVATE_API_KEY", "TURNSTILE_SECRET_KEY", "IP_HASH_SALT", "service-settings.json"])
    expect(line).toContain(missing);
});

it("sends the no-JavaScript form back to the failure message", async () => {
  const form = new URLSearchParams({ email: "early.form@example.com", first_name: "Early", last_name: "Bird", page: "/" });
  const response = await postSignup(service, form);
  expect(response.status).toBe(303);
  expect(new URL(response.headers.get("location") ?? "").hash).toBe("#signup-error-subscriptionFailed");
  expect(await rowCount(service)).toBe(0);
});

describe("with referrals counted after confirmation", () => {
  let confirming: WaitlistService;

  beforeAll(() => {
    confirming = startWaitlistService({
      vars: { ENVIRONMENT: "production", KLAVIYO_PRIVATE_API_KEY: "pk_x", TURNSTILE_SECRET_KEY: "x", IP_HASH_SALT: "x" },
      settings: {
        ...TEST_SETTINGS,
        turnstileSiteKey: "1x00000000000000000000AA",
        referrals: { ...TEST_SETTINGS.referrals, countAfter: "confirmation" },
      },
    });
  });

  it("takes no signups without KLAVIYO_WEBHOOK_SECRET, which no referral could ever count without, and says so in its log", async () => {
    const response = await postSignup(confirming, { email: "early.friend@example.com", firstName: "Early", lastName: "Friend" });
    expect(response.status).toBe(503);
    expect((await errorsOf(response))[0].code).toBe("not_configured");
    expect(await rowCount(confirming)).toBe(0);
    const line = confirming
      .output()
      .split("\n")
      .find((text) => text.includes('"event":"signup_not_configured"'));
    expect(line).toContain("KLAVIYO_WEBHOOK_SECRET");
    expect(line).not.toContain("KLAVIYO_PRIVATE_API_KEY");
  });
});

describe("with a settings file whose referral rules are malformed", () => {
  let malformed: WaitlistService;

  beforeAll(() => {
    malformed = startWaitlistService({
      settings: { ...TEST_SETTINGS, referrals: { ...TEST_SETTINGS.referrals, countAfter: "never" as "signup" } },
    });
  });

  it("answers 503 not_configured and names the member at fault in its log", async () => {
    const response = await postSignup(malformed, { email: "early.rules@example.com", firstName: "Early", lastName: "Rules" });
    expect(response.status).toBe(503);
    expect(malformed.output()).toContain("referrals.countAfter must be one of");
  });
});
