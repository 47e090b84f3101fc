/**
 * Who the public leaderboard shows, against the Worker in workerd (the Workers pool): nobody until they choose to be
 * shown from their status page (PUT /api/status/leaderboard with their status token), nobody after they hide again,
 * and a first name only when it passes the display check. Each board is read on a host of its own, so the edge cache
 * of one read never answers another.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  errorsOf,
  freshBoardNames,
  postSignup,
  startWaitlistService,
  TEST_SETTINGS,
  type WaitlistService,
  welcomeOf,
} from "./support/service";

let service: WaitlistService;

beforeAll(() => {
  service = startWaitlistService();
});

let addressNumber = 0;

/** A new person as their welcome e-mail gives them: their referral code and status token. */
interface Person {
  id: string;
  referralCode: string;
  token: string;
}

async function signUp(firstName = "Jordan", lastName = "Smith", ref?: string): Promise<Person> {
  addressNumber += 1;
  const email = `visible.${addressNumber}@gmail.com`;
  const response = await postSignup(service, { email, firstName, lastName, ref });
  expect(response.status).toBe(202);
  const { id, referralCode, statusToken } = await welcomeOf(service, email);
  return { id, referralCode, token: statusToken };
}

/** A referrer with `friends` counted referrals. */
async function referrer(friends: number, firstName = "Jordan", lastName = "Smith"): Promise<Person> {
  const person = await signUp(firstName, lastName);
  for (let i = 0; i < friends; i += 1) await signUp("Friend", "Of", person.referralCode);
  return person;
}

/** PUT /api/status/leaderboard as the status page sends it (its own origin, JSON); `token` null sends none. */
function choose(token: string | null, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return service.fetch(`${service.origin}/api/status/leaderboard`, {
    method: "PUT",
    headers: {
      origin: service.origin,
      "content-type": "application/json",
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function statusOf(person: Person): Promise<{ leaderboardShown: boolean }> {
  const response = await service.fetch(`${service.origin}/api/status`, {
    headers: { authorization: `Bearer ${person.token}`, "sec-fetch-site": "same-origin" },
  });
  expect(response.status).toBe(200);
  return response.json();
}

async function shownAtOf(person: Person): Promise<string | null> {
  const [row] = await service.query<{ leaderboard_shown_at: string | null }>(
    "SELECT leaderboard_shown_at FROM signups WHERE id = ?1",
    person.id,
  );
  return row.leaderboard_shown_at;
}

describe("nobody is shown who did not agree to be", () => {
  it("a public leaderboard lists nobody who did not choose to be shown", async () => {
    const quiet = await referrer(3, "Quinn", "Quiet");
    expect(await freshBoardNames(service)).not.toContain("Quinn Q.");
    expect(await statusOf(quiet)).toEqual(expect.objectContaining({ leaderboardShown: false }));
    expect(await shownAtOf(quiet)).toBeNull();
  });

  it("shows a person once they choose it on their status page, records when, and hides them again", async () => {
    const person = await referrer(2, "Avery", "Shown");
    const shown = await choose(person.token, { shown: true });
    expect(shown.status).toBe(200);
    expect(shown.headers.get("cache-control")).toBe("no-store");
    expect(await shown.json()).toEqual({ leaderboardShown: true });
    expect(await freshBoardNames(service)).toContain("Avery S.");
    expect(await statusOf(person)).toEqual(expect.objectContaining({ leaderboardShown: true }));
    const chosenAt = await shownAtOf(person);
    expect(chosenAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    // Choosing again keeps the time of the first choice.
    expect((await choose(person.token, { shown: true })).status).toBe(200);
    expect(await shownAtOf(person)).toBe(chosenAt);

    const hidden = await choose(person.token, { shown: false });
    expect(await hidden.json()).toEqual({ leaderboardShown: false });
    expect(await freshBoardNames(service)).not.toContain("Avery S.");
    expect(await statusOf(person)).toEqual(expect.objectContaining({ leaderboardShown: false }));
    expect(await shownAtOf(person)).toBeNull();
  });
});

describe("only the person can make the choice", () => {
  it("a stranger without the status link cannot show or hide anyone: 401, nothing changed", async () => {
    const person = await referrer(1, "Riley", "Private");
    for (const token of [null, "A".repeat(32), "not a token", `${person.token}x`]) {
      const response = await choose(token, { shown: true });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="waitlist"');
      expect((await errorsOf(response))[0].code).toBe("unknown_status_token");
    }
    expect(await shownAtOf(person)).toBeNull();
  });

  it("another site's page cannot show someone with their token (cross-site request): 403", async () => {
    const person = await referrer(1, "Casey", "Forged");
    const response = await choose(person.token, { shown: true }, { origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect((await errorsOf(response))[0].code).toBe("origin_not_allowed");
    expect(await shownAtOf(person)).toBeNull();
  });

  it('takes only JSON { "shown": true | false }: 400, 415 and 405 otherwise, nothing changed', async () => {
    const person = await referrer(1, "Drew", "Strict");
    for (const body of [{ shown: "yes" }, { shown: 1 }, {}, { shown: true, name: "x" }, [true], "not json"]) {
      const response = await choose(person.token, body);
      expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect((await choose(person.token, "shown=true", { "content-type": "application/x-www-form-urlencoded" })).status).toBe(415);
    const get = await service.fetch(`${service.origin}/api/status/leaderboard`, { headers: { authorization: `Bearer ${person.token}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("PUT");
    expect(await shownAtOf(person)).toBeNull();
  });

  it("does not exist while the referral program is off: 404", async () => {
    const off = startWaitlistService({ settings: { ...TEST_SETTINGS, referrals: { ...TEST_SETTINGS.referrals, enabled: false } } });
    const response = await off.fetch(`${off.origin}/api/status/leaderboard`, {
      method: "PUT",
      headers: { origin: off.origin, "content-type": "application/json", authorization: `Bearer ${"A".repeat(32)}` },
      body: JSON.stringify({ shown: true }),
    });
    expect(response.status).toBe(404);
  });
});

describe("the board prints only names that pass the display check", () => {
  it('a first name holding a link is printed as its initial: "t.me/scam" is "T."', async () => {
    const person = await referrer(4, "Placeholder", "Smith");
    // A row stored before the signup rules refused such names.
    await service.query("UPDATE signups SET first_name = 't.me/scam' WHERE id = ?1", person.id);
    expect((await choose(person.token, { shown: true })).status).toBe(200);
    const names = await freshBoardNames(service);
    expect(names).toContain("T.");
    expect(names.join(" ")).not.toMatch(/t\.me|scam/i);
  });

  it("a first name from the profanity list is printed as its initial", async () => {
    const person = await referrer(5, "Shithead", "Jones");
    expect((await choose(person.token, { shown: true })).status).toBe(200);
    const names = await freshBoardNames(service);
    expect(names).toContain("S.");
    expect(names.join(" ")).not.toMatch(/shit/i);
  });
});
