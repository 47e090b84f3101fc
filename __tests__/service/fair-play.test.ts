/**
 * Fair play against a cheap cheater (docs/referrals.md: Fair play): a catch-all domain, a Turnstile-solving service, addresses
 * rotated inside one IPv6 /64, and a script that clicks the confirmation links. Each test is named after the attack
 * it stops; the referral is stored, held or flagged, and the visitor's answer never changes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CONFIRMATION_WEBHOOK_PATH } from "../../shared/api/hooks";
import { WEBHOOK_BODY_TEMPLATE, WEBHOOK_EMAIL_VARIABLE } from "../../worker/src/hooks/klaviyo-webhook";
import {
  nextClientIp,
  postSignup,
  startWaitlistService,
  TEST_SETTINGS,
  type WaitlistService,
  type Welcome,
  welcomeOf,
  withinOneRateWindow,
} from "./support/service";
import { startKlaviyoStandIn, type KlaviyoStandInClient } from "./support/stand-ins";

const WEBHOOK_SECRET = "fair-play-webhook-secret-0123456789abcdef";

let addressNumber = 0;
/** An address no other test uses, at `domain`. */
function newAddress(domain = "gmail.com"): string {
  addressNumber += 1;
  return `fair.${Date.now()}.${addressNumber}@${domain}`;
}

interface Answer {
  status: number;
  /** The answer's bytes. */
  text: string;
  /** The person as their welcome e-mail knows them (read before delivery); null when the signup was refused. */
  person: Welcome | null;
}

/** Sign up as the page does: what the visitor is answered, and who the signup stored. */
async function signUp(service: WaitlistService, body: Record<string, unknown> = {}, ip = nextClientIp()): Promise<Answer> {
  const email = typeof body.email === "string" ? body.email : newAddress();
  const response = await postSignup(service, { firstName: "Jordan", lastName: "Smith", ...body, email }, { ip });
  const text = await response.text();
  return { status: response.status, text, person: response.status === 202 ? await welcomeOf(service, email) : null };
}

interface Columns {
  referrals: number;
  flags: string | null;
  referral_hold: string | null;
  referral_counted_at: string | null;
  ip_hash: string | null;
}

async function columnsOf(service: WaitlistService, id: unknown): Promise<Columns> {
  const [row] = await service.query<Columns>(
    "SELECT referrals, flags, referral_hold, referral_counted_at, ip_hash FROM signups WHERE id = ?1",
    id,
  );
  return row;
}

describe("counted at signup", () => {
  let service: WaitlistService;

  beforeAll(() => {
    service = startWaitlistService({ vars: { REFERRALS_PER_CODE_PER_HOUR: "3", REFERRALS_PER_DOMAIN_PER_HOUR: "2" } });
  });

  it("an IPv6 /64 rotating addresses is one client", async () => {
    const network = nextClientIp().replace(/::1$/, "");
    const answers: number[] = [];
    // wrangler.jsonc's limit is 60 a minute per client network.
    await withinOneRateWindow();
    for (let host = 1; host <= 61; host += 1) answers.push((await signUp(service, {}, `${network}:${host.toString(16)}:0:0:1`)).status);
    expect(answers.slice(0, 60)).toEqual(Array.from({ length: 60 }, () => 202));
    expect(answers[60]).toBe(429);

    // Stored as one network too: two addresses of one /64 have one hash, another /64 another.
    const other = nextClientIp().replace(/::1$/, "");
    const first = await signUp(service, {}, `${other}:aaaa::1`);
    const sameNetwork = await signUp(service, {}, `${other}:bbbb::2`);
    const elsewhere = await signUp(service);
    const [hash, same, different] = await Promise.all(
      [first, sameNetwork, elsewhere].map(async ({ person }) => (await columnsOf(service, person?.id)).ip_hash),
    );
    expect(same).toBe(hash);
    expect(different).not.toBe(hash);
  });

  it("a friend from the referrer's /64 is flagged, however long after the referrer signed up", async () => {
    const network = nextClientIp().replace(/::1$/, "");
    const referrer = await signUp(service, {}, `${network}:1:2:3:4`);
    // The referrer joined a month ago: there is no time window.
    await service.query("UPDATE signups SET created_at = '2026-01-01T00:00:00.000Z' WHERE id = ?1", referrer.person?.id);
    const friend = await signUp(service, { ref: referrer.person?.referralCode }, `${network}:ffff:ffff:ffff:ffff`);
    expect(friend.status).toBe(202);
    expect(await columnsOf(service, friend.person?.id)).toMatchObject({ flags: "same_ip_as_referrer", referral_hold: null });
    expect((await columnsOf(service, referrer.person?.id)).referrals).toBe(1);
  });

  it("friends from one network as an earlier friend of the same referrer are flagged", async () => {
    const referrer = await signUp(service);
    const ip = nextClientIp();
    const first = await signUp(service, { ref: referrer.person?.referralCode }, ip);
    const second = await signUp(service, { ref: referrer.person?.referralCode }, ip.replace(/::1$/, "::99"));
    expect((await columnsOf(service, first.person?.id)).flags).toBeNull();
    expect((await columnsOf(service, second.person?.id)).flags).toBe("same_ip_as_other_referral");
  });

  it("a referral code past its hourly limit has its referrals held, not counted, and the answer does not change", async () => {
    const referrer = await signUp(service);
    const friends = [];
    for (let count = 0; count < 4; count += 1) friends.push(await signUp(service, { ref: referrer.person?.referralCode }));
    expect(friends.map(({ status }) => status)).toEqual([202, 202, 202, 202]);
    // The held friend's answer has a newcomer's shape like the others'.
    expect(friends[3].text).toBe(friends[0].text);
    expect((await columnsOf(service, friends[3].person?.id)).referral_hold).toBe("code_limit");
    expect((await columnsOf(service, friends[3].person?.id)).referral_counted_at).toBeNull();
    expect((await columnsOf(service, referrer.person?.id)).referrals).toBe(3);
  });

  it("a catch-all domain's referrals are held past the domain's hourly limit, and flagged as a cluster", async () => {
    const domain = `catchall-${Date.now()}.example`;
    const referrer = await signUp(service);
    const friends = [];
    for (let count = 0; count < 3; count += 1)
      friends.push(await signUp(service, { email: newAddress(domain), ref: referrer.person?.referralCode }));
    const columns = await Promise.all(friends.map(({ person }) => columnsOf(service, person?.id)));
    expect(columns.map(({ referral_hold: hold }) => hold)).toEqual([null, null, "domain_limit"]);
    expect(columns[2].flags).toContain("domain_cluster");
    expect((await columnsOf(service, referrer.person?.id)).referrals).toBe(2);
  });

  it("friends on a consumer provider's domain are neither held by the domain limit nor flagged as a cluster", async () => {
    const referrer = await signUp(service);
    const friends = [];
    for (let count = 0; count < 3; count += 1)
      friends.push(await signUp(service, { email: newAddress("gmail.com"), ref: referrer.person?.referralCode }));
    const columns = await Promise.all(friends.map(({ person }) => columnsOf(service, person?.id)));
    expect(columns.map(({ referral_hold: hold }) => hold)).toEqual([null, null, null]);
    expect(columns.map(({ flags }) => flags)).toEqual([null, null, null]);
  });
});

describe("a burst", () => {
  it("five friends within ten minutes are flagged as a burst", async () => {
    const service = startWaitlistService({ vars: { REFERRALS_PER_CODE_PER_HOUR: "100" } });
    const referrer = await signUp(service);
    const friends = [];
    for (let count = 0; count < 5; count += 1) friends.push(await signUp(service, { ref: referrer.person?.referralCode }));
    const flags = await Promise.all(friends.map(async ({ person }) => (await columnsOf(service, person?.id)).flags));
    expect(flags).toEqual([null, null, null, null, "burst"]);
  });
});

describe("counted after confirmation", () => {
  const SETTINGS = { ...TEST_SETTINGS, referrals: { ...TEST_SETTINGS.referrals, countAfter: "confirmation" as const } };
  let klaviyo: KlaviyoStandInClient;
  let service: WaitlistService;

  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
    await klaviyo.setList(TEST_SETTINGS.listId);
    service = startWaitlistService({
      settings: { ...SETTINGS, siteUrl: "https://confirmed.waitlist.example" },
      vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl, KLAVIYO_WEBHOOK_SECRET: WEBHOOK_SECRET },
    });
    return () => klaviyo.close();
  });

  function webhook(email: string): Promise<Response> {
    return service.fetch(CONFIRMATION_WEBHOOK_PATH, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${WEBHOOK_SECRET}` },
      body: WEBHOOK_BODY_TEMPLATE.replace(WEBHOOK_EMAIL_VARIABLE, email),
    });
  }

  /** The person confirms in Klaviyo (they join the double opt-in list), the flow calls the webhook, the queue checks. */
  async function confirmInKlaviyo(email: string): Promise<void> {
    await klaviyo.addToList(TEST_SETTINGS.listId, email);
    expect((await webhook(email)).status).toBe(202);
    await service.deliver();
  }

  it("a leaked webhook secret cannot confirm an unsubscribed address", async () => {
    const referrerEmail = newAddress();
    const referrer = await signUp(service, { email: referrerEmail });
    await confirmInKlaviyo(referrerEmail);
    const friendEmail = newAddress();
    const friend = await signUp(service, { email: friendEmail, ref: referrer.person?.referralCode });

    // Whoever holds the secret calls the webhook for an address that never confirmed: Klaviyo says it is not on the list.
    expect((await webhook(friendEmail)).status).toBe(202);
    await service.deliver();
    const [row] = await service.query<{ confirmed_at: string | null }>("SELECT confirmed_at FROM signups WHERE id = ?1", friend.person?.id);
    expect(row.confirmed_at).toBeNull();
    expect((await columnsOf(service, referrer.person?.id)).referrals).toBe(0);
    expect(service.output()).toContain('"reason":"not on the list in Klaviyo"');
  });

  it("a referrer never confirmed earns nothing, and their confirmed friends count the moment they confirm", async () => {
    const referrerEmail = newAddress();
    const referrer = await signUp(service, { email: referrerEmail });
    const friendEmail = newAddress();
    await signUp(service, { email: friendEmail, ref: referrer.person?.referralCode });
    await confirmInKlaviyo(friendEmail);
    expect((await columnsOf(service, referrer.person?.id)).referrals).toBe(0);

    await confirmInKlaviyo(referrerEmail);
    expect((await columnsOf(service, referrer.person?.id)).referrals).toBe(1);
  });

  it("only confirmed people appear on the leaderboard", async () => {
    // A referrer whose credit was written before this rule (or by hand) but who never confirmed.
    const ghost = await signUp(service, { firstName: "Ghost", lastName: "Referrer" });
    await service.query("UPDATE signups SET referrals = 9 WHERE id = ?1", ghost.person?.id);
    const referrerEmail = newAddress();
    const referrer = await signUp(service, { email: referrerEmail, firstName: "Real", lastName: "Referrer" });
    await confirmInKlaviyo(referrerEmail);
    const friendEmail = newAddress();
    await signUp(service, { email: friendEmail, ref: referrer.person?.referralCode });
    await confirmInKlaviyo(friendEmail);

    // Both chose to be shown, from their status pages.
    for (const { person } of [ghost, referrer]) {
      const token = person?.statusToken ?? "";
      const shown = await service.fetch("/api/status/leaderboard", {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ shown: true }),
      });
      expect(shown.status).toBe(200);
    }

    const board = await service.fetch("/api/leaderboard");
    const { entries } = await board.json<{ entries: { name: string }[] }>();
    expect(entries.map(({ name }) => name)).toContain("Real R.");
    expect(entries.map(({ name }) => name)).not.toContain("Ghost R.");
  });
});
