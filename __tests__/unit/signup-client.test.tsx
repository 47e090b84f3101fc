/**
 * The signup client and retry policy on their own (product rules 9, 16, 17), the Client API's
 * request and the reading of its answers, and the form's inline success state.
 */
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { SignupForm } from "../../src/components/SignupForm";
import { Layout } from "../../src/components/Layout";
import { readProviderAnswer, retryAfterMs } from "../../src/signup/answer";
import { subscribe } from "../../src/signup/client";
import { SignupConfigurationError, SignupEmailRefusedError, SignupNetworkError, SignupRejectedError } from "../../src/signup/errors";
import { SignupServerError, SignupThrottledError } from "../../src/signup/temporaryErrors";
import { clientApiRequest } from "../../src/signup/clientApi";
import { retryDelay } from "../../src/lib/backoff";
import { shouldRetrySignup, signupRetryDelay } from "../../src/signup/retryPolicy";
import { loadTestContent } from "../support/content";
import { renderInProviders } from "../support/render";

const content = loadTestContent();
const SUBMISSION = { email: "jordan@example.com", firstName: "Jordan", lastName: "Smith" };
/** fetch as the signup client calls it: (url, init). */
const fetchMock = jest.fn<Promise<unknown>, [string, RequestInit]>();

afterEach(() => jest.useRealTimers());

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockResolvedValue({ type: "opaque", status: 0 });
  global.fetch = fetchMock as unknown as typeof fetch;
});

describe("subscribe", () => {
  it.each([
    ["no public API key", { publicApiKey: null, listId: "WtL1st" }],
    ["no list id", { publicApiKey: "Pk7Fnd", listId: "" }],
    ["neither", {}],
  ])("throws a configuration error saying both are required, and sends nothing, with %s", async (_case, config) => {
    const call = subscribe({ endpointUrl: "https://provider.example/subscribe", ...config }, SUBMISSION);
    await expect(call).rejects.toThrow(new SignupConfigurationError());
    await expect(call).rejects.toThrow("A public API key and a list id are both required to subscribe.");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("treats an opaque answer as success", async () => {
    await expect(
      subscribe({ endpointUrl: "https://provider.example/subscribe", publicApiKey: "Pk7Fnd", listId: "WtL1st" }, SUBMISSION),
    ).resolves.toBeUndefined();
  });

  it("turns a rejected fetch into a network error that keeps the message", async () => {
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    const call = subscribe({ endpointUrl: "https://provider.example/subscribe", publicApiKey: "Pk7Fnd", listId: "WtL1st" }, SUBMISSION);
    await expect(call).rejects.toBeInstanceOf(SignupNetworkError);
    await expect(call).rejects.toThrow("Failed to fetch");
  });

  it("aborts an attempt that gets no answer within the timeout and reports it as a network error", async () => {
    jest.useFakeTimers();
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(new Error("aborted")))),
    );
    const call = subscribe({ endpointUrl: "https://provider.example/subscribe", publicApiKey: "Pk7Fnd", listId: "WtL1st" }, SUBMISSION);
    const outcome = expect(call).rejects.toMatchObject({ name: "SignupNetworkError", message: "" });
    await jest.advanceTimersByTimeAsync(4_999);
    expect(fetchMock.mock.calls[0][1].signal?.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await outcome;
  });
});

describe("the Client API request", () => {
  const TARGET = {
    endpointUrl: "https://a.klaviyo.com/client/subscriptions/",
    publicApiKey: "Pk7Fnd",
    listId: "WtL1st",
    customSource: "PickFund waitlist",
  };
  /** The JSON:API subscription document a request carries (the parts these tests read). */
  const sent = (init: RequestInit) =>
    JSON.parse(init.body as string) as {
      data: { attributes: { custom_source?: string; profile: { data: { attributes: { properties?: Record<string, string> } } } } };
    };
  const profile = (init: RequestInit) => sent(init).data.attributes.profile.data.attributes;

  it("puts the public key in company_id and leaves out empty profile properties", () => {
    const [url, init] = clientApiRequest(TARGET, { ...SUBMISSION, properties: {} });
    expect(url).toBe("https://a.klaviyo.com/client/subscriptions/?company_id=Pk7Fnd");
    expect(profile(init)).toEqual({ email: "jordan@example.com", first_name: "Jordan", last_name: "Smith" });
    expect(sent(init).data.attributes.custom_source).toBe("PickFund waitlist");
  });

  it("sends profile properties when there are some, and no custom_source when none is set", () => {
    const [, init] = clientApiRequest(
      { ...TARGET, customSource: null },
      { ...SUBMISSION, properties: { utm_source: "newsletter", landing_page: "/" } },
    );
    expect(profile(init).properties).toEqual({ utm_source: "newsletter", landing_page: "/" });
    expect(sent(init).data.attributes).not.toHaveProperty("custom_source");
  });
});

describe("reading a Client API answer", () => {
  const error = (status: number, pointer?: string, detail = "Something is wrong") => ({
    errors: [{ id: "x", status: String(status), code: "invalid", title: "Invalid input.", detail, source: pointer ? { pointer } : {} }],
  });
  const NOW_MS = Date.UTC(2030, 0, 1, 12);

  it.each<[string, number, unknown, string | null, ReturnType<typeof readProviderAnswer>]>([
    ["202 with no body: accepted", 202, null, null, { outcome: "accepted" }],
    ["200: accepted", 200, null, null, { outcome: "accepted" }],
    [
      "400 pointing at the profile's e-mail: the address is refused",
      400,
      error(400, "/data/attributes/profile/data/attributes/email", "Invalid email address"),
      null,
      { outcome: "emailRefused", detail: "Invalid email address" },
    ],
    [
      "400 pointing at the list: rejected (configuration)",
      400,
      error(400, "/data/relationships/list/data/id", "List not found"),
      null,
      { outcome: "rejected", status: 400, detail: "List not found" },
    ],
    [
      "400 without a pointer (bad company_id): rejected",
      400,
      error(400, undefined, "Invalid Company ID"),
      null,
      { outcome: "rejected", status: 400, detail: "Invalid Company ID" },
    ],
    ["403 with no body: rejected, detail from the status", 403, null, null, { outcome: "rejected", status: 403, detail: "HTTP 403" }],
    ["429 with Retry-After in seconds: throttled", 429, null, "7", { outcome: "throttled", retryAfterMs: 7_000 }],
    [
      "429 with Retry-After as an HTTP date: throttled until then",
      429,
      null,
      new Date(NOW_MS + 4_000).toUTCString(),
      { outcome: "throttled", retryAfterMs: 4_000 },
    ],
    ["429 whose Retry-After cannot be read: throttled, delay unknown", 429, null, null, { outcome: "throttled", retryAfterMs: null }],
    ["500: failed", 500, error(500), null, { outcome: "failed", status: 500 }],
    ["503 with an HTML body: failed", 503, null, null, { outcome: "failed", status: 503 }],
  ])("%s", (_case, status, body, retryAfter, expected) => {
    expect(readProviderAnswer(status, body, retryAfter, NOW_MS)).toEqual(expected);
  });

  it("ignores a Retry-After it cannot read, and a date in the past waits 0 ms", () => {
    expect(retryAfterMs("soon", NOW_MS)).toBeNull();
    expect(retryAfterMs(new Date(NOW_MS - 60_000).toUTCString(), NOW_MS)).toBe(0);
  });
});

describe("subscribe on the Client API", () => {
  const CONFIG = {
    transport: "client-api" as const,
    endpointUrl: "https://a.klaviyo.com/client/subscriptions/",
    publicApiKey: "Pk7Fnd",
    listId: "WtL1st",
  };
  const reply = (status: number, body = "", headers: Record<string, string> = {}) => ({
    status,
    headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
    text: () => Promise.resolve(body),
  });

  it.each<[string, ReturnType<typeof reply>, unknown]>([
    [
      "a refused e-mail",
      reply(
        400,
        JSON.stringify({ errors: [{ detail: "Bad address", source: { pointer: "/data/attributes/profile/data/attributes/email" } }] }),
      ),
      SignupEmailRefusedError,
    ],
    ["a 429", reply(429, "", { "retry-after": "2" }), SignupThrottledError],
    ["a 502 with a non-JSON body", reply(502, "<html>Bad gateway</html>"), SignupServerError],
    [
      "a wrong list id",
      reply(400, JSON.stringify({ errors: [{ detail: "List not found", source: { pointer: "/data/relationships/list/data/id" } }] })),
      SignupRejectedError,
    ],
  ])("throws the matching error for %s", async (_case, response, type) => {
    fetchMock.mockResolvedValue(response);
    await expect(subscribe(CONFIG, SUBMISSION)).rejects.toBeInstanceOf(type);
  });

  it("resolves on 202", async () => {
    fetchMock.mockResolvedValue(reply(202));
    await expect(subscribe(CONFIG, SUBMISSION)).resolves.toBeUndefined();
    expect(fetchMock.mock.calls[0][1].mode).toBe("cors");
  });
});

describe("retry policy (product rule 9)", () => {
  it("retries network failures, 5xx and 429 3 times in all; configuration errors and refusals never", () => {
    for (const passing of [new SignupNetworkError("Failed to fetch"), new SignupServerError(500), new SignupThrottledError(null)]) {
      expect([0, 1, 2, 3].map((n) => shouldRetrySignup(n, passing))).toEqual([true, true, true, false]);
    }
    expect(shouldRetrySignup(0, new SignupConfigurationError())).toBe(false);
    expect(shouldRetrySignup(0, new SignupEmailRefusedError("Bad address"))).toBe(false);
    expect(shouldRetrySignup(0, new SignupRejectedError(400, "Invalid Company ID"))).toBe(false);
    expect(shouldRetrySignup(0, new Error("anything else"))).toBe(false);
  });

  it("waits what a 429's Retry-After asked for, at most 30 s, and the backoff when it is unknown", () => {
    expect(signupRetryDelay(0, new SignupThrottledError(3_000))).toBe(3_000);
    expect(signupRetryDelay(2, new SignupThrottledError(0))).toBe(0);
    expect(signupRetryDelay(0, new SignupThrottledError(120_000))).toBe(30_000);
    expect(signupRetryDelay(1, new SignupThrottledError(null))).toBe(2_000);
    expect(signupRetryDelay(2, new SignupServerError(500))).toBe(4_000);
  });

  it("backs off exponentially from 1 s and caps at 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });
});

describe("inline success state", () => {
  it("shows the welcome message with JOIN DISCORD to the inline invite when no navigation is wanted", async () => {
    fetchMock.mockResolvedValue({ status: 202, headers: { get: () => null }, text: () => Promise.resolve("") });
    renderInProviders(
      <Layout content={content} pathname="/">
        <SignupForm content={content} />
      </Layout>,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Email"), "jordan@example.com");
    await user.type(screen.getByLabelText("First name"), "Jordan");
    await user.type(screen.getByLabelText("Last name"), "Smith");
    await user.click(screen.getByRole("button", { name: content.home.form.submit }));
    await waitFor(() => expect(screen.getByRole("heading", { name: "Welcome to the Team!" })).toBeInTheDocument());
    const link = screen.getByRole("link", { name: /JOIN DISCORD/ });
    expect(link).toHaveAttribute("href", content.links.inlineDiscordInviteUrl);
    expect(link.getAttribute("href")).not.toBe(content.links.discordInviteUrl);
    expect(screen.queryByRole("form")).not.toBeInTheDocument();
  });
});
