/**
 * The waitlist service with the referral program off (`referrals.enabled: false`): signups answer as ever, a `ref`
 * is ignored, no status link is made, and the program's endpoints do not exist.
 */
import { beforeAll, expect, it } from "vitest";
import { errorsOf, postSignup, startWaitlistService, TEST_SETTINGS, type WaitlistService } from "./support/service";

let service: WaitlistService;

beforeAll(() => {
  service = startWaitlistService({ settings: { ...TEST_SETTINGS, referrals: { ...TEST_SETTINGS.referrals, enabled: false } } });
});

it("answers a signup as with the program on, ignores ref and makes no status token", async () => {
  const first = await postSignup(service, { email: "first.off@example.com", firstName: "Ada", lastName: "Lee" });
  expect(first.status).toBe(202);
  expect(await first.json()).toEqual({ accepted: true });
  const [referrer] = await service.query<{ id: string; referral_code: string }>(
    "SELECT id, referral_code FROM signups WHERE email = 'first.off@example.com'",
  );

  const second = await postSignup(service, {
    email: "second.off@example.com",
    firstName: "Bo",
    lastName: "Lee",
    ref: referrer.referral_code,
  });
  expect(second.status).toBe(202);
  const rows = await service.query<{ referred_by: string | null; status_token_hash: string | null; referrals: number }>(
    "SELECT referred_by, status_token_hash, referrals FROM signups ORDER BY seq",
  );
  expect(rows).toEqual([
    { referred_by: null, status_token_hash: null, referrals: 0 },
    { referred_by: null, status_token_hash: null, referrals: 0 },
  ]);
});

it.each(["/api/status", "/api/leaderboard"])("answers %s with 404", async (path) => {
  const response = await service.fetch(`${service.origin}${path}`, { headers: { authorization: `Bearer ${"A".repeat(32)}` } });
  expect(response.status).toBe(404);
  expect((await errorsOf(response))[0].code).toBe("not_found");
});
