/**
 * The waitlist service transport on its own: the request the page sends to `POST /api/signups`, the reading of
 * every answer the service gives (worker/src/signups/signup.ts), and the Turnstile token each attempt carries.
 */
import { subscribe } from "../../src/signup/client";
import { SignupConfigurationError, SignupEmailRefusedError, SignupRejectedError, SignupVerificationError } from "../../src/signup/errors";
import { SignupServerError, SignupThrottledError } from "../../src/signup/temporaryErrors";
import { SIGNUPS_ENDPOINT, TURNSTILE_SIGNUP_ACTION } from "../../shared/contract";
import { TurnstileChallenge, type TurnstileApi, type TurnstileRenderOptions } from "../../src/signup/turnstile";
import { readWaitlistAnswer, waitlistApiRequest } from "../../src/signup/waitlistApi";

const SUBMISSION = { email: "jordan@example.com", firstName: "Jordan", lastName: "Smith" };
const SERVICE = { transport: "waitlist-api" as const, endpointUrl: SIGNUPS_ENDPOINT, listId: "WtL1st", customSource: "PickFund waitlist" };
/** fetch as the signup client calls it: (url, init). */
const fetchMock = jest.fn<Promise<unknown>, [string, RequestInit]>();

/** An answer as fetch gives it (jsdom has no Response). */
function answer(status: number, body: unknown = null, headers: Record<string, string> = {}) {
  return {
    type: "basic",
    status,
    ok: status >= 200 && status < 300,
    headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
    text: () => Promise.resolve(body === null ? "" : JSON.stringify(body)),
  };
}
/** The service's JSON:API error document with one error. */
const serviceError = (status: number, code: string, pointer?: string) => ({
  errors: [{ status: String(status), code, detail: `${code} detail`, ...(pointer === undefined ? {} : { source: { pointer } }) }],
});
/** The service's one accepted answer (shared/api/signups.ts: SIGNUP_ACCEPTED). */
const ACCEPTED = { accepted: true };

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockResolvedValue(answer(202, ACCEPTED));
  global.fetch = fetchMock as unknown as typeof fetch;
});
afterEach(() => jest.useRealTimers());

describe("the request", () => {
  const body = (init: RequestInit) => JSON.parse(init.body as string) as Record<string, unknown>;

  it("POSTs JSON to /api/signups on the page's own origin: the values, the custom source and the profile properties", () => {
    const [url, init] = waitlistApiRequest(SERVICE, { ...SUBMISSION, properties: { utm_source: "newsletter", landing_page: "/" } });
    expect(url).toBe("/api/signups");
    expect(init).toMatchObject({ method: "POST", credentials: "same-origin" });
    expect(init.headers).toMatchObject({ "content-type": "application/json" });
    expect(body(init)).toEqual({
      email: "jordan@example.com",
      firstName: "Jordan",
      lastName: "Smith",
      source: "PickFund waitlist",
      properties: { utm_source: "newsletter", landing_page: "/" },
    });
  });

  it("adds the Turnstile token and the referral code (as ref) when there are some, and leaves out a custom source there is none of", () => {
    const [, init] = waitlistApiRequest(
      { endpointUrl: SIGNUPS_ENDPOINT, customSource: null },
      { ...SUBMISSION, turnstileToken: "XXXX.DUMMY.TOKEN.XXXX", referralCode: "jordan7" },
    );
    expect(body(init)).toEqual({ ...SUBMISSION, properties: {}, turnstileToken: "XXXX.DUMMY.TOKEN.XXXX", ref: "jordan7" });
  });

  it("never sends the honeypot: the form stops a filled one before any request", () => {
    const [, init] = waitlistApiRequest(SERVICE, SUBMISSION);
    expect(body(init)).not.toHaveProperty("website");
  });
});

describe("reading the service's answers", () => {
  it.each<[string, number, unknown, string | null, ReturnType<typeof readWaitlistAnswer>]>([
    ["202: accepted (a newcomer, someone already on the list and a bot alike)", 202, ACCEPTED, null, { outcome: "accepted" }],
    ["202 with a body that is not the service's: accepted all the same", 202, null, null, { outcome: "accepted" }],
    [
      "400 disposable_email on /email: the address is refused",
      400,
      serviceError(400, "disposable_email", "/email"),
      null,
      { outcome: "emailRefused", detail: "disposable_email detail" },
    ],
    [
      "400 too_long on /firstName: rejected (the page's own checks let nothing like it through)",
      400,
      serviceError(400, "too_long", "/firstName"),
      null,
      { outcome: "rejected", status: 400, detail: "too_long detail" },
    ],
    [
      "403 turnstile_failed: the visitor was not verified",
      403,
      serviceError(403, "turnstile_failed"),
      null,
      { outcome: "verificationRefused", detail: "turnstile_failed detail" },
    ],
    [
      "403 origin_not_allowed: rejected (a setting, not the visitor)",
      403,
      serviceError(403, "origin_not_allowed"),
      null,
      { outcome: "rejected", status: 403, detail: "origin_not_allowed detail" },
    ],
    [
      "429 with Retry-After: 60: throttled for 60 s",
      429,
      serviceError(429, "rate_limited"),
      "60",
      { outcome: "throttled", retryAfterMs: 60_000 },
    ],
    ["503 unavailable: failed", 503, serviceError(503, "unavailable"), "5", { outcome: "failed", status: 503 }],
  ])("%s", (_case, status, body, retryAfter, expected) => {
    expect(readWaitlistAnswer(status, body, retryAfter)).toEqual(expected);
  });
});

describe("subscribe with the waitlist-api transport", () => {
  it("needs no public API key, and resolves once the service accepted", async () => {
    await expect(subscribe({ ...SERVICE, publicApiKey: null }, SUBMISSION)).resolves.toBeUndefined();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0][0]).toBe("/api/signups");
  });

  it("sends nothing without a list id (a demo build publishes none), and says so", async () => {
    const call = subscribe({ ...SERVICE, listId: null }, SUBMISSION);
    await expect(call).rejects.toBeInstanceOf(SignupConfigurationError);
    await expect(call).rejects.toThrow("A list id is required to subscribe.");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each([
    ["400 on /email", answer(400, serviceError(400, "invalid_email", "/email")), SignupEmailRefusedError],
    ["403 turnstile_failed", answer(403, serviceError(403, "turnstile_failed")), SignupVerificationError],
    ["429", answer(429, serviceError(429, "rate_limited"), { "retry-after": "60" }), SignupThrottledError],
    ["503", answer(503, serviceError(503, "unavailable"), { "retry-after": "5" }), SignupServerError],
    ["415", answer(415, serviceError(415, "unsupported_media_type")), SignupRejectedError],
  ])("turns %s into the error the form acts on", async (_case, response, errorType) => {
    fetchMock.mockResolvedValue(response);
    await expect(subscribe(SERVICE, SUBMISSION)).rejects.toBeInstanceOf(errorType);
  });
});

describe("the Turnstile token of each attempt", () => {
  /** A window.turnstile stand-in whose widget solves when the test says so. */
  function fakeTurnstile() {
    let options: TurnstileRenderOptions | null = null;
    let response: string | undefined;
    const api: TurnstileApi = {
      render: jest.fn((_container: HTMLElement | string, given: TurnstileRenderOptions) => {
        options = given;
        return "widget-1";
      }),
      reset: jest.fn(() => {
        response = undefined;
      }),
      getResponse: jest.fn(() => response),
      remove: jest.fn(),
    };
    const solve = (token: string) => {
      response = token;
      options?.callback?.(token);
    };
    return { api, solve, options: () => options };
  }

  it("draws the widget with the site key and the signup action the service checks, flexible and dark, its token in cf-turnstile-response", () => {
    const { api, options } = fakeTurnstile();
    new TurnstileChallenge().mount(api, document.createElement("div"), "1x00000000000000000000AA");
    expect(options()).toMatchObject({
      sitekey: "1x00000000000000000000AA",
      action: TURNSTILE_SIGNUP_ACTION,
      size: "flexible",
      theme: "dark",
      "response-field-name": "cf-turnstile-response",
    });
  });

  it("gives the token at once when the widget has one, and waits for one that is on its way", async () => {
    const { api, solve } = fakeTurnstile();
    const challenge = new TurnstileChallenge();
    challenge.mount(api, document.createElement("div"), "1x00000000000000000000AA");
    const waiting = challenge.token();
    solve("first.token");
    await expect(waiting).resolves.toBe("first.token");
    await expect(challenge.token()).resolves.toBe("first.token");
  });

  it("after a failed attempt spends its token, resets the widget, and the next attempt waits for the new token", async () => {
    const { api, solve } = fakeTurnstile();
    const challenge = new TurnstileChallenge();
    challenge.mount(api, document.createElement("div"), "1x00000000000000000000AA");
    solve("first.token");
    challenge.spent();
    expect(api.reset).toHaveBeenCalledWith("widget-1");
    const next = challenge.token();
    solve("second.token");
    await expect(next).resolves.toBe("second.token");
  });

  it("does not wait when the script could not load or the widget broke, and gives up waiting after 10 s", async () => {
    const broken = new TurnstileChallenge();
    broken.fail();
    await expect(broken.token()).resolves.toBeUndefined();

    jest.useFakeTimers();
    const { api } = fakeTurnstile();
    const slow = new TurnstileChallenge();
    slow.mount(api, document.createElement("div"), "1x00000000000000000000AA");
    let token: string | undefined | null = null;
    void slow.token().then((value) => (token = value));
    await jest.advanceTimersByTimeAsync(9_999);
    expect(token).toBeNull();
    await jest.advanceTimersByTimeAsync(1);
    expect(token).toBeUndefined();
  });
});
