/**
 * The referral program's server side with referrals counted at signup (the test settings' countAfter), against the
 * Worker in workerd (the Workers pool) and its local D1: a new person's standing (read through the status link their
 * welcome e-mail carries: the signup's answer carries none), a friend's signup through a referral link
 * (JSON `ref`, or the no-JavaScript form's Referer), the status page's endpoint, the rows-read header, and one test per
 * fair-play rule, with many friends joining at once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  errorsOf,
  nextClientIp,
  postSignup,
  startWaitlistService,
  TEST_SETTINGS,
  type WaitlistService,
  welcomeOf,
} from "./support/service";

let service: WaitlistService;

beforeAll(() => {
  // The fair-play limits would hold this file's crowds of referrals; they have tests of their own (fair-play.test.ts).
  service = startWaitlistService({ vars: { REFERRALS_PER_CODE_PER_HOUR: "1000", REFERRALS_PER_DOMAIN_PER_HOUR: "1000" } });
});

/** A person's standing as their status link reads it (GET /api/status), with their row's id. */
interface Standing {
  id: string;
  referralCode: string;
  referralUrl: string;
  position: number;
  referrals: number;
  entries: number;
  statusUrl: string;
}

let addressNumber = 0;
/** An address no other test uses. */
function newAddress(label = "friend"): string {
  addressNumber += 1;
  return `${label}.${addressNumber}@example.com`;
}

/**
 * Sign up as the page does; the answer's status, and the person's standing now, read through the status link their
 * welcome e-mail carries (support/service.ts: welcomeOf).
 */
async function signUp(
  body: Record<string, unknown> = {},
  ip: string = nextClientIp(),
): Promise<{ status: number; standing: Standing; response: Response }> {
  const email = typeof body.email === "string" ? body.email : newAddress();
  const response = await postSignup(service, { firstName: "Jordan", lastName: "Smith", ...body, email }, { ip });
  expect(response.status).toBe(202);
  const welcome = await welcomeOf(service, email);
  const status = await getStatus(welcome.statusToken);
  expect(status.status).toBe(200);
  const { referralCode, referralUrl, position, referrals, entries, statusUrl } = await status.json<Standing>();
  const standing = { id: welcome.id, referralCode, referralUrl, position, referrals, entries, statusUrl };
  return { status: response.status, standing, response };
}

/** The token of a status link. */
function tokenOf(statusUrl: string | undefined): string {
  const token = new URL(statusUrl ?? "").hash.replace(/^#t=/, "");
  expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  return token;
}

/** GET /api/status as the status page sends it. */
function getStatus(token: string | null, headers: Record<string, string> = {}): Promise<Response> {
  return service.fetch(`${service.origin}/api/status`, {
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), "sec-fetch-site": "same-origin", ...headers },
  });
}

/** A person's stored referral columns. */
interface ReferralColumns {
  referrals: number;
  referred_by: string | null;
  flags: string | null;
  referral_counted_at: string | null;
}

async function columnsOf(id: string): Promise<ReferralColumns> {
  const [row] = await service.query<ReferralColumns>(
    "SELECT referrals, referred_by, flags, referral_counted_at FROM signups WHERE id = ?1",
    id,
  );
  return row;
}

/** The rows D1 read for an answer, from its Server-Timing header; null without one. */
function rowsReadOf(response: Response): number | null {
  const match = /d1-rows-read;desc="(\d+)"/.exec(response.headers.get("server-timing") ?? "");
  return match ? Number(match[1]) : null;
}

describe("a new person", () => {
  it("gets a code, a link to share, a place at the end of the line, one entry and a status link", async () => {
    const { status, standing } = await signUp();
    expect(status).toBe(202);
    const [{ total }] = await service.query<{ total: number }>("SELECT count(*) AS total FROM signups");
    expect(standing).toMatchObject({
      referralCode: expect.stringMatching(/^[2-9A-HJ-NP-Za-km-z]{8}$/) as unknown,
      referralUrl: `${TEST_SETTINGS.siteUrl}/?ref=${standing.referralCode}`,
      position: total,
      referrals: 0,
      entries: 1,
    });
    expect(standing.statusUrl).toMatch(new RegExp(`^${TEST_SETTINGS.siteUrl}/status/#t=`));
  });

  it("stores only the status token's hash for good (the token itself only until delivery settles)", async () => {
    const { standing } = await signUp();
    const token = tokenOf(standing.statusUrl);
    const [row] = await service.query<{ status_token_hash: string; delivery_state: string; status_token: string | null }>(
      "SELECT status_token_hash, delivery_state, status_token FROM signups WHERE id = ?1",
      standing.id,
    );
    expect(row.status_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.status_token_hash).not.toContain(token);
    // Demo delivery (no Klaviyo key) settles at the queue consumer's first attempt and drops the token.
    await service.deliver();
    expect(await columnsOfDelivery(standing.id)).toEqual({ delivery_state: "demo", status_token: null });
  });
});

async function columnsOfDelivery(id: string): Promise<{ delivery_state: string; status_token: string | null }> {
  const [row] = await service.query<{ delivery_state: string; status_token: string | null }>(
    "SELECT delivery_state, status_token FROM signups WHERE id = ?1",
    id,
  );
  return row;
}

describe("a friend who signs up through a referral link", () => {
  it("counts for the referrer at once: one more referral, placesPerReferral places up, one more entry", async () => {
    // People ahead of the referrer, so that moving up has somewhere to go, and behind, so that the line is longer.
    for (let i = 0; i < TEST_SETTINGS.referrals.placesPerReferral + 5; i += 1) await signUp();
    const referrer = (await signUp({ firstName: "Ana" })).standing;
    for (let i = 0; i < TEST_SETTINGS.referrals.placesPerReferral + 2; i += 1) await signUp();
    const before = await (await getStatus(tokenOf(referrer.statusUrl))).json<Standing>();

    const friend = await signUp({ ref: referrer.referralCode });

    expect(friend.status).toBe(202);
    expect(await columnsOf(friend.standing.id)).toMatchObject({ referred_by: referrer.id, flags: null });
    const after = await (await getStatus(tokenOf(referrer.statusUrl))).json<Standing>();
    expect(after).toMatchObject({ referrals: 1, entries: 1 + TEST_SETTINGS.referrals.entriesPerReferral });
    expect(before.position).toBeGreaterThan(TEST_SETTINGS.referrals.placesPerReferral);
    expect(after.position).toBe(before.position - TEST_SETTINGS.referrals.placesPerReferral);
  });

  it("counts through the no-JavaScript form: the code comes from the Referer of a page of the site", async () => {
    const referrer = (await signUp()).standing;
    const form = new URLSearchParams({ email: newAddress("form"), first_name: "Noor", last_name: "Haddad", page: "/" });
    const response = await postSignup(service, form, {
      headers: { referer: `${service.origin}/?ref=${referrer.referralCode}&utm_source=x` },
    });
    expect(response.status).toBe(303);
    expect(await columnsOf(referrer.id)).toMatchObject({ referrals: 1 });
  });

  it("ignores the Referer of another site", async () => {
    const referrer = (await signUp()).standing;
    const form = new URLSearchParams({ email: newAddress("form"), first_name: "Noor", last_name: "Haddad", page: "/" });
    const response = await postSignup(service, form, { headers: { referer: `https://elsewhere.example/?ref=${referrer.referralCode}` } });
    expect(response.status).toBe(303);
    expect(await columnsOf(referrer.id)).toMatchObject({ referrals: 0 });
  });
});

describe("fair play", () => {
  it("one person: Jo.Do+1@Gmail.com and jodo@gmail.com are the same row", async () => {
    const local = `jodo${Date.now()}`;
    const first = await signUp({ email: `${local}@gmail.com` });
    const second = await signUp({ email: `${local.slice(0, 2)}.${local.slice(2)}+1@Gmail.com`.replace(/^j/, "J") });
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(await service.query("SELECT id FROM signups WHERE email_key = ?1", `${local}@gmail.com`)).toEqual([{ id: first.standing.id }]);
  });

  it("signing up twice credits nobody twice", async () => {
    const referrer = (await signUp()).standing;
    const email = newAddress("twice");
    expect((await signUp({ email, ref: referrer.referralCode })).status).toBe(202);
    expect((await signUp({ email, ref: referrer.referralCode })).status).toBe(202);
    expect((await signUp({ email: email.toUpperCase(), ref: referrer.referralCode })).status).toBe(202);
    expect(await columnsOf(referrer.id)).toMatchObject({ referrals: 1 });
  });

  it("nobody refers themselves: not with their own code, nor with a second spelling of their own address", async () => {
    const local = `self${Date.now()}`;
    const me = (await signUp({ email: `${local}@gmail.com` })).standing;
    const again = await signUp({ email: `${local}@gmail.com`, ref: me.referralCode });
    const respelled = await signUp({ email: `${local.slice(0, 2)}.${local.slice(2)}+more@googlemail.com`, ref: me.referralCode });
    expect([again.status, respelled.status]).toEqual([202, 202]);
    expect(await service.query("SELECT id FROM signups WHERE email_key = ?1", `${local}@gmail.com`)).toEqual([{ id: me.id }]);
    expect(await columnsOf(me.id)).toMatchObject({ referrals: 0, referred_by: null });
  });

  it("the first referrer only: a later link changes nothing", async () => {
    const first = (await signUp()).standing;
    const second = (await signUp()).standing;
    const email = newAddress("courted");
    const friend = await signUp({ email, ref: first.referralCode });
    await signUp({ email, ref: second.referralCode });
    expect(await columnsOf(friend.standing.id)).toMatchObject({ referred_by: first.id });
    expect((await columnsOf(first.id)).referrals).toBe(1);
    expect((await columnsOf(second.id)).referrals).toBe(0);
  });

  it("a friend from the referrer's own IP counts, flagged for review", async () => {
    const ip = nextClientIp();
    const referrer = (await signUp({}, ip)).standing;
    const sameIp = await signUp({ ref: referrer.referralCode }, ip);
    const otherIp = await signUp({ ref: referrer.referralCode });
    expect(await columnsOf(sameIp.standing.id)).toMatchObject({ flags: "same_ip_as_referrer" });
    expect(await columnsOf(otherIp.standing.id)).toMatchObject({ flags: null });
    expect((await columnsOf(referrer.id)).referrals).toBe(2);
  });

  it("a disposable address never counts", async () => {
    const referrer = (await signUp()).standing;
    const response = await postSignup(service, {
      email: "burner@mailinator.com",
      firstName: "Bo",
      lastName: "Gus",
      ref: referrer.referralCode,
    });
    expect(response.status).toBe(400);
    expect(await columnsOf(referrer.id)).toMatchObject({ referrals: 0 });
  });

  it("a filled honeypot never counts", async () => {
    const referrer = (await signUp()).standing;
    const response = await postSignup(service, {
      email: newAddress("bot"),
      firstName: "Bo",
      lastName: "Gus",
      website: "https://spam.example",
      ref: referrer.referralCode,
    });
    expect(response.status).toBe(202);
    expect(await columnsOf(referrer.id)).toMatchObject({ referrals: 0 });
  });

  it("a filled honeypot gets a newcomer's very answer, and no code or status link", async () => {
    const real = await postSignup(service, { email: newAddress(), firstName: "Jordan", lastName: "Smith" });
    const email = newAddress("bot");
    const caught = await postSignup(service, { email, firstName: "Jordan", lastName: "Smith", website: "https://spam.example" });

    expect(caught.status).toBe(202);
    expect(await caught.text()).toBe(await real.text());
    expect(await service.query("SELECT id FROM signups WHERE email = ?1", email)).toEqual([]);
  });

  it("100 friends joining at once count exactly 100, and every place in line stays distinct", async () => {
    const referrer = (await signUp()).standing;
    const answers = await Promise.all(Array.from({ length: 100 }, () => signUp({ ref: referrer.referralCode })));

    expect(answers.map(({ status }) => status)).toEqual(Array.from({ length: 100 }, () => 202));
    expect(await columnsOf(referrer.id)).toMatchObject({ referrals: 100 });
    const [{ counted }] = await service.query<{ counted: number }>(
      "SELECT count(*) AS counted FROM signups WHERE referred_by = ?1 AND referral_counted_at IS NOT NULL",
      referrer.id,
    );
    expect(counted).toBe(100);

    // Everyone's position from the rank tree (through the status endpoint) against the rule computed in SQL over all rows.
    const expected = new Map(
      (
        await service.query<{ id: string; position: number }>(
          "SELECT id, row_number() OVER (ORDER BY score, referrals DESC, seq) AS position FROM signups WHERE score IS NOT NULL",
        )
      ).map(({ id, position }) => [id, position]),
    );
    const people = [referrer, ...answers.map(({ standing }) => standing)];
    const positions = await Promise.all(
      people.map(async (person) => (await (await getStatus(tokenOf(person.statusUrl))).json<Standing>()).position),
    );
    expect(new Set(positions).size).toBe(people.length);
    expect(positions).toEqual(people.map((person) => expected.get(person.id)));
    expect([...expected.values()].sort((a, b) => a - b)).toEqual(Array.from({ length: expected.size }, (_, index) => index + 1));
  });
});

describe("GET /api/status", () => {
  it("answers the person's standing and their leaderboard choice (hidden until they choose), and no invitation while they wait, never cached", async () => {
    const me = (await signUp()).standing;
    const response = await getStatus(tokenOf(me.statusUrl));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const { referralCode, referralUrl, position, referrals, entries, statusUrl } = me;
    expect(await response.json()).toEqual({
      referralCode,
      referralUrl,
      position,
      referrals,
      entries,
      statusUrl,
      leaderboardShown: false,
      invitation: null,
    });
  });

  it.each([
    ["no Authorization header", null],
    ["a malformed token", "not a token"],
    ["an unknown token", "A".repeat(32)],
  ])("answers 401 with a JSON:API error and a Bearer challenge for %s", async (_case, token) => {
    const response = await getStatus(token);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await errorsOf(response))[0].code).toBe("unknown_status_token");
  });

  it("refuses another site's page with 403", async () => {
    const me = (await signUp()).standing;
    const response = await getStatus(tokenOf(me.statusUrl), { "sec-fetch-site": "cross-site" });
    expect(response.status).toBe(403);
  });

  it("answers POST with 405 and Allow: GET", async () => {
    const response = await service.fetch(`${service.origin}/api/status`, { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });
});

describe("Server-Timing: the rows D1 read", () => {
  it("is on a referred signup, a status lookup and a leaderboard read, as a count and nothing else", async () => {
    const referrer = await signUp();
    const friend = await signUp({ ref: referrer.standing.referralCode });
    const status = await getStatus(tokenOf(referrer.standing.statusUrl));
    const leaderboard = await service.fetch(`${service.origin}/api/leaderboard`);
    for (const response of [referrer.response, friend.response, status, leaderboard]) {
      expect(response.headers.get("server-timing")).toMatch(/^d1-rows-read;desc="\d+"$/);
      expect(rowsReadOf(response)).toBeGreaterThan(0);
    }
  });

  it("is absent from an answer that read nothing (a refused request)", async () => {
    const response = await postSignup(service, { email: "", firstName: "A", lastName: "B" });
    expect(response.status).toBe(400);
    expect(response.headers.get("server-timing")).toBeNull();
  });
});

describe("POST /api/hooks/klaviyo/confirmed without KLAVIYO_WEBHOOK_SECRET", () => {
  it("answers 503 not_configured, whatever it is sent", async () => {
    const response = await service.fetch(`${service.origin}/api/hooks/klaviyo/confirmed`, {
      method: "POST",
      headers: { authorization: "Bearer guess", "content-type": "application/json" },
      body: JSON.stringify({ email: "someone@example.com" }),
    });
    expect(response.status).toBe(503);
    expect((await errorsOf(response))[0].code).toBe("not_configured");
  });
});

it("holds no address or name in the Worker's log", () => {
  const output = service.output().toLowerCase();
  expect(output).not.toContain("@example.com");
  expect(output).not.toContain("jordan");
});
