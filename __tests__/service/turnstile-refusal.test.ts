/**
 * Turnstile with Cloudflare's always-failing test secret (`2x…AA`), through the loopback siteverify: the signup is
 * refused with 403 and nothing is stored (so a referral it brings never counts); the no-JavaScript form's visitor is
 * sent back to the verification message.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSiteverifyStandIn, type SiteverifyStandInClient } from "./support/stand-ins";
import { TURNSTILE_DUMMY_TOKEN, TURNSTILE_TEST_SECRETS } from "./support/turnstile-test-keys";
import { errorsOf, postSignup, rowCount, rowsFor, startWaitlistService, type WaitlistService } from "./support/service";

let siteverify: SiteverifyStandInClient;
let service: WaitlistService;

beforeAll(async () => {
  siteverify = await startSiteverifyStandIn();
  service = startWaitlistService({
    vars: { TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRETS.fails, TURNSTILE_VERIFY_URL: siteverify.verifyUrl },
  });
});

afterAll(() => siteverify?.close());

it("refuses a signup whose token siteverify refuses with 403 turnstile_failed, storing nothing", async () => {
  const email = "refused.bot@example.com";
  const response = await postSignup(service, { email, firstName: "Eve", lastName: "Bot", turnstileToken: TURNSTILE_DUMMY_TOKEN });

  expect(response.status).toBe(403);
  const [error] = await errorsOf(response);
  expect(error).toEqual({ status: "403", code: "turnstile_failed", detail: expect.stringContaining("invalid-input-response") as unknown });
  expect(await siteverify.calls()).toHaveLength(1);
  expect(await rowsFor(service, email)).toEqual([]);
});

it("sends the no-JavaScript form back to the page's verification message", async () => {
  const form = new URLSearchParams({
    email: "refused.form@example.com",
    first_name: "Eve",
    last_name: "Bot",
    "cf-turnstile-response": TURNSTILE_DUMMY_TOKEN,
    page: "/spring/",
  });
  const response = await postSignup(service, form);
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get("location") ?? "");
  expect(`${location.pathname}${location.hash}`).toBe("/spring/#signup-error-verificationFailed");
  expect(await rowCount(service)).toBe(0);
});

it("never counts a referral for a signup Turnstile refused", async () => {
  // A referrer already on the list (stored directly: every signup through this service is refused).
  await service.query(
    `INSERT INTO signups (id, seq, email, email_key, first_name, last_name, created_at, referral_code, score)
     VALUES ('referrer-1', 1, 'host@example.com', 'host@example.com', 'Host', 'Person', '2026-01-01T00:00:00.000Z', 'HostCode', 1)`,
  );
  const response = await postSignup(service, {
    email: "refused.friend@example.com",
    firstName: "Eve",
    lastName: "Bot",
    turnstileToken: TURNSTILE_DUMMY_TOKEN,
    ref: "HostCode",
  });
  expect(response.status).toBe(403);
  expect(await service.query("SELECT referrals FROM signups WHERE id = 'referrer-1'")).toEqual([{ referrals: 0 }]);
  expect(await rowCount(service)).toBe(1);
});
