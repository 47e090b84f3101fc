/**
 * What `npm start`'s Worker does that a production Worker never does, against the Worker in workerd (the Workers
 * pool): the links it writes lead to the origin it is served from (SITE_ORIGIN, not the build's siteUrl), and with demo
 * delivery a delivered signup counts as confirmed, so that `countAfter: confirmation` credits a friend's signup, and
 * its status link is logged (`demo_status_link`) in place of the welcome e-mail. A production Worker refuses
 * SITE_ORIGIN, takes no signups without a Klaviyo key, and never logs a link.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { developmentSiteOrigin } from "../../worker/src/site-origin";
import {
  DELIVERY_QUEUE,
  errorsOf,
  logLinesOf,
  postSignup,
  PRODUCTION_SETTINGS,
  startWaitlistService,
  TEST_SETTINGS,
  type WaitlistService,
  welcomeOf,
} from "./support/service";
import { startKlaviyoStandIn, type KlaviyoStandInClient } from "./support/stand-ins";

/** The origin `npm start` serves on (its default port). */
const SERVED_ORIGIN = "http://127.0.0.1:8787";

let addressNumber = 0;

/** Sign up as the page does (a 202); the new address. */
async function signUp(service: WaitlistService, ref?: string): Promise<string> {
  addressNumber += 1;
  const email = `local.${addressNumber}@example.com`;
  const response = await postSignup(service, { email, firstName: "Jordan", lastName: "Smith", ref });
  expect(response.status).toBe(202);
  return email;
}

/** GET /api/status with a status link's token, as the status page sends it. */
function statusOf(service: WaitlistService, statusUrl: string): Promise<Response> {
  const token = new URL(statusUrl).hash.slice("#t=".length);
  return service.fetch(`${service.origin}/api/status`, { headers: { authorization: `Bearer ${token}`, "sec-fetch-site": "same-origin" } });
}

describe("links on the served origin (SITE_ORIGIN)", () => {
  let klaviyo: KlaviyoStandInClient;
  let service: WaitlistService;

  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
    service = startWaitlistService({
      vars: { SITE_ORIGIN: SERVED_ORIGIN, KLAVIYO_API_URL: klaviyo.apiUrl, KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey },
    });
  });

  afterAll(() => klaviyo?.close());

  it("the referral link, the status link and Klaviyo's properties lead to the local site, not the build's site.url", async () => {
    const email = await signUp(service);
    await service.deliver();
    const [profile] = (await klaviyo.records()).profileImports.filter((entry) => entry.email === email);
    const { referral_url: referralUrl, waitlist_status_url: statusUrl } = profile.properties as Record<string, string>;
    expect(referralUrl).toMatch(new RegExp(`^${SERVED_ORIGIN}/\\?ref=[2-9A-HJ-NP-Za-km-z]{8}$`));
    expect(statusUrl).toMatch(new RegExp(`^${SERVED_ORIGIN}/status/#t=`));
    expect(JSON.stringify(profile.properties)).not.toContain(TEST_SETTINGS.siteUrl);

    const status = await statusOf(service, statusUrl);
    expect(await status.json()).toMatchObject({ referralUrl, statusUrl });
  });

  it("takes only an http(s) origin, and never in production", () => {
    expect(developmentSiteOrigin({ ENVIRONMENT: "development", SITE_ORIGIN: "http://127.0.0.1:9000/some/path" })).toBe(
      "http://127.0.0.1:9000",
    );
    expect(developmentSiteOrigin({ ENVIRONMENT: "development", SITE_ORIGIN: "javascript:alert(1)" })).toBeNull();
    expect(developmentSiteOrigin({ ENVIRONMENT: "development", SITE_ORIGIN: "not a url" })).toBeNull();
    expect(developmentSiteOrigin({ ENVIRONMENT: "development" })).toBeNull();
    expect(developmentSiteOrigin({ ENVIRONMENT: "production", SITE_ORIGIN: SERVED_ORIGIN })).toBeNull();
  });
});

describe("a production Worker", () => {
  it("with SITE_ORIGIN set takes no signups (its links would lead away from the site) and names it in its log", async () => {
    const production = startWaitlistService({
      vars: {
        ENVIRONMENT: "production",
        SITE_ORIGIN: "https://elsewhere.example",
        KLAVIYO_PRIVATE_API_KEY: "pk_x",
        TURNSTILE_SECRET_KEY: "x",
        IP_HASH_SALT: "b7c2e9f4a1d8630f5e2c7a9b4d1e8f36",
        INVITATION_TOKEN_KEY: "e4a9c1f7b3d8260e9a5c1f7b3e8d4a62",
        AUDIT_SIGNING_KEY: "9f3b7d1e5a2c8064f1d9b3e7a5c2086d",
        KLAVIYO_WEBHOOK_SECRET: "c3f8a1e6b9d2470e5f1a8c3b6e9d2f47",
        LAUNCH_CHECKIN_SECRET: "5d9e2b7f1a4c8e3062b9f5d1a7e4c8b2",
      },
      settings: PRODUCTION_SETTINGS,
    });
    const response = await postSignup(production, { email: "prod.origin@example.com", firstName: "Prod", lastName: "Origin" });
    expect(response.status).toBe(503);
    expect((await errorsOf(response))[0].code).toBe("not_configured");
    expect(await production.query("SELECT id FROM signups WHERE email = ?1", "prod.origin@example.com")).toEqual([]);
    expect(logLinesOf(production, "signup_not_configured")).toEqual([{ event: "signup_not_configured", missing: "SITE_ORIGIN" }]);
  });
});

describe("demo delivery on a local run", () => {
  let service: WaitlistService;

  beforeAll(() => {
    service = startWaitlistService({ vars: { SITE_ORIGIN: SERVED_ORIGIN } });
  });

  it("logs a newcomer's status link on the served origin, and the link opens their standing", async () => {
    const email = await signUp(service);
    const { id } = await welcomeOf(service, email);
    await service.deliver();

    const lines = logLinesOf(service, "demo_status_link").filter((line) => line.id === id);
    expect(lines).toEqual([
      {
        event: "demo_status_link",
        id,
        statusUrl: expect.stringMatching(new RegExp(`^${SERVED_ORIGIN}/status/#t=[A-Za-z0-9_-]{32}$`)) as unknown,
        referralUrl: expect.stringMatching(new RegExp(`^${SERVED_ORIGIN}/\\?ref=`)) as unknown,
      },
    ]);
    const statusUrl = String(lines[0].statusUrl);
    const status = await statusOf(service, statusUrl);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ statusUrl, referralUrl: lines[0].referralUrl, referrals: 0 });
  });

  it("logs a fresh status link for someone who signs up again, and their old link stops working", async () => {
    const email = await signUp(service);
    const { id } = await welcomeOf(service, email);
    await service.deliver();
    const linksOf = () => logLinesOf(service, "demo_status_link").filter((line) => line.id === id);
    const [{ statusUrl: oldLink }] = linksOf();

    expect((await postSignup(service, { email, firstName: "Jordan", lastName: "Smith" })).status).toBe(202);
    await service.deliver();
    const lines = linksOf();
    expect(lines).toHaveLength(2);
    const newLink = String(lines[1].statusUrl);
    expect(newLink).toMatch(new RegExp(`^${SERVED_ORIGIN}/status/#t=`));
    expect(newLink).not.toBe(oldLink);
    expect((await statusOf(service, newLink)).status).toBe(200);
    expect((await statusOf(service, String(oldLink))).status).toBe(401);
  });

  it("logs no link in production, where demo delivery cannot take a signup", async () => {
    const strong = {
      ENVIRONMENT: "production",
      TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA",
      IP_HASH_SALT: "b7c2e9f4a1d8630f5e2c7a9b4d1e8f36",
      INVITATION_TOKEN_KEY: "e4a9c1f7b3d8260e9a5c1f7b3e8d4a62",
      AUDIT_SIGNING_KEY: "9f3b7d1e5a2c8064f1d9b3e7a5c2086d",
      KLAVIYO_WEBHOOK_SECRET: "c3f8a1e6b9d2470e5f1a8c3b6e9d2f47",
      LAUNCH_CHECKIN_SECRET: "5d9e2b7f1a4c8e3062b9f5d1a7e4c8b2",
    };
    const production = startWaitlistService({ vars: strong, settings: PRODUCTION_SETTINGS });
    const refused = await postSignup(production, { email: "prod.demo@example.com", firstName: "Prod", lastName: "Demo" });
    expect(refused.status).toBe(503);
    expect(logLinesOf(production, "signup_not_configured")).toEqual([
      { event: "signup_not_configured", missing: "KLAVIYO_PRIVATE_API_KEY" },
    ]);

    // A row stored before the key went missing, delivered by that Worker: marked demo, and no link in its log.
    const { id } = await welcomeOf(service, await signUp(service));
    production.enqueue(DELIVERY_QUEUE, { signupId: id });
    await production.deliver();
    expect(logLinesOf(production, "delivery_demo")).toEqual([{ event: "delivery_demo", id, confirmed: false }]);
    expect(production.output()).not.toContain("demo_status_link");
    expect(production.output()).not.toContain("#t=");
  });
});

describe("demo delivery counts as confirmation outside production", () => {
  let service: WaitlistService;
  const confirming = {
    ...TEST_SETTINGS,
    siteUrl: "https://demo.waitlist.example",
    referrals: { ...TEST_SETTINGS.referrals, countAfter: "confirmation" as const },
  };

  beforeAll(() => {
    service = startWaitlistService({ settings: confirming });
  });

  it("a friend's signup moves the referrer up once demo delivery settled it, and the log says it counted as confirmed", async () => {
    const referrer = await welcomeOf(service, await signUp(service));
    const friend = await welcomeOf(service, await signUp(service, referrer.referralCode));
    const referralsOf = async (id: string) =>
      (await service.query<{ referrals: number }>("SELECT referrals FROM signups WHERE id = ?1", id))[0].referrals;
    // Counted after confirmation: nothing before delivery.
    expect(await referralsOf(referrer.id)).toBe(0);

    await service.deliver();

    expect(await referralsOf(referrer.id)).toBe(1);
    const [row] = await service.query<{ delivery_state: string; confirmed_at: string | null }>(
      "SELECT delivery_state, confirmed_at FROM signups WHERE id = ?1",
      friend.id,
    );
    expect(row.delivery_state).toBe("demo");
    expect(row.confirmed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(logLinesOf(service, "delivery_demo")).toEqual(
      expect.arrayContaining([
        { event: "delivery_demo", id: friend.id, confirmed: true, referralCounted: true },
        { event: "delivery_demo", id: referrer.id, confirmed: true, referralCounted: false },
      ]),
    );
  });
});
