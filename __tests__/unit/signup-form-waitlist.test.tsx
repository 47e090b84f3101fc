/**
 * The signup on / with `provider.transport: waitlist-api`, as a visitor uses it: the request to our own
 * service, what the visitor sees for each of its answers, the Cloudflare Turnstile widget, and the
 * no-JavaScript form that posts to the service. (signup-form.test.tsx covers client-api and legacy-form.)
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { navigate } from "gatsby";
import { SignupForm } from "../../src/components/SignupForm";
import IndexPage from "../../src/pages/index";
import { loadRadixToaster } from "../../src/toasts/Toasts";
import { TURNSTILE_SCRIPT_URL, type TurnstileApi, type TurnstileRenderOptions } from "../../src/signup/turnstile";
import { SIGNUP_FIELD_MAX_LENGTH } from "../../shared/validation";
import { loadTestContent, loadTestVariant, type TestSiteContent } from "../support/content";
import { renderInProviders, renderPage } from "../support/render";

/** The fixture on the waitlist service, without Turnstile. */
const service = loadTestVariant([[["provider", "transport"], "waitlist-api"]]);
/** The same with Cloudflare's always-passing test site key: the form shows the widget. */
const TEST_SITE_KEY = "1x00000000000000000000AA";
const withTurnstile = loadTestVariant([
  [["provider", "transport"], "waitlist-api"],
  [["provider", "turnstileSiteKey"], TEST_SITE_KEY],
]);
const { toasts, home } = service;
const failed = toasts.subscriptionFailed;
const CONFIRMED = toasts.success.title + toasts.success.message;

/** fetch as the signup client calls it: (url, init). */
const fetchMock = jest.fn<Promise<unknown>, [string, RequestInit]>();

/** The service's answer as fetch gives it (same origin: every header readable; jsdom has no Response). */
function answer(status: number, body: unknown = null, headers: Record<string, string> = {}) {
  return {
    type: "basic",
    status,
    ok: status >= 200 && status < 300,
    headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
    text: () => Promise.resolve(body === null ? "" : JSON.stringify(body)),
  };
}
/** The service's JSON:API error document. */
const serviceError = (status: number, code: string, pointer?: string) => ({
  errors: [{ status: String(status), code, detail: `The service's ${code}.`, ...(pointer ? { source: { pointer } } : {}) }],
});
/** The service's one accepted answer (shared/api/signups.ts: SIGNUP_ACCEPTED). */
const ACCEPTED = { accepted: true };

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockResolvedValue(answer(202, ACCEPTED));
  global.fetch = fetchMock as unknown as typeof fetch;
  (navigate as jest.Mock).mockReset();
  delete window.turnstile;
});
afterEach(() => {
  jest.useRealTimers();
});

const VALID = { email: "jordan@example.com", first: "Jordan", last: "Smith" };

/** Whether this test runs on Jest's fake timers (the check Testing Library makes: sinon marks its fakes with `clock`). */
const fakeTimersOn = () => Object.prototype.hasOwnProperty.call(setTimeout, "clock");

/** Type into the three fields and submit, past the browser's own checks (as a script-only visitor reaches them). */
async function fillAndSubmit(values = VALID, user = userEvent.setup(fakeTimersOn() ? { advanceTimers: jest.advanceTimersByTime } : {})) {
  await user.type(screen.getByLabelText(home.form.email.label), values.email);
  await user.type(screen.getByLabelText(home.form.firstName.label), values.first);
  await user.type(screen.getByLabelText(home.form.lastName.label), values.last);
  fireEvent.submit(screen.getByRole("form"));
}

/** The toast region's text (title and message of every toast showing). */
function toastTexts(): string[] {
  const region = screen.getByRole("region", { name: /Notifications/ });
  return [...within(region).queryAllByRole("alert"), ...within(region).queryAllByRole("status")].map((el) => el.textContent ?? "");
}

/** Render / and let the layout's toaster finish loading, for tests that only look at the page. */
async function renderSettled(content: TestSiteContent) {
  const rendered = renderPage(IndexPage, "/", content);
  await act(async () => {
    await loadRadixToaster();
  });
  return rendered;
}

/** The JSON body of the n-th request. */
const sentBody = (call = 0) => JSON.parse(fetchMock.mock.calls[call][1].body as string) as Record<string, unknown>;

/** The typed values are still in the fields, the form is enabled again, and nothing navigated. */
function expectValuesKept() {
  expect(screen.getByRole("button", { name: home.form.submit })).toBeEnabled();
  expect(screen.getByLabelText(home.form.email.label)).toHaveValue(VALID.email);
  expect(screen.getByLabelText(home.form.firstName.label)).toHaveValue(VALID.first);
  expect(screen.getByLabelText(home.form.lastName.label)).toHaveValue(VALID.last);
  expect(navigate).not.toHaveBeenCalled();
}

describe("what the service answers, and what the visitor sees", () => {
  it("202: POSTs the signup as JSON to /api/signups (values, custom source, attribution), confirms and goes to /success/", async () => {
    renderPage(IndexPage, "/", service);
    await fillAndSubmit();
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
    expect(toastTexts()).toEqual([CONFIRMED]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe("/api/signups");
    expect(init.method).toBe("POST");
    expect(init.headers).toMatchObject({ "content-type": "application/json" });
    expect(sentBody()).toEqual({
      email: "jordan@example.com",
      firstName: "Jordan",
      lastName: "Smith",
      source: "Fixture Fund waitlist",
      properties: { landing_page: "/" },
    });
  });

  it("calls onSubscribed once the service accepted, and sends the referral code as ref", async () => {
    const onSubscribed = jest.fn();
    renderInProviders(<SignupForm content={service} referralCode={() => "pal42"} onSubscribed={onSubscribed} />);
    await fillAndSubmit();
    await waitFor(() => expect(onSubscribed).toHaveBeenCalledWith());
    expect(sentBody()).toMatchObject({ ref: "pal42" });
  });

  it("sends no ref when the visitor came by no referral link", async () => {
    renderInProviders(<SignupForm content={service} referralCode={() => null} onSubscribed={jest.fn()} />);
    await fillAndSubmit();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(sentBody()).not.toHaveProperty("ref");
  });

  it("400 pointing at /email (a disposable address): the invalid-email toast, no retry, the e-mail field focused, values kept", async () => {
    fetchMock.mockResolvedValue(answer(400, serviceError(400, "disposable_email", "/email")));
    renderPage(IndexPage, "/", service);
    await fillAndSubmit();
    await waitFor(() => expect(toastTexts()).toEqual([toasts.invalidEmail.title + toasts.invalidEmail.message]));
    await waitFor(() => expect(screen.getByLabelText(home.form.email.label)).toHaveFocus());
    expectValuesKept();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("403 turnstile_failed: 'Subscription failed' with the verification message, no retry, values kept", async () => {
    fetchMock.mockResolvedValue(answer(403, serviceError(403, "turnstile_failed")));
    renderPage(IndexPage, "/", service);
    await fillAndSubmit();
    await waitFor(() => expect(toastTexts()).toEqual([failed.title + failed.verificationMessage]));
    expect(toastTexts().join()).not.toContain("turnstile_failed");
    expectValuesKept();
    await waitFor(() => expect(screen.getByRole("button", { name: home.form.submit })).toHaveFocus());
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("429 with Retry-After: 2, then 202: waits the 2 s it was asked to (not the 1 s backoff), then confirms", async () => {
    jest.useFakeTimers();
    fetchMock.mockResolvedValueOnce(answer(429, serviceError(429, "rate_limited"), { "retry-after": "2" }));
    renderPage(IndexPage, "/", service);
    await fillAndSubmit();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await act(async () => jest.advanceTimersByTimeAsync(1_999));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("button", { name: home.form.submitting })).toBeDisabled();
    await act(async () => jest.advanceTimersByTimeAsync(1));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
    expect(toastTexts()).toEqual([CONFIRMED]);
  });

  it("503 four times: retried 3 times (1 s, 2 s, 4 s), then 'Subscription failed' / the fallback message, values kept", async () => {
    jest.useFakeTimers();
    fetchMock.mockResolvedValue(answer(503, serviceError(503, "unavailable"), { "retry-after": "5" }));
    renderPage(IndexPage, "/", service);
    await fillAndSubmit();
    await act(async () => jest.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000));
    await waitFor(() => expect(toastTexts()).toEqual([failed.title + failed.fallbackMessage]));
    await act(async () => jest.advanceTimersByTimeAsync(60_000));
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expectValuesKept();
  });

  it("the service cannot be reached: retried 3 times, then the network message (never the browser's text), values kept", async () => {
    jest.useFakeTimers();
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    renderPage(IndexPage, "/", service);
    await fillAndSubmit();
    await act(async () => jest.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000));
    await waitFor(() => expect(toastTexts()).toEqual([failed.title + failed.networkMessage]));
    expect(toastTexts().join()).not.toContain("Failed to fetch");
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expectValuesKept();
  });

  it("another refusal (403 origin_not_allowed): the rejected message, no retry, the service's detail only in the console", async () => {
    const consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
    fetchMock.mockResolvedValue(answer(403, serviceError(403, "origin_not_allowed")));
    renderPage(IndexPage, "/", service);
    await fillAndSubmit();
    await waitFor(() => expect(toastTexts()).toEqual([failed.title + failed.rejectedMessage]));
    expect(consoleError.mock.calls.map((args) => String(args[0])).join("\n")).toContain("origin_not_allowed");
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expectValuesKept();
    consoleError.mockRestore();
  });

  it("demo mode: simulates success and sends nothing, with no Turnstile widget", async () => {
    jest.useFakeTimers();
    const demo = loadTestVariant([
      [["provider", "transport"], "waitlist-api"],
      [["provider", "turnstileSiteKey"], TEST_SITE_KEY],
      [["provider", "demoMode"], true],
    ]);
    const { container } = renderPage(IndexPage, "/", demo);
    await act(async () => jest.advanceTimersByTimeAsync(100));
    expect(document.querySelector(`script[src="${TURNSTILE_SCRIPT_URL}"]`)).toBeNull();
    expect(container.querySelector("[data-turnstile-box]")).toBeNull();
    await fillAndSubmit();
    await act(async () => jest.advanceTimersByTimeAsync(1_500));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

/**
 * A stand-in for Cloudflare's `window.turnstile`, as its client-side rendering reference describes it: the widget
 * solves at once with Cloudflare's dummy token, numbered so a test can tell a fresh token from a spent one.
 */
function installTurnstile() {
  let issued = 0;
  let current: string | undefined;
  let options: TurnstileRenderOptions | null = null;
  const solve = () => {
    issued += 1;
    current = `XXXX.DUMMY.TOKEN.XXXX-${issued}`;
    options?.callback?.(current);
  };
  const api: TurnstileApi = {
    render: jest.fn((_container: HTMLElement | string, given: TurnstileRenderOptions) => {
      options = given;
      setTimeout(solve, 0);
      return "widget-1";
    }),
    reset: jest.fn(() => {
      current = undefined;
      setTimeout(solve, 0);
    }),
    getResponse: jest.fn(() => current),
    remove: jest.fn(),
  };
  return api;
}

describe("Cloudflare Turnstile (provider.turnstileSiteKey)", () => {
  it("reserves the widget's 65 px in the form at once, and loads Cloudflare's script only after the first paint", async () => {
    jest.useFakeTimers();
    const { container } = renderPage(IndexPage, "/", withTurnstile);
    const box = container.querySelector("[data-turnstile-box]");
    expect(box).not.toBeNull();
    expect(box).toHaveStyleRule("min-height", "65px");
    expect(screen.getByRole("form")).toContainElement(box as HTMLElement);
    expect(document.querySelector(`script[src="${TURNSTILE_SCRIPT_URL}"]`)).toBeNull();
    // The next frame: the page has painted (jsdom reports no paint, so afterFirstPaint waits a frame).
    await act(async () => jest.advanceTimersByTimeAsync(50));
    const script = document.querySelector<HTMLScriptElement>(`script[src="${TURNSTILE_SCRIPT_URL}"]`);
    expect(script).not.toBeNull();
    expect(script?.async).toBe(true);

    // Cloudflare's script arrives: the widget is drawn into the reserved box with the content's site key.
    const api = installTurnstile();
    window.turnstile = api;
    await act(async () => {
      script?.dispatchEvent(new Event("load"));
      await jest.advanceTimersByTimeAsync(10);
    });
    expect(api.render).toHaveBeenCalledWith(box, expect.objectContaining({ sitekey: TEST_SITE_KEY }));
  });

  it("sends the widget's token as turnstileToken", async () => {
    window.turnstile = installTurnstile();
    renderPage(IndexPage, "/", withTurnstile);
    await fillAndSubmit(VALID, userEvent.setup());
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
    expect(sentBody()).toMatchObject({ turnstileToken: "XXXX.DUMMY.TOKEN.XXXX-1" });
  });

  it("403 turnstile_failed: the verification message, the widget reset, and the next send carries the new token", async () => {
    const api = installTurnstile();
    window.turnstile = api;
    fetchMock.mockResolvedValueOnce(answer(403, serviceError(403, "turnstile_failed")));
    renderPage(IndexPage, "/", withTurnstile);
    await fillAndSubmit(VALID, userEvent.setup());
    await waitFor(() => expect(toastTexts()).toEqual([failed.title + failed.verificationMessage]));
    expect(api.reset).toHaveBeenCalledWith("widget-1");
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expectValuesKept();

    fireEvent.submit(screen.getByRole("form"));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
    expect(sentBody(0)).toMatchObject({ turnstileToken: "XXXX.DUMMY.TOKEN.XXXX-1" });
    expect(sentBody(1)).toMatchObject({ turnstileToken: "XXXX.DUMMY.TOKEN.XXXX-2" });
  });

  it("a retried attempt (503, then 202) carries a fresh token: Cloudflare accepts each token once", async () => {
    jest.useFakeTimers();
    window.turnstile = installTurnstile();
    fetchMock.mockResolvedValueOnce(answer(503, serviceError(503, "unavailable")));
    renderPage(IndexPage, "/", withTurnstile);
    await act(async () => jest.advanceTimersByTimeAsync(50));
    await fillAndSubmit();
    await act(async () => jest.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect([sentBody(0).turnstileToken, sentBody(1).turnstileToken]).toEqual(["XXXX.DUMMY.TOKEN.XXXX-1", "XXXX.DUMMY.TOKEN.XXXX-2"]);
  });

  it("has no widget without a site key, nor on the other transports", async () => {
    for (const content of [service, loadTestContent()]) {
      const { container, unmount } = await renderSettled(content);
      expect(container.querySelector("[data-turnstile-box]")).toBeNull();
      unmount();
    }
  });
});

describe("the no-JavaScript form", () => {
  it("posts to /api/signups: the three fields (with the shared rules' maxlength), the custom source, the page and the honeypot; no list id", async () => {
    const { container } = await renderSettled(service);
    const form = screen.getByRole("form");
    expect(form).toHaveAttribute("method", "post");
    expect(form).toHaveAttribute("action", "/api/signups");
    const hidden = (name: string) => container.querySelector<HTMLInputElement>(`input[type="hidden"][name="${name}"]`)?.value;
    expect(hidden("source")).toBe("Fixture Fund waitlist");
    expect(hidden("page")).toBe("/");
    expect(container.querySelector('input[name="g"]')).toBeNull();
    expect(container.querySelector('input[name="website"]')).not.toBeNull();
    expect(screen.getByLabelText(home.form.email.label)).toHaveAttribute("name", "email");
    expect(screen.getByLabelText(home.form.email.label)).toHaveAttribute("maxLength", String(SIGNUP_FIELD_MAX_LENGTH.email));
    expect(screen.getByLabelText(home.form.firstName.label)).toHaveAttribute("name", "first_name");
    expect(screen.getByLabelText(home.form.firstName.label)).toHaveAttribute("maxLength", String(SIGNUP_FIELD_MAX_LENGTH.firstName));
    expect(screen.getByLabelText(home.form.lastName.label)).toHaveAttribute("name", "last_name");
    expect(screen.getByLabelText(home.form.lastName.label)).toHaveAttribute("maxLength", String(SIGNUP_FIELD_MAX_LENGTH.lastName));
  });

  it.each<[string, string]>([
    ["emailRequired", toasts.emailRequired.title + " " + toasts.emailRequired.message],
    ["firstNameRequired", toasts.firstNameRequired.title + " " + toasts.firstNameRequired.message],
    ["lastNameRequired", toasts.lastNameRequired.title + " " + toasts.lastNameRequired.message],
    ["invalidEmail", toasts.invalidEmail.title + " " + toasts.invalidEmail.message],
    ["firstNameInvalid", toasts.firstNameInvalid.title + " " + toasts.firstNameInvalid.message],
    ["lastNameInvalid", toasts.lastNameInvalid.title + " " + toasts.lastNameInvalid.message],
    ["subscriptionFailed", failed.title + " " + failed.fallbackMessage],
    ["verificationFailed", failed.title + " " + failed.verificationMessage],
  ])(
    "carries the message for #signup-error-%s in the content's words, as an alert shown only when it is the URL's target",
    async (key, text) => {
      const { container } = await renderSettled(service);
      const message = container.querySelector(`#signup-error-${key}`);
      expect(message).toHaveTextContent(text, { normalizeWhitespace: true });
      expect(message).toHaveAttribute("role", "alert");
      expect(screen.getByRole("form")).toContainElement(message as HTMLElement);
      expect(message).toHaveStyleRule("display", "none");
      expect(message).toHaveStyleRule("display", "block", { modifier: ":target" });
    },
  );

  it("keeps the other transports' no-JavaScript form as it was: no service messages, the list id for Klaviyo", async () => {
    const { container } = await renderSettled(loadTestContent());
    expect(container.querySelector('[id^="signup-error-"]')).toBeNull();
    expect(container.querySelector<HTMLInputElement>('input[name="g"]')?.value).toBe("WtL1st");
    expect(container.querySelector('input[name="page"]')).toBeNull();
  });
});
