/**
 * Nothing about anyone revealed to a stranger, nothing of a stranger's written into the brand's Klaviyo profiles, and
 * no way to be sent elsewhere (README: The API). Each test is named after the attack it stops.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { errorsOf, postSignup, startWaitlistService, TEST_SETTINGS, type WaitlistService } from "./support/service";
import { startKlaviyoStandIn, type KlaviyoStandInClient } from "./support/stand-ins";

let addressNumber = 0;
function newAddress(label = "private"): string {
  addressNumber += 1;
  return `${label}.${Date.now()}.${addressNumber}@example.com`;
}

/** Secrets strong enough for production (at least 32 random characters). */
const STRONG = {
  KLAVIYO_PRIVATE_API_KEY: "pk_production_0123456789abcdef0123",
  TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA",
  IP_HASH_SALT: "b7c2e9f4a1d8630f5e2c7a9b4d1e8f36",
  KLAVIYO_WEBHOOK_SECRET: "c3f8a1e6b9d2470e5f1a8c3b6e9d2f47",
};

describe("an anonymous signup", () => {
  let klaviyo: KlaviyoStandInClient;
  let service: WaitlistService;

  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
    service = startWaitlistService({
      settings: { ...TEST_SETTINGS, siteUrl: "https://private.waitlist.example" },
      vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl },
    });
    return () => klaviyo.close();
  });

  it("a stranger cannot tell an existing address from a new one", async () => {
    const existing = newAddress("member");
    const original = await postSignup(service, { email: existing, firstName: "Ada", lastName: "Lee" });
    const originalAnswer = await original.json<Record<string, unknown>>();

    const probe = await postSignup(service, { email: existing, firstName: "Eve", lastName: "Probe" });
    const fresh = await postSignup(service, { email: newAddress("newcomer"), firstName: "Eve", lastName: "Probe" });
    const [probeAnswer, freshAnswer] = await Promise.all([probe.json<Record<string, unknown>>(), fresh.json<Record<string, unknown>>()]);

    expect(probe.status).toBe(fresh.status);
    expect(Object.keys(probeAnswer).sort()).toEqual(Object.keys(freshAnswer).sort());
    // Nothing of the person already on the list: not their id, time, code, place or status link.
    for (const member of ["id", "createdAt", "referralCode", "referralUrl", "statusUrl"])
      expect(probeAnswer[member]).not.toEqual(originalAnswer[member]);
    // A newcomer's place: the end of the line, where the fresh signup right after it stands too.
    expect(probeAnswer.position).toBe(freshAnswer.position);
  });

  it("the person already on the list is told by e-mail, with a fresh status link that works", async () => {
    const email = newAddress("again");
    const first = await postSignup(service, { email, firstName: "Ada", lastName: "Lee" });
    const { statusUrl: oldLink } = await first.json<{ statusUrl: string }>();
    await service.deliver();

    await postSignup(service, { email, firstName: "Ada", lastName: "Lee" });
    await service.deliver();
    const notices = (await klaviyo.records()).profileImports.filter(
      (profile) => profile.email === email && "waitlist_signed_up_again_at" in (profile.properties ?? {}),
    );
    expect(notices).toHaveLength(1);
    const newLink = String(notices[0].properties?.waitlist_status_url);
    expect(newLink).not.toBe(oldLink);

    const status = (link: string) =>
      service.fetch("/api/status", { headers: { authorization: `Bearer ${new URL(link).hash.replace("#t=", "")}` } });
    expect((await status(newLink)).status).toBe(200);
    expect((await status(oldLink)).status).toBe(401);

    // At most once a day, however often someone tries.
    await postSignup(service, { email, firstName: "Ada", lastName: "Lee" });
    await service.deliver();
    expect(
      (await klaviyo.records()).profileImports.filter(
        (profile) => profile.email === email && "waitlist_signed_up_again_at" in (profile.properties ?? {}),
      ),
    ).toHaveLength(1);
  });

  it("a bot learns which field is the trap only after every other check passes", async () => {
    const invalid = await postSignup(service, { email: "not-an-address", firstName: "Bot", lastName: "Net", website: "x" });
    expect(invalid.status).toBe(400);

    const email = newAddress("bot");
    const caught = await postSignup(service, { email, firstName: "Bot", lastName: "Net", website: "https://spam.example" });
    const real = await postSignup(service, { email: newAddress("person"), firstName: "Real", lastName: "Person" });
    expect(caught.status).toBe(real.status);
    const [caughtAnswer, realAnswer] = await Promise.all([caught.json<object>(), real.json<object>()]);
    expect(Object.keys(caughtAnswer).sort()).toEqual(Object.keys(realAnswer).sort());
    expect(await service.query("SELECT id FROM signups WHERE email = ?1", email)).toEqual([]);
  });

  it.each([
    ["a property name the page never sends", { properties: { first_name: "Claim $500 at https://pickfund-bonus.io" } }, "unknown_property"],
    ["a custom source no signup page records", { source: "Claim your prize at https://pickfund-bonus.io" }, "unknown_source"],
  ])("a stranger cannot write %s into the brand's Klaviyo profiles", async (_case, extra, code) => {
    const email = newAddress("writer");
    const response = await postSignup(service, { email, firstName: "Ada", lastName: "Lee", ...extra });
    expect(response.status).toBe(400);
    expect((await errorsOf(response))[0].code).toBe(code);
    await service.deliver();
    expect((await klaviyo.records()).profileImports.filter((profile) => profile.email === email)).toEqual([]);
  });
});

describe("the no-JavaScript form's way back", () => {
  let service: WaitlistService;

  beforeAll(() => {
    service = startWaitlistService();
  });

  it.each(["/.//evil.example/", "/%2e//evil.example/", "/x/..//evil.example/", "https://evil.example/", "/not-a-signup-page/"])(
    "an open redirect through page=%s leads home instead",
    async (page) => {
      const response = await postSignup(service, new URLSearchParams({ email: "", first_name: "A", last_name: "B", page }));
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get("location") ?? "");
      expect(location.origin).toBe(service.origin);
      expect(`${location.pathname}${location.hash}`).toBe("/#signup-error-emailRequired");
    },
  );
});

describe("in production", () => {
  it("a stranger cannot read which path an answer took from Server-Timing", async () => {
    const service = startWaitlistService({
      settings: { ...TEST_SETTINGS, turnstileSiteKey: "1x00000000000000000000AA" },
      vars: { ENVIRONMENT: "production", ...STRONG, TURNSTILE_SECRET_KEY: "" },
    });
    // Without the Turnstile secret production refuses signups; the leaderboard still reads D1.
    const board = await service.fetch("/api/leaderboard");
    expect(board.status).toBe(200);
    expect(board.headers.get("server-timing")).toBeNull();
  });

  it.each([
    ["IP_HASH_SALT", { IP_HASH_SALT: "short-salt" }],
    ["KLAVIYO_WEBHOOK_SECRET", { KLAVIYO_WEBHOOK_SECRET: "ab".repeat(20) }],
  ])("a guessable %s is refused: no signups, and the log says which", async (name, weak) => {
    const service = startWaitlistService({
      settings: { ...TEST_SETTINGS, turnstileSiteKey: "1x00000000000000000000AA" },
      vars: { ENVIRONMENT: "production", ...STRONG, ...weak },
    });
    const response = await postSignup(service, { email: newAddress(), firstName: "Ada", lastName: "Lee" });
    expect(response.status).toBe(503);
    expect((await errorsOf(response))[0].code).toBe("not_configured");
    expect(service.output()).toContain(`${name} (not random`);
  });
});

describe("the webhook's secret while it is rotated", () => {
  it("takes the previous secret as well as the new one, and no other", async () => {
    const service = startWaitlistService({
      vars: {
        KLAVIYO_WEBHOOK_SECRET: STRONG.KLAVIYO_WEBHOOK_SECRET,
        KLAVIYO_WEBHOOK_SECRET_PREVIOUS: "previous-secret-0123456789abcdef0123",
      },
    });
    const call = (secret: string) =>
      service.fetch("/api/hooks/klaviyo/confirmed", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
        body: JSON.stringify({ email: "nobody@example.com" }),
      });
    expect((await call(STRONG.KLAVIYO_WEBHOOK_SECRET)).status).toBe(200);
    expect((await call("previous-secret-0123456789abcdef0123")).status).toBe(200);
    expect((await call("some-other-secret-0123456789abcdef")).status).toBe(401);
  });
});
