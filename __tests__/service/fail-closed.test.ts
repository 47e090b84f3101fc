/**
 * Only `ENVIRONMENT=development` relaxes anything (worker/src/env.ts: isDevelopment): a staging deployment, an empty
 * ENVIRONMENT or a typo behaves as production. The local operator is signed in on a loopback host only, a production
 * Worker fetches Access keys over https only, and refuses a referral program that counts at signup. Each test is named
 * after the attack it stops.
 */
import { describe, expect, it } from "vitest";
import { CONSOLE_ERROR_CODE, CONSOLE_SESSION_ENDPOINT } from "../../shared/console";
import type { SessionAnswer } from "../../shared/api/console";
import {
  DELIVERY_QUEUE,
  errorsOf,
  LOCAL_ORIGIN,
  logLinesOf,
  postSignup,
  PRODUCTION_SECRETS,
  PRODUCTION_SETTINGS,
  startWaitlistService,
  TEST_SETTINGS,
  type WaitlistService,
  welcomeOf,
} from "./support/service";

const OPERATOR = "local-operator@localhost";

/** An Access team domain whose keys are never fetched here (no test request brings a token to it). */
const HTTPS_TEAM_DOMAIN = "https://team.cloudflareaccess.example";

let addressNumber = 0;
const nextEmail = (label: string) => `${label}.${(addressNumber += 1)}.${Date.now()}@example.com`;

describe.each([["staging"], [""], ["developement"], ["Development"]])("ENVIRONMENT=%j gets no relaxation", (environment) => {
  it("the console without Access is refused, not signed in as the local operator", async () => {
    const staging = startWaitlistService({ origin: LOCAL_ORIGIN, vars: { ENVIRONMENT: environment, CONSOLE_LOCAL_OPERATOR: OPERATOR } });
    const unconfigured = await staging.fetch(CONSOLE_SESSION_ENDPOINT);
    expect(unconfigured.status).toBe(503);
    expect((await errorsOf(unconfigured))[0].code).toBe(CONSOLE_ERROR_CODE.notConfigured);

    const configured = startWaitlistService({
      origin: LOCAL_ORIGIN,
      vars: { ENVIRONMENT: environment, CONSOLE_LOCAL_OPERATOR: OPERATOR, ACCESS_TEAM_DOMAIN: HTTPS_TEAM_DOMAIN, ACCESS_AUD: "aud" },
    });
    const refused = await configured.fetch(CONSOLE_SESSION_ENDPOINT);
    expect(refused.status).toBe(401);
    expect((await errorsOf(refused))[0].code).toBe(CONSOLE_ERROR_CODE.accessTokenMissing);
  });

  it("answers carry no Server-Timing row count", async () => {
    const staging = startWaitlistService({ vars: { ENVIRONMENT: environment, ...PRODUCTION_SECRETS }, settings: PRODUCTION_SETTINGS });
    const development = startWaitlistService({ settings: PRODUCTION_SETTINGS });
    // The control: the same request reads D1 and says so in development.
    const status = (target: WaitlistService) =>
      target.fetch("/api/status", { headers: { authorization: `Bearer ${"x".repeat(32)}`, "sec-fetch-site": "same-origin" } });
    expect((await status(development)).headers.get("server-timing")).toMatch(/d1-rows-read/);
    const answer = await status(staging);
    expect(answer.status).toBe(401);
    expect(answer.headers.get("server-timing")).toBeNull();
  });

  it("takes no signup without a Klaviyo key (no demo delivery), and confirms or logs no link for a stored one", async () => {
    const withoutKey = { ...PRODUCTION_SECRETS, KLAVIYO_PRIVATE_API_KEY: "" };
    const staging = startWaitlistService({ vars: { ENVIRONMENT: environment, ...withoutKey }, settings: PRODUCTION_SETTINGS });
    const refused = await postSignup(staging, { email: nextEmail("staging"), firstName: "Stage", lastName: "Hand" });
    expect(refused.status).toBe(503);
    expect(logLinesOf(staging, "signup_not_configured")).toEqual([{ event: "signup_not_configured", missing: "KLAVIYO_PRIVATE_API_KEY" }]);

    // A row stored by a development Worker, delivered by the staging one: demo, not confirmed, no link in its log.
    const development = startWaitlistService({ settings: PRODUCTION_SETTINGS });
    const email = nextEmail("stored");
    expect((await postSignup(development, { email, firstName: "Stage", lastName: "Hand" })).status).toBe(202);
    const { id } = await welcomeOf(development, email);
    staging.enqueue(DELIVERY_QUEUE, { signupId: id });
    await staging.deliver();
    expect(logLinesOf(staging, "delivery_demo")).toEqual([{ event: "delivery_demo", id, confirmed: false }]);
    expect(staging.output()).not.toContain("demo_status_link");
    const [row] = await staging.query<{ confirmed_at: string | null }>("SELECT confirmed_at FROM signups WHERE id = ?1", id);
    expect(row.confirmed_at).toBeNull();
  });

  it("SITE_ORIGIN is not applied to links, and keeps signups closed", async () => {
    const staging = startWaitlistService({
      vars: { ENVIRONMENT: environment, ...PRODUCTION_SECRETS, SITE_ORIGIN: "https://elsewhere.example" },
      settings: PRODUCTION_SETTINGS,
    });
    const response = await postSignup(staging, { email: nextEmail("origin"), firstName: "Stage", lastName: "Hand" });
    expect(response.status).toBe(503);
    expect(logLinesOf(staging, "signup_not_configured")).toEqual([{ event: "signup_not_configured", missing: "SITE_ORIGIN" }]);
  });
});

describe("DNS rebinding on npm start", () => {
  it.each([["http://127.0.0.1:8787"], ["http://localhost:8000"], ["http://[::1]:8787"]])(
    "signs the local operator in on the loopback host %s",
    async (origin) => {
      const local = startWaitlistService({ origin, vars: { CONSOLE_LOCAL_OPERATOR: OPERATOR } });
      const session = await local.fetch(CONSOLE_SESSION_ENDPOINT);
      expect(session.status).toBe(200);
      expect(await session.json<SessionAnswer>()).toEqual({ operator: OPERATOR, local: true, role: "operator" });
    },
  );

  it.each([["http://rebind.evil.example:8787"], ["http://127.0.0.1.evil.example:8787"], [TEST_SETTINGS.siteUrl]])(
    "a foreign Host (%s) on a development service does not reach the console",
    async (origin) => {
      const rebound = startWaitlistService({ origin, vars: { CONSOLE_LOCAL_OPERATOR: OPERATOR } });
      const session = await rebound.fetch(CONSOLE_SESSION_ENDPOINT);
      expect(session.status).toBe(401);
      expect((await errorsOf(session))[0].code).toBe(CONSOLE_ERROR_CODE.accessTokenMissing);
      expect(session.headers.get("server-timing")).toBeNull();
    },
  );
});

describe("an http: Access team domain", () => {
  it("an http: Access team domain in production is refused, and the log says why", async () => {
    const production = startWaitlistService({
      vars: {
        ENVIRONMENT: "production",
        ...PRODUCTION_SECRETS,
        ACCESS_TEAM_DOMAIN: "http://team.cloudflareaccess.example",
        ACCESS_AUD: "aud",
      },
      settings: PRODUCTION_SETTINGS,
    });
    const response = await production.fetch(CONSOLE_SESSION_ENDPOINT, { headers: { "cf-access-jwt-assertion": "a.b.c" } });
    expect(response.status).toBe(503);
    const [error] = await errorsOf(response);
    expect(error.code).toBe(CONSOLE_ERROR_CODE.notConfigured);
    expect(error.detail).toContain("https://");
    expect(logLinesOf(production, "console_not_configured")).toEqual([
      { event: "console_not_configured", problem: expect.stringContaining("ACCESS_TEAM_DOMAIN") as unknown },
    ]);
  });
});

describe("countAfter: signup", () => {
  it("countAfter: signup in production is refused: no signups, and the log names the setting", async () => {
    const production = startWaitlistService({
      vars: { ENVIRONMENT: "production", ...PRODUCTION_SECRETS },
      settings: { ...PRODUCTION_SETTINGS, referrals: { ...PRODUCTION_SETTINGS.referrals, countAfter: "signup" } },
    });
    const email = nextEmail("prober");
    const response = await postSignup(production, { email, firstName: "Pro", lastName: "Ber" });
    expect(response.status).toBe(503);
    expect((await errorsOf(response))[0].code).toBe("not_configured");
    expect(await production.query("SELECT id FROM signups WHERE email = ?1", email)).toEqual([]);
    expect(logLinesOf(production, "signup_not_configured")).toEqual([
      { event: "signup_not_configured", missing: expect.stringContaining("referrals.countAfter") as unknown },
    ]);
  });

  it("is allowed with the program off, and in development", async () => {
    const off = startWaitlistService({
      vars: { ENVIRONMENT: "production", ...PRODUCTION_SECRETS },
      settings: { ...PRODUCTION_SETTINGS, referrals: { ...PRODUCTION_SETTINGS.referrals, enabled: false, countAfter: "signup" } },
    });
    // Past the configuration check: the Turnstile secret is a test one with no token, so the bot check refuses.
    expect((await postSignup(off, { email: nextEmail("off"), firstName: "Pro", lastName: "Gram" })).status).toBe(403);
    const development = startWaitlistService();
    expect(TEST_SETTINGS.referrals.countAfter).toBe("signup");
    expect((await postSignup(development, { email: nextEmail("dev"), firstName: "Dev", lastName: "Elop" })).status).toBe(202);
  });
});
