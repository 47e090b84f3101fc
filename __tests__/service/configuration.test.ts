/**
 * A production Worker that lacks what it needs takes no signups: without the Klaviyo private API key it would store
 * signups that never reach the list (demo delivery), without the Turnstile secret bots would reach it, without the IP
 * hash salt the stored hashes could be reversed, and without the build's service-settings.json it has no list. It
 * answers 503 `not_configured`, names what is missing in its log (never in the answer), and stores nothing.
 */
import { errorsOf, postSignup, rowCount, startWaitlistService, type WaitlistService } from "./support/waitlist-service";

let service: WaitlistService;

beforeAll(async () => {
  service = await startWaitlistService({ vars: { ENVIRONMENT: "production" }, settings: null });
});

afterAll(() => service?.stop());

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
