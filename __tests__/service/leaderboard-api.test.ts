/**
 * GET /api/leaderboard against the Worker in workerd (the Workers pool): the top referrers who chose to be shown, by
 * counted referrals, with names masked ("First L."), at most `leaderboard.size`, and the edge cache (the Cache API)
 * that keeps a spike of readers off D1: a second read within the minute is the cached copy, even after the board
 * changed. Who is shown at all is leaderboard-visibility.test.ts's.
 */
import { beforeAll, expect, it } from "vitest";
import { postSignup, startWaitlistService, TEST_SETTINGS, type WaitlistService, welcomeOf } from "./support/service";

// An origin of its own: the Cache API's key is the board's URL, and no other file's board may answer for this one.
const SETTINGS = { ...TEST_SETTINGS, siteUrl: "https://leaderboard.waitlist.example", leaderboard: { size: 3 } };

let service: WaitlistService;

beforeAll(() => {
  service = startWaitlistService({ settings: SETTINGS });
});

let addressNumber = 0;

/**
 * Sign up (with a referral code, when given); the new person's referral code. At a consumer provider's domain, so the
 * fair-play limit per domain (fair-play.test.ts) does not hold any of these referrals.
 */
async function signUp(firstName: string, lastName: string, ref?: string): Promise<string> {
  addressNumber += 1;
  const email = `person.${addressNumber}@gmail.com`;
  const response = await postSignup(service, { email, firstName, lastName, ref });
  expect(response.status).toBe(202);
  return (await welcomeOf(service, email)).referralCode;
}

/** Sign up and choose to be shown on the leaderboard, as the status page does; the new person's referral code. */
async function signUpShown(firstName: string, lastName: string): Promise<string> {
  addressNumber += 1;
  const email = `person.${addressNumber}@example.com`;
  const response = await postSignup(service, { email, firstName, lastName });
  expect(response.status).toBe(202);
  const { referralCode, statusToken } = await welcomeOf(service, email);
  const choice = await service.fetch(`${service.origin}/api/status/leaderboard`, {
    method: "PUT",
    headers: { authorization: `Bearer ${statusToken}`, "content-type": "application/json" },
    body: JSON.stringify({ shown: true }),
  });
  expect(choice.status).toBe(200);
  return referralCode;
}

/** Give a person a name the signup rules refuse today, as a row stored before them may hold. */
async function renameStored(referralCode: string, firstName: string, lastName: string): Promise<void> {
  await service.query("UPDATE signups SET first_name = ?2, last_name = ?3 WHERE referral_code = ?1", referralCode, firstName, lastName);
}

function readBoard(): Promise<Response> {
  return service.fetch(`${service.origin}/api/leaderboard`, { headers: { "sec-fetch-site": "same-origin" } });
}

it("lists the top referrers, masked, best first, at most leaderboard.size, cached for a minute", async () => {
  const ana = await signUpShown("Ana", "López");
  const ben = await signUpShown("Ben", "o'Brien");
  const nameless = await signUpShown("Nameless", "Person");
  await renameStored(nameless, "@@", "-");
  const cai = await signUpShown("Cai", "Wu");
  const dee = await signUpShown("Dee", "Kay");
  await signUp("Nobody", "Referred");
  for (const [code, friends] of [
    [ana, 3],
    [ben, 2],
    [nameless, 2],
    [cai, 1],
    [dee, 1],
  ] as const) {
    for (let i = 0; i < friends; i += 1) await signUp("Friend", "Of", code);
  }

  const first = await readBoard();
  expect(first.status).toBe(200);
  expect(first.headers.get("cache-control")).toBe("public, max-age=60");
  expect(first.headers.get("server-timing")).toMatch(/^d1-rows-read;desc="\d+"$/);
  const text = await first.text();
  expect(text).not.toContain("@");
  // "@@" and "-" have no letter to show: rank 3 stays empty rather than move Cai up.
  expect(JSON.parse(text)).toEqual({
    entries: [
      { rank: 1, name: "Ana L.", referrals: 3 },
      { rank: 2, name: "Ben O.", referrals: 2 },
    ],
  });

  // Two more friends for Cai: the board changes in D1, and the cached copy is still what readers get, without a D1 read.
  await signUp("Friend", "Of", cai);
  await signUp("Friend", "Of", cai);
  await signUp("Friend", "Of", cai);
  const second = await readBoard();
  expect(second.status).toBe(200);
  expect(second.headers.get("server-timing")).toBeNull();
  expect(await second.text()).toBe(text);

  // Once the cached copy is gone (the minute is over, or a deploy), the service reads D1 again and shows the change.
  expect(await caches.default.delete(`${service.origin}/api/leaderboard`)).toBe(true);
  const third = await readBoard();
  expect(third.headers.get("server-timing")).toMatch(/^d1-rows-read/);
  expect(await third.json()).toEqual({
    entries: [
      { rank: 1, name: "Cai W.", referrals: 4 },
      { rank: 2, name: "Ana L.", referrals: 3 },
      { rank: 3, name: "Ben O.", referrals: 2 },
    ],
  });
});

it("refuses another site's page with 403 and other methods with 405", async () => {
  expect((await service.fetch(`${service.origin}/api/leaderboard`, { headers: { "sec-fetch-site": "cross-site" } })).status).toBe(403);
  const post = await service.fetch(`${service.origin}/api/leaderboard`, { method: "POST" });
  expect(post.status).toBe(405);
  expect(post.headers.get("allow")).toBe("GET");
});
