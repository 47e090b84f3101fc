/**
 * Nothing about anyone revealed to a stranger, nothing of a stranger's written into the brand's Klaviyo profiles, and
 * no way to be sent elsewhere (docs/api.md, docs/operators.md: Privacy). Each test is named after the attack it stops.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { TURNSTILE_SIGNUP_ACTION } from "../../shared/contract";
import { UTM_OTHER } from "../../shared/validation";
import { hashIp } from "../../worker/src/ip-hash";
import { ALREADY_NOTICES_PER_NETWORK_PER_DAY } from "../../worker/src/store/referrals";
import {
  errorsOf,
  nextClientIp,
  postSignup,
  PRODUCTION_SECRETS,
  startWaitlistService,
  TEST_SETTINGS,
  type WaitlistService,
} from "./support/service";
import { startKlaviyoStandIn, startSiteverifyStandIn, type KlaviyoStandInClient } from "./support/stand-ins";
import { TURNSTILE_DUMMY_TOKEN, TURNSTILE_TEST_SECRETS } from "./support/turnstile-test-keys";

let addressNumber = 0;
function newAddress(label = "private"): string {
  addressNumber += 1;
  return `${label}.${Date.now()}.${addressNumber}@example.com`;
}

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

  /** The status links Klaviyo's profiles got for an address, in order: the welcome's, then each notice's. */
  async function statusLinks(email: string): Promise<string[]> {
    return (await klaviyo.records()).profileImports
      .filter((profile) => profile.email === email && "waitlist_status_url" in (profile.properties ?? {}))
      .map((profile) => String(profile.properties?.waitlist_status_url));
  }

  /** The "already on the list" notices Klaviyo's profile of an address got. */
  async function notices(email: string): Promise<number> {
    return (await klaviyo.records()).profileImports.filter(
      (profile) => profile.email === email && "waitlist_signed_up_again_at" in (profile.properties ?? {}),
    ).length;
  }

  /** GET /api/status with a status link's token. */
  const status = (link: string) =>
    service.fetch("/api/status", { headers: { authorization: `Bearer ${new URL(link).hash.replace("#t=", "")}` } });

  /** A person on the list, their welcome delivered; their status link. */
  async function member(label: string): Promise<{ email: string; link: string }> {
    const email = newAddress(label);
    await postSignup(service, { email, firstName: "Ada", lastName: "Lee" });
    await service.deliver();
    const [link] = await statusLinks(email);
    expect(link).toMatch(/^https:\/\/private\.waitlist\.example\/status\/#t=/);
    return { email, link };
  }

  it("a stranger resubmitting an address: the old link still works", async () => {
    const { email, link: oldLink } = await member("again");
    const [before] = await service.query<{ status_token_hash: string }>("SELECT status_token_hash FROM signups WHERE email = ?1", email);

    await postSignup(service, { email, firstName: "Eve", lastName: "Stranger" });
    await service.deliver();
    expect(await notices(email)).toBe(1);
    const newLink = (await statusLinks(email))[1];
    expect(newLink).not.toBe(oldLink);
    // The link in use is untouched; the notice's waits beside it.
    const [after] = await service.query<{ status_token_hash: string; pending_status_token_hash: string | null }>(
      "SELECT status_token_hash, pending_status_token_hash FROM signups WHERE email = ?1",
      email,
    );
    expect(after.status_token_hash).toBe(before.status_token_hash);
    expect(after.pending_status_token_hash).toEqual(expect.any(String));
    expect((await status(oldLink)).status).toBe(200);

    // The person opens the e-mailed link: it works, and from then on it is their link.
    expect((await status(newLink)).status).toBe(200);
    expect((await status(newLink)).status).toBe(200);
    expect((await status(oldLink)).status).toBe(401);
    expect(
      await service.query("SELECT pending_status_token_hash FROM signups WHERE email = ?1 AND pending_status_token_hash IS NULL", email),
    ).toHaveLength(1);
  });

  it("a stranger resubmitting an address: the person gets at most one notice a day", async () => {
    const { email, link } = await member("daily");
    for (let attempt = 0; attempt < 4; attempt += 1) {
      // Each time from another network, so no network's own limit is what stops it.
      await postSignup(service, { email, firstName: "Eve", lastName: "Stranger" });
      await service.deliver();
    }
    expect(await notices(email)).toBe(1);
    expect((await status(link)).status).toBe(200);
  });

  it(`a stranger resubmitting an address: a network gets at most ${ALREADY_NOTICES_PER_NETWORK_PER_DAY} notices a day and the answer is the same`, async () => {
    const members: string[] = [];
    for (let i = 0; i <= ALREADY_NOTICES_PER_NETWORK_PER_DAY + 1; i += 1) members.push((await member(`network-${i}`)).email);
    const stranger = nextClientIp();
    // As a stranger reads an answer, but Server-Timing, which a production Worker never sends (tested below).
    const seen = async (response: Response) => {
      const { headers, ...rest } = await seenByStranger(response);
      return { ...rest, headers: headers.filter(([name]) => name !== "server-timing") };
    };
    const fresh = await seen(await postSignup(service, { email: newAddress("fresh"), firstName: "Eve", lastName: "Stranger" }));
    for (const email of members) {
      const answer = await seen(await postSignup(service, { email, firstName: "Eve", lastName: "Stranger" }, { ip: stranger }));
      expect(answer).toEqual(fresh);
    }
    await service.deliver();
    const told = await Promise.all(members.map(notices));
    expect(told).toEqual(members.map((_, index) => (index < ALREADY_NOTICES_PER_NETWORK_PER_DAY ? 1 : 0)));
    const network = await hashIp(stranger, undefined);
    expect(await service.query("SELECT notices FROM already_notices WHERE network = ?1", network)).toEqual([
      { notices: ALREADY_NOTICES_PER_NETWORK_PER_DAY },
    ]);

    // Another network's notice still goes out.
    const last = members[members.length - 1];
    await postSignup(service, { email: last, firstName: "Ada", lastName: "Lee" });
    await service.deliver();
    expect(await notices(last)).toBe(1);

    // The next day's cron sweep forgets the day's counts.
    await service.scheduled("*/5 * * * *", Date.now() + 24 * 60 * 60 * 1000);
    expect(await service.query("SELECT notices FROM already_notices WHERE network = ?1", network)).toEqual([]);
  });

  it("a UTM value outside [A-Za-z0-9._-]{1,64} is stored as other", async () => {
    const email = newAddress("utm");
    const properties = {
      utm_source: "google",
      utm_medium: "Claim $500 at https://pickfund-bonus.io",
      utm_campaign: "x".repeat(65),
      utm_term: "spring picks",
      utm_content: "video_a-2.0",
      landing_page: "/nba ads/",
    };
    const response = await postSignup(service, { email, firstName: "Ada", lastName: "Lee", properties });
    expect(response.status).toBe(202);
    const kept = {
      utm_source: "google",
      utm_medium: UTM_OTHER,
      utm_campaign: UTM_OTHER,
      utm_term: UTM_OTHER,
      utm_content: "video_a-2.0",
      landing_page: "/nba ads/",
    };
    const [row] = await service.query<{ properties: string }>("SELECT properties FROM signups WHERE email = ?1", email);
    expect(JSON.parse(row.properties)).toEqual(kept);
    await service.deliver();
    const [profile] = (await klaviyo.records()).profileImports.filter((entry) => entry.email === email);
    expect(profile.properties).toMatchObject(kept);
  });

  it("a bot learns which field is the trap only after every other check passes", async () => {
    const invalid = await postSignup(service, { email: "not-an-address", firstName: "Bot", lastName: "Net", website: "x" });
    expect(invalid.status).toBe(400);

    const email = newAddress("bot");
    const caught = await postSignup(service, { email, firstName: "Bot", lastName: "Net", website: "https://spam.example" });
    const real = await postSignup(service, { email: newAddress("person"), firstName: "Real", lastName: "Person" });
    expect(caught.status).toBe(real.status);
    expect(await caught.text()).toBe(await real.text());
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

/** An answer as a stranger reads it: its status, its headers but the time, and its body's bytes. */
async function seenByStranger(response: Response): Promise<{ status: number; headers: [string, string][]; body: string }> {
  const headers = [...response.headers].filter(([name]) => name !== "date" && name !== "cf-ray");
  return { status: response.status, headers, body: await response.text() };
}

describe("a stranger probing the production service", () => {
  let service: WaitlistService;

  beforeAll(async () => {
    // Tokens solved by the signup form's widget on the probed site.
    const widget = { hostname: "probed.waitlist.example", action: TURNSTILE_SIGNUP_ACTION };
    const [klaviyo, siteverify] = await Promise.all([startKlaviyoStandIn(), startSiteverifyStandIn(widget)]);
    service = startWaitlistService({
      // Production counts referrals after confirmation only (it refuses `signup`).
      settings: {
        ...TEST_SETTINGS,
        siteUrl: "https://probed.waitlist.example",
        turnstileSiteKey: "1x00000000000000000000AA",
        referrals: { ...TEST_SETTINGS.referrals, countAfter: "confirmation" },
      },
      vars: {
        ENVIRONMENT: "production",
        ...PRODUCTION_SECRETS,
        KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey,
        KLAVIYO_API_URL: klaviyo.apiUrl,
        TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRETS.passes,
        TURNSTILE_VERIFY_URL: siteverify.verifyUrl,
      },
    });
    return async () => {
      await Promise.all([klaviyo.close(), siteverify.close()]);
    };
  });

  /** A signup as the page's script sends it, with the widget's token. */
  const asScript = (email: string, extra: Record<string, string> = {}) =>
    postSignup(service, { email, firstName: "Eve", lastName: "Probe", turnstileToken: TURNSTILE_DUMMY_TOKEN, ...extra });
  /** A signup as the no-JavaScript form posts it (with a token, as a bot that solved the widget would). */
  const asForm = (email: string, extra: Record<string, string> = {}) =>
    postSignup(
      service,
      new URLSearchParams({
        email,
        first_name: "Eve",
        last_name: "Probe",
        page: "/",
        "cf-turnstile-response": TURNSTILE_DUMMY_TOKEN,
        ...extra,
      }),
    );

  it("a stranger cannot tell an existing address from a new one", async () => {
    const existing = newAddress("member");
    const original = await seenByStranger(await asScript(existing));
    expect(original.status).toBe(202);

    const probe = await seenByStranger(await asScript(existing));
    const fresh = await seenByStranger(await asScript(newAddress("newcomer")));
    // The same status, the same headers, the same bytes: no id, time, code, place or link of anyone.
    expect(probe).toEqual(fresh);
    expect(probe).toEqual(original);
    expect(JSON.parse(probe.body)).toEqual({ accepted: true });

    const formProbe = await seenByStranger(await asForm(existing));
    const formFresh = await seenByStranger(await asForm(newAddress("newcomer")));
    expect(formProbe).toEqual(formFresh);
    expect(formProbe.status).toBe(303);
    expect(formProbe.headers).toContainEqual(["location", `${service.origin}/success/`]);

    expect(await service.query("SELECT count(*) AS n FROM signups WHERE email = ?1", existing)).toEqual([{ n: 1 }]);
  });

  it("a stranger probing an address twice learns nothing from the answer", async () => {
    const probed = newAddress("probed");
    const first = await seenByStranger(await asScript(probed));
    const second = await seenByStranger(await asScript(probed));
    expect(second).toEqual(first);
    expect(first.status).toBe(202);

    const formProbed = newAddress("probed-form");
    const formFirst = await seenByStranger(await asForm(formProbed));
    const formSecond = await seenByStranger(await asForm(formProbed));
    expect(formSecond).toEqual(formFirst);
    expect(formFirst.status).toBe(303);
  });

  it("a bot caught by the honeypot gets a newcomer's very answer", async () => {
    const trapped = newAddress("bot");
    const caught = await seenByStranger(await asScript(trapped, { website: "https://spam.example" }));
    const real = await seenByStranger(await asScript(newAddress("person")));
    expect(caught).toEqual(real);

    const caughtForm = await seenByStranger(await asForm(newAddress("bot"), { website: "https://spam.example" }));
    const realForm = await seenByStranger(await asForm(newAddress("person")));
    expect(caughtForm).toEqual(realForm);

    expect(await service.query("SELECT id FROM signups WHERE email = ?1", trapped)).toEqual([]);
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
      vars: { ENVIRONMENT: "production", ...PRODUCTION_SECRETS, TURNSTILE_SECRET_KEY: "" },
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
      vars: { ENVIRONMENT: "production", ...PRODUCTION_SECRETS, ...weak },
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
        KLAVIYO_WEBHOOK_SECRET: PRODUCTION_SECRETS.KLAVIYO_WEBHOOK_SECRET,
        KLAVIYO_WEBHOOK_SECRET_PREVIOUS: "previous-secret-0123456789abcdef0123",
      },
    });
    const call = (secret: string) =>
      service.fetch("/api/hooks/klaviyo/confirmed", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
        body: JSON.stringify({ email: "nobody@example.com" }),
      });
    expect((await call(PRODUCTION_SECRETS.KLAVIYO_WEBHOOK_SECRET)).status).toBe(200);
    expect((await call("previous-secret-0123456789abcdef0123")).status).toBe(200);
    expect((await call("some-other-secret-0123456789abcdef")).status).toBe(401);
  });
});
