/**
 * The rate limits beyond the signup's (wrangler.jsonc `ratelimits`, worker/src/rate-limit.ts): per client network,
 * each past its limit answers 429 `rate_limited` with `Retry-After` (its window, in seconds), counted before the
 * secret or token is compared, so a guess past the limit is never tried, while other networks go on. Each test is
 * named after the attack it stops. The limits are wrangler.jsonc's own (RATE_LIMITS; miniflare enforces them locally).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { STATUS_ENDPOINT, STATUS_LEADERBOARD_ENDPOINT } from "../../shared/contract";
import { STATUS_DRAW_ENDPOINT } from "../../shared/giveaway/commit";
import { CHECK_IN_ENDPOINT, LAUNCH_ERROR_CODE } from "../../shared/launch";
import { drawKeys } from "../../worker/src/draw/job";
import { type Limiter, RATE_LIMITS } from "../../worker/src/limits";
import { newStatusToken } from "../../worker/src/referrals/codes";
import {
  errorsOf,
  nextClientIp,
  postSignup,
  startWaitlistService,
  TEST_SETTINGS,
  type WaitlistService,
  welcomeOf,
  withinOneRateWindow,
} from "./support/service";

const CHECK_IN_SECRET = "3b8e1f6a9c2d7054e8b1f4a7c0d3e6b9";
const DRAW = "summer";

let service: WaitlistService;
let statusToken: string;

beforeAll(async () => {
  // The console on a host of its own: the service's host is the site's, which serves the published draws.
  service = startWaitlistService({ vars: { LAUNCH_CHECKIN_SECRET: CHECK_IN_SECRET, CONSOLE_HOST: "console.waitlist.example" } });
  const email = `limits.${Date.now()}@example.com`;
  expect((await postSignup(service, { email, firstName: "Ada", lastName: "Lee" })).status).toBe(202);
  ({ statusToken } = await welcomeOf(service, email));
  await env.DRAWS.put(drawKeys.commitment(DRAW), JSON.stringify({ draw: DRAW }), { httpMetadata: { contentType: "application/json" } });
});

/** Send `count` requests from one network, one after another; their statuses. */
async function statusesOf(count: number, send: (n: number) => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let n = 0; n < count; n += 1) statuses.push((await send(n)).status);
  return statuses;
}

/** The limited answer: 429 `rate_limited` with Retry-After, the limiter's window in seconds. */
async function expectLimited(response: Response, limiter: Limiter): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get("retry-after")).toBe(String(RATE_LIMITS[limiter].periodS));
  expect((await errorsOf(response)).map(({ status, code }) => [status, code])).toEqual([["429", "rate_limited"]]);
}

describe("status token guessing is rate limited", () => {
  const read = (ip: string, token: string, path = STATUS_ENDPOINT, method = "GET") =>
    service.fetch(path, {
      method,
      headers: { "cf-connecting-ip": ip, authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: method === "PUT" ? JSON.stringify({ shown: false }) : undefined,
    });

  it("answers 429 past the limit of one network, its right token included, while another network reads on", async () => {
    const ip = nextClientIp();
    await withinOneRateWindow("STATUS_LIMITER", 15_000);
    const guesses = await statusesOf(RATE_LIMITS.STATUS_LIMITER.limit, () => read(ip, newStatusToken()));
    expect(new Set(guesses)).toEqual(new Set([401]));

    await expectLimited(await read(ip, statusToken), "STATUS_LIMITER");
    // One limit for every route of the status link.
    await expectLimited(await read(ip, statusToken, STATUS_LEADERBOARD_ENDPOINT, "PUT"), "STATUS_LIMITER");
    await expectLimited(await read(ip, statusToken, STATUS_DRAW_ENDPOINT), "STATUS_LIMITER");
    expect((await read(nextClientIp(), statusToken)).status).toBe(200);
  });

  it("an IPv6 /64 rotating addresses is one network", async () => {
    const network = nextClientIp().replace(/::1$/, "");
    await withinOneRateWindow("STATUS_LIMITER", 15_000);
    const guesses = await statusesOf(RATE_LIMITS.STATUS_LIMITER.limit, (n) =>
      read(`${network}:${(n + 1).toString(16)}:0:0:1`, newStatusToken()),
    );
    expect(new Set(guesses)).toEqual(new Set([401]));
    await expectLimited(await read(`${network}:ffff:0:0:1`, newStatusToken()), "STATUS_LIMITER");
  });
});

describe("wrong check-in secrets are rate limited", () => {
  const checkIn = (ip: string, secret: string) =>
    service.fetch(CHECK_IN_ENDPOINT, {
      method: "POST",
      headers: { "cf-connecting-ip": ip, authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ token: "A".repeat(43) }),
    });

  it("answers 429 past the limit of one network, the right secret included, while another network checks in", async () => {
    const ip = nextClientIp();
    await withinOneRateWindow("CHECKIN_LIMITER");
    const guesses = await statusesOf(RATE_LIMITS.CHECKIN_LIMITER.limit, (n) => checkIn(ip, `guess-${n}`));
    expect(new Set(guesses)).toEqual(new Set([401]));

    // The right secret past the limit is never compared: its answer tells the guesser nothing.
    await expectLimited(await checkIn(ip, CHECK_IN_SECRET), "CHECKIN_LIMITER");
    const elsewhere = await checkIn(nextClientIp(), CHECK_IN_SECRET);
    expect([elsewhere.status, (await errorsOf(elsewhere))[0].code]).toEqual([404, LAUNCH_ERROR_CODE.invitationUnknown]);
  });
});

describe("draw file scraping is rate limited", () => {
  const file = (ip: string, name = "draw.json", draw = DRAW) =>
    service.fetch(new URL(`/giveaway/draw/${draw}/${name}`, TEST_SETTINGS.siteUrl).href, { headers: { "cf-connecting-ip": ip } });

  it("answers 429 past the limit of one network, for any draw's file, while another network reads on", async () => {
    const ip = nextClientIp();
    await withinOneRateWindow("DRAW_FILES_LIMITER", 15_000);
    const reads = await statusesOf(RATE_LIMITS.DRAW_FILES_LIMITER.limit, () => file(ip));
    expect(new Set(reads)).toEqual(new Set([200]));

    await expectLimited(await file(ip), "DRAW_FILES_LIMITER");
    await expectLimited(await file(ip, "entrants.txt", "autumn"), "DRAW_FILES_LIMITER");
    // The transparency record's files are published files too, under the same limit.
    const record = await service.fetch(new URL("/transparency/report.json", TEST_SETTINGS.siteUrl).href, {
      headers: { "cf-connecting-ip": ip },
    });
    await expectLimited(record, "DRAW_FILES_LIMITER");
    expect((await file(nextClientIp())).status).toBe(200);
  });

  it("leaves the draw's pages alone: they are the static build's", async () => {
    const ip = nextClientIp();
    await withinOneRateWindow("DRAW_FILES_LIMITER", 15_000);
    await statusesOf(RATE_LIMITS.DRAW_FILES_LIMITER.limit + 1, () => file(ip));
    const page = await service.fetch(new URL("/giveaway/draw/", TEST_SETTINGS.siteUrl).href, { headers: { "cf-connecting-ip": ip } });
    expect(page.status).not.toBe(429);
  });
});
