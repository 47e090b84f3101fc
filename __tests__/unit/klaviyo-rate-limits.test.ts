/**
 * @jest-environment node
 *
 * The Klaviyo stand-in's rate limits (scripts/lib/klaviyo-stand-in.ts: rateLimit), which the API bench's launch
 * scenario sends a batch of invitations through: Klaviyo's fixed windows of a second (burst) and a minute (steady), and
 * past either a 429 with the Retry-After the service waits out (worker/src/delivery/klaviyo.ts: createKlaviyoEvent).
 */
import { RateWindows, startKlaviyoStandIn, type KlaviyoStandIn } from "../../scripts/lib/klaviyo-stand-in";
import { createKlaviyoEvent, type KlaviyoAccount, type KlaviyoEvent } from "../../worker/src/delivery/klaviyo";

/** A moment at the start of a clock minute (ms), so each case says where in the windows it is. */
const MINUTE = Date.UTC(2026, 10, 27, 12, 0, 0);

describe("RateWindows", () => {
  it("takes the burst within a second, then answers the rest of the second as Retry-After", () => {
    const windows = new RateWindows({ burstPerSecond: 3, steadyPerMinute: 100 });
    expect([0, 1, 2].map((ms) => windows.take(MINUTE + ms))).toEqual([null, null, null]);
    expect(windows.take(MINUTE + 400)).toBe(1);
    expect(windows.take(MINUTE + 1_000)).toBeNull();
  });

  it("takes the steady limit within a minute, then answers the seconds left of the minute", () => {
    const windows = new RateWindows({ burstPerSecond: 350, steadyPerMinute: 5 });
    expect([0, 1_000, 2_000, 3_000, 4_000].map((ms) => windows.take(MINUTE + ms))).toEqual([null, null, null, null, null]);
    expect(windows.take(MINUTE + 20_500)).toBe(40);
    expect(windows.take(MINUTE + 59_999)).toBe(1);
    expect(windows.take(MINUTE + 60_000)).toBeNull();
  });
});

describe("the stand-in held to Klaviyo's limits", () => {
  let klaviyo: KlaviyoStandIn;
  let account: KlaviyoAccount;
  const event = (n: number): KlaviyoEvent => ({
    metric: "Waitlist invitation",
    email: `person${n}@example.com`,
    firstName: "Jordan",
    lastName: "Smith",
    properties: { waitlist_place: n },
    uniqueId: `invitation-${n}`,
  });

  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
    account = { apiUrl: klaviyo.apiUrl, privateApiKey: klaviyo.privateApiKey };
  });

  afterEach(() => {
    jest.restoreAllMocks();
    klaviyo.reset();
  });

  afterAll(() => klaviyo.close());

  it("answers Create Event past the steady limit with 429 and the seconds to the next minute, and takes nothing more", async () => {
    // The stand-in's clock held 15 s into a minute, so no window ends between the requests.
    jest.spyOn(Date, "now").mockReturnValue(MINUTE + 15_000);
    klaviyo.rateLimit("create_event", { burstPerSecond: 350, steadyPerMinute: 2 });
    expect(await createKlaviyoEvent(event(1), account)).toEqual({ kind: "delivered" });
    expect(await createKlaviyoEvent(event(2), account)).toEqual({ kind: "delivered" });
    expect(await createKlaviyoEvent(event(3), account)).toMatchObject({ kind: "throttled", retryAfterS: 45 });
    expect(klaviyo.events.map((taken) => taken.uniqueId)).toEqual(["invitation-1", "invitation-2"]);
    expect(klaviyo.received.at(-1)).toMatchObject({ operation: "create_event", status: 429, retryAfterS: 45 });
    expect(klaviyo.problems).toEqual([]);
  });

  it("limits only the operation it names", async () => {
    jest.spyOn(Date, "now").mockReturnValue(MINUTE + 15_000);
    klaviyo.rateLimit("request_profile_deletion", { burstPerSecond: 1, steadyPerMinute: 1 });
    for (const n of [4, 5, 6]) expect(await createKlaviyoEvent(event(n), account)).toEqual({ kind: "delivered" });
  });
});
