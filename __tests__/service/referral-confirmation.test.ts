/**
 * Referrals counted after confirmation (`countAfter: confirmation`), against the Worker in workerd (the Workers pool),
 * its local D1 and the loopback Klaviyo stand-in (held to Klaviyo's OpenAPI description): Klaviyo's flow webhook
 * (POST /api/hooks/klaviyo/confirmed, `Authorization: Bearer <KLAVIYO_WEBHOOK_SECRET>`) queues a person for a check
 * with Klaviyo's API; once Klaviyo has them on the list, the confirmation is recorded and a referral counts when both
 * people are confirmed, once. The referral program's profile properties reach Klaviyo for a new person and, when a
 * referral of theirs counts, for the referrer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CONFIRMATION_WEBHOOK_PATH } from "../../shared/api/hooks";
import { WEBHOOK_BODY_TEMPLATE, WEBHOOK_EMAIL_VARIABLE } from "../../worker/src/hooks/klaviyo-webhook";
import type { ProfileImport } from "../../scripts/lib/klaviyo-stand-in";
import { errorsOf, postSignup, startWaitlistService, TEST_SETTINGS, type WaitlistService, welcomeOf } from "./support/service";
import { startKlaviyoStandIn, type KlaviyoStandInClient } from "./support/stand-ins";

const WEBHOOK_SECRET = "test-webhook-secret-0123456789abcdef";
const SETTINGS = { ...TEST_SETTINGS, referrals: { ...TEST_SETTINGS.referrals, countAfter: "confirmation" as const } };

let klaviyo: KlaviyoStandInClient;
let service: WaitlistService;

beforeAll(async () => {
  klaviyo = await startKlaviyoStandIn();
  service = startWaitlistService({
    settings: SETTINGS,
    vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl, KLAVIYO_WEBHOOK_SECRET: WEBHOOK_SECRET },
  });
});

afterEach(async () => {
  // Every answer the stand-in gave is one Klaviyo's description allows.
  expect((await klaviyo.records()).problems).toEqual([]);
});

afterAll(() => klaviyo?.close());

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
function newAddress(label: string): string {
  addressNumber += 1;
  return `${label}.${Date.now()}.${addressNumber}@example.com`;
}

/** Sign up as the page does; the new person's standing, read through the status link their welcome e-mail carries. */
async function signUp(email: string, extra: Record<string, unknown> = {}): Promise<Standing> {
  const response = await postSignup(service, { email, firstName: "Jordan", lastName: "Smith", ...extra });
  expect(response.status).toBe(202);
  const { id, statusToken } = await welcomeOf(service, email);
  const status = await service.fetch(`${service.origin}/api/status`, { headers: { authorization: `Bearer ${statusToken}` } });
  expect(status.status).toBe(200);
  return { id, ...(await status.json<Omit<Standing, "id">>()) };
}

/** Klaviyo's flow webhook, as docs/delivery.md tells the operator to set it up: the body template rendered for the address. */
function confirm(email: string, authorization: string | null = `Bearer ${WEBHOOK_SECRET}`): Promise<Response> {
  return service.fetch(`${service.origin}${CONFIRMATION_WEBHOOK_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(authorization === null ? {} : { authorization }) },
    body: WEBHOOK_BODY_TEMPLATE.replace(WEBHOOK_EMAIL_VARIABLE, email),
  });
}

/**
 * Someone confirms their address as Klaviyo sees it: they join the list (double opt-in), the flow calls the webhook,
 * and the queue consumer checks with Klaviyo's API.
 */
async function confirmInKlaviyo(email: string): Promise<Response> {
  await klaviyo.addToList(TEST_SETTINGS.listId, email);
  const response = await confirm(email);
  await service.deliver();
  return response;
}

async function referralsOf(id: string): Promise<number> {
  const [row] = await service.query<{ referrals: number }>("SELECT referrals FROM signups WHERE id = ?1", id);
  return row.referrals;
}

/** The profile-imports for an address once the queue consumer has taken what the Worker queued; at least `count`. */
async function importsFor(email: string, count: number): Promise<ProfileImport[]> {
  await service.deliver();
  const imports = (await klaviyo.records()).profileImports.filter((profile) => profile.email === email);
  expect(imports.length).toBeGreaterThanOrEqual(count);
  return imports;
}

describe("the webhook's secret", () => {
  it.each([
    ["without Authorization", null],
    ["with a wrong secret", "Bearer not-the-secret"],
    ["with the secret in another scheme", `Basic ${WEBHOOK_SECRET}`],
  ])("refuses a call %s with 401 and records nothing", async (_case, authorization) => {
    const email = newAddress("unconfirmed");
    const { id } = await signUp(email);
    const response = await confirm(email, authorization);
    expect(response.status).toBe(401);
    expect((await errorsOf(response))[0].code).toBe("unauthorized");
    const [row] = await service.query<{ confirmed_at: string | null }>("SELECT confirmed_at FROM signups WHERE id = ?1", id);
    expect(row.confirmed_at).toBeNull();
  });
});

describe("a friend's referral counts once they confirm", () => {
  it("not at signup; once both have confirmed; never again", async () => {
    const referrerEmail = newAddress("referrer");
    const referrer = await signUp(referrerEmail);
    await confirmInKlaviyo(referrerEmail);
    const friendEmail = newAddress("friend");
    const friend = await signUp(friendEmail, { ref: referrer.referralCode });
    expect(await referralsOf(referrer.id)).toBe(0);

    const first = await confirmInKlaviyo(friendEmail.toUpperCase());
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ matched: true });
    expect(await referralsOf(referrer.id)).toBe(1);
    const [row] = await service.query<{ confirmed_at: string | null }>("SELECT confirmed_at FROM signups WHERE id = ?1", friend.id);
    expect(Date.parse(row.confirmed_at ?? "")).not.toBeNaN();

    expect((await confirmInKlaviyo(friendEmail)).status).toBe(202);
    expect(await referralsOf(referrer.id)).toBe(1);
  });

  it("answers 200 and does nothing for an address not on the waitlist", async () => {
    const response = await confirm(newAddress("stranger"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ matched: false });
  });

  it("answers 400 email_required for a body without an address (an empty template value)", async () => {
    const response = await confirm("");
    expect(response.status).toBe(400);
    expect((await errorsOf(response))[0]).toMatchObject({ code: "email_required", source: { pointer: "/email" } });
  });

  it("confirms a person without a referrer and counts nothing", async () => {
    const email = newAddress("loner");
    const { id } = await signUp(email);
    expect((await confirmInKlaviyo(email)).status).toBe(202);
    const [row] = await service.query<{ confirmed_at: string | null; referral_counted_at: string | null }>(
      "SELECT confirmed_at, referral_counted_at FROM signups WHERE id = ?1",
      id,
    );
    expect(row.confirmed_at).not.toBeNull();
    expect(row.referral_counted_at).toBeNull();
  });
});

describe("Klaviyo's profile properties", () => {
  it("sends a new person's referral properties with their signup, and the referrer's update once a friend's referral counts", async () => {
    const referrerEmail = newAddress("ana");
    const referrer = await signUp(referrerEmail);
    const [welcome] = await importsFor(referrerEmail, 1);
    await confirmInKlaviyo(referrerEmail);
    expect(welcome.properties).toEqual({
      source: TEST_SETTINGS.source,
      referral_code: referrer.referralCode,
      referral_url: referrer.referralUrl,
      waitlist_status_url: referrer.statusUrl,
      referral_count: 0,
      giveaway_entries: 1,
      waitlist_position: referrer.position,
    });
    // Sent: the token is no longer kept, only its hash.
    const [row] = await service.query<{ status_token: string | null }>("SELECT status_token FROM signups WHERE id = ?1", referrer.id);
    expect(row.status_token).toBeNull();

    const friendEmail = newAddress("ben");
    await signUp(friendEmail, { ref: referrer.referralCode });
    const [friendImport] = await importsFor(friendEmail, 1);
    expect(friendImport.properties).toMatchObject({ referred_by: referrer.referralCode, referral_count: 0 });

    await confirmInKlaviyo(friendEmail);
    const [, update] = await importsFor(referrerEmail, 2);
    expect(update.properties).toEqual({
      referral_code: referrer.referralCode,
      referral_url: referrer.referralUrl,
      referral_count: 1,
      giveaway_entries: 1 + SETTINGS.referrals.entriesPerReferral,
      waitlist_position: expect.any(Number) as unknown,
    });
    expect(update.firstName).toBeUndefined();
    // The position as of the referral counting: what the status page shows now.
    const status = await service.fetch(`${service.origin}/api/status`, {
      headers: { authorization: `Bearer ${new URL(referrer.statusUrl).hash.replace("#t=", "")}` },
    });
    const { position } = await status.json<Standing>();
    expect(update.properties).toMatchObject({ waitlist_position: position });
  });
});

it("holds no address or name in the Worker's log", () => {
  const output = service.output().toLowerCase();
  expect(output).not.toContain("@example.com");
  expect(output).not.toContain("jordan");
});
