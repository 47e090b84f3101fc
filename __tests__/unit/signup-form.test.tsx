/**
 * The signup on / as a visitor uses it (product rules 6–15): what the form
 * shows, which toasts appear and which request leaves the browser, on both
 * transports (the fixture uses client-api; legacy-form is the older embed endpoint).
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { navigate } from "gatsby";
import IndexPage from "../../src/pages/index";
import { KLAVIYO_REVISION } from "../../src/signup/clientApi";
import { CLIENT_API_ENDPOINT_URL, LEGACY_FORM_ENDPOINT_URL } from "../../src/signup/endpoints";
import { loadTestContent, type TestSiteContent } from "../support/content";
import { renderPage } from "../support/render";

const content = loadTestContent();
/** The fixture on the legacy-form transport, at that transport's own endpoint. */
const legacy: TestSiteContent = {
  ...content,
  provider: { ...content.provider, transport: "legacy-form", endpointUrl: LEGACY_FORM_ENDPOINT_URL },
};
const failed = content.toasts.subscriptionFailed;
/** fetch as the signup client calls it: (url, init). */
const fetchMock = jest.fn<Promise<unknown>, [string, RequestInit]>();
/** What a no-cors fetch resolves with: an opaque response whose status cannot be read. */
const OPAQUE_RESPONSE = { type: "opaque", status: 0, ok: false };

/**
 * A readable answer as fetch gives it in cors mode (jsdom has no Response).
 * @param headers only what CORS lets the page read
 */
function answer(status: number, body: unknown = null, headers: Record<string, string> = {}) {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    type: "cors",
    status,
    ok: status >= 200 && status < 300,
    headers: { get: (name: string) => lower[name.toLowerCase()] ?? null },
    text: () => Promise.resolve(body === null ? "" : JSON.stringify(body)),
  };
}
/** Klaviyo's success: 202 Accepted, no body. */
const ACCEPTED = answer(202);
/** A JSON:API error document with one error. */
const errorDocument = (status: number, detail: string, pointer: string) => ({
  errors: [{ id: "e1", status: String(status), code: "invalid", title: "Invalid input.", detail, source: { pointer } }],
});

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockResolvedValue(ACCEPTED);
  global.fetch = fetchMock as unknown as typeof fetch;
  (navigate as jest.Mock).mockReset();
});

afterEach(() => {
  jest.useRealTimers();
});

type Values = { email?: string; first?: string; last?: string };

/** Type into the three fields and submit, bypassing the browser's `required` check like a script-only visitor would reach it. */
async function fillAndSubmit(
  { email = "", first = "", last = "" }: Values,
  user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime }),
) {
  if (email) await user.type(screen.getByLabelText("Email"), email);
  if (first) await user.type(screen.getByLabelText("First name"), first);
  if (last) await user.type(screen.getByLabelText("Last name"), last);
  fireEvent.submit(screen.getByRole("form"));
}

/** The toast region's text (title and message of every toast showing). */
function toastTexts(): string[] {
  const region = screen.getByRole("region", { name: /Notifications/ });
  return [...within(region).queryAllByRole("alert"), ...within(region).queryAllByRole("status")].map((el) => el.textContent ?? "");
}

const VALID: Values = { email: "jordan@example.com", first: "Jordan", last: "Smith" };

/** The typed values (VALID) are still in the fields, the form is enabled again, and nothing navigated. */
function expectValuesKept() {
  expect(screen.getByRole("button", { name: content.home.form.submit })).toBeEnabled();
  expect(screen.getByLabelText("Email")).toHaveValue("jordan@example.com");
  expect(screen.getByLabelText("First name")).toHaveValue("Jordan");
  expect(screen.getByLabelText("Last name")).toHaveValue("Smith");
  expect(navigate).not.toHaveBeenCalled();
}

describe("validation (product rule 7): the first failure stops the submission", () => {
  it.each<[string, Values, string, string]>([
    ["email is empty, before any other check", {}, "Email required", "Please enter your email address"],
    ["first name is empty", { email: "not-an-email" }, "First name required", "Please enter your first name"],
    ["last name is empty", { email: "not-an-email", first: "Jordan" }, "Last name required", "Please enter your last name"],
    [
      "email does not match the pattern",
      { email: "user@localhost", first: "Jordan", last: "Smith" },
      "Invalid email",
      "Please enter a valid email address",
    ],
    [
      "fields hold only spaces (trimmed to empty)",
      { email: "   ", first: "Jordan", last: "Smith" },
      "Email required",
      "Please enter your email address",
    ],
  ])("shows '%s' → %s / %s and sends nothing", async (_case, values, title, message) => {
    renderPage(IndexPage);
    await fillAndSubmit(values, userEvent.setup());
    await waitFor(() => expect(toastTexts()).toEqual([`${title}${message}`]));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("marks the three fields required and typed for the browser's own check", () => {
    renderPage(IndexPage);
    expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
    for (const label of ["Email", "First name", "Last name"]) expect(screen.getByLabelText(label)).toBeRequired();
    expect(screen.getByLabelText("Email")).toHaveAttribute("autocomplete", "email");
    expect(screen.getByLabelText("First name")).toHaveAttribute("autocomplete", "given-name");
    expect(screen.getByLabelText("Last name")).toHaveAttribute("autocomplete", "family-name");
  });

  it("shows error toasts in the error style", async () => {
    renderPage(IndexPage);
    await fillAndSubmit({}, userEvent.setup());
    const toast = await within(screen.getByRole("region", { name: /Notifications/ })).findByRole("alert");
    expect(within(toast).getByText("Email required")).toBeInTheDocument();
    expect(toast).toHaveAttribute("data-variant", "error");
  });
});

describe("the provider call (product rules 16, 17)", () => {
  it("legacy-form: POSTs one form-urlencoded request in no-cors mode with g, email, first_name and last_name, trimmed", async () => {
    fetchMock.mockResolvedValue(OPAQUE_RESPONSE);
    renderPage(IndexPage, "/", legacy);
    await fillAndSubmit({ email: "  jordan@example.com ", first: " Jordan", last: "Smith  " }, userEvent.setup());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe(LEGACY_FORM_ENDPOINT_URL);
    expect(init.method).toBe("POST");
    expect(init.mode).toBe("no-cors");
    expect(init.headers).toEqual({ "Content-Type": "application/x-www-form-urlencoded" });
    expect(String(init.body as URLSearchParams)).toBe(
      `g=${content.provider.listId}&email=jordan%40example.com&first_name=Jordan&last_name=Smith`,
    );
  });

  it("legacy-form: treats the opaque answer as accepted, confirms and goes to /success/", async () => {
    fetchMock.mockResolvedValue(OPAQUE_RESPONSE);
    renderPage(IndexPage, "/", legacy);
    await fillAndSubmit(VALID, userEvent.setup());
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
    expect(toastTexts()).toEqual(["Submission confirmed" + "Welcome to the team! Check your email for next steps."]);
  });

  it("client-api: POSTs one JSON:API subscription in cors mode, with company_id, the revision header, the custom source and the trimmed values", async () => {
    renderPage(IndexPage);
    await fillAndSubmit({ email: "  jordan@example.com ", first: " Jordan", last: "Smith  " }, userEvent.setup());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe(`${CLIENT_API_ENDPOINT_URL}?company_id=${content.provider.publicApiKey}`);
    expect(init.method).toBe("POST");
    expect(init.mode).toBe("cors");
    expect(init.headers).toEqual({ revision: KLAVIYO_REVISION, "content-type": "application/vnd.api+json" });
    expect(JSON.parse(init.body as string)).toEqual({
      data: {
        type: "subscription",
        attributes: {
          custom_source: "Fixture Fund waitlist",
          // The page the signup was made on; no UTM values or referrer on this visit, so none are sent.
          profile: {
            data: {
              type: "profile",
              attributes: { email: "jordan@example.com", first_name: "Jordan", last_name: "Smith", properties: { landing_page: "/" } },
            },
          },
        },
        relationships: { list: { data: { type: "list", id: content.provider.listId } } },
      },
    });
  });

  it("disables the inputs and shows the submitting text with a spinner while sending, then confirms and goes to /success/", async () => {
    let release: (value: unknown) => void = () => undefined;
    fetchMock.mockImplementation(() => new Promise((resolve) => (release = resolve)));
    renderPage(IndexPage);
    await fillAndSubmit(VALID, userEvent.setup());

    const button = await screen.findByRole("button", { name: content.home.form.submitting });
    expect(button).toBeDisabled();
    expect(screen.getByRole("img", { name: content.home.form.submitting })).toBeInTheDocument();
    for (const label of ["Email", "First name", "Last name"]) expect(screen.getByLabelText(label)).toBeDisabled();
    expect(navigate).not.toHaveBeenCalled();

    await act(() => Promise.resolve(release(ACCEPTED)));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
    expect(toastTexts()).toEqual(["Submission confirmed" + "Welcome to the team! Check your email for next steps."]);
  });

  it("sends one request for a double submit", async () => {
    fetchMock.mockImplementation(() => new Promise(() => undefined));
    renderPage(IndexPage);
    await fillAndSubmit(VALID, userEvent.setup());
    fireEvent.submit(screen.getByRole("form"));
    fireEvent.submit(screen.getByRole("form"));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
  });

  it("sends nothing and pretends success when the honeypot is filled (a bot)", async () => {
    const { container } = renderPage(IndexPage);
    fireEvent.change(container.querySelector('input[name="website"]') as HTMLInputElement, { target: { value: "http://spam.example" } });
    await fillAndSubmit(VALID, userEvent.setup());
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe("failures (product rules 8, 10, 11)", () => {
  it("retries a network failure 3 times with 1 s, 2 s, 4 s backoff, staying in the submitting state, then shows the content's network message (never the browser's text) and re-enables the form with the values kept", async () => {
    jest.useFakeTimers();
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    renderPage(IndexPage);
    await fillAndSubmit(VALID);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));

    for (const [delayMs, calls] of [
      [1_000, 2],
      [2_000, 3],
      [4_000, 4],
    ] as const) {
      expect(screen.getByRole("button", { name: content.home.form.submitting })).toBeDisabled();
      await act(async () => jest.advanceTimersByTimeAsync(delayMs - 1));
      expect(fetchMock).toHaveBeenCalledTimes(calls - 1);
      await act(async () => jest.advanceTimersByTimeAsync(1));
      expect(fetchMock).toHaveBeenCalledTimes(calls);
    }
    await waitFor(() => expect(toastTexts()).toEqual(["Subscription failed" + failed.networkMessage]));
    expect(toastTexts().join()).not.toContain("Failed to fetch");
    await act(async () => jest.advanceTimersByTimeAsync(60_000));
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expectValuesKept();
  });

  it("legacy-form: also shows the network message, not the browser's text, after the retries", async () => {
    jest.useFakeTimers();
    fetchMock.mockRejectedValue(new TypeError("NetworkError when attempting to fetch resource."));
    renderPage(IndexPage, "/", legacy);
    await fillAndSubmit(VALID);
    await act(async () => jest.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(toastTexts()).toEqual(["Subscription failed" + failed.networkMessage]));
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  it("falls back to 'Please try again later' when every attempt times out", async () => {
    jest.useFakeTimers();
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")))),
    );
    renderPage(IndexPage);
    await fillAndSubmit(VALID);
    await act(async () => jest.advanceTimersByTimeAsync(4 * 5_000 + 7_000));
    await waitFor(() => expect(toastTexts()).toEqual(["Subscription failed" + failed.fallbackMessage]));
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  it("does not retry a missing list id and says both key and list id are required", async () => {
    const halfConfigured: TestSiteContent = { ...content, provider: { ...content.provider, listId: null } };
    renderPage(IndexPage, "/", halfConfigured);
    await fillAndSubmit(VALID, userEvent.setup());
    await waitFor(() =>
      expect(toastTexts()).toEqual(["Subscription failed" + content.toasts.subscriptionFailed.missingConfigurationMessage]),
    );
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: content.home.form.submit })).toBeEnabled();
  });
});

describe("what Klaviyo's Client API answers, and what the visitor sees", () => {
  const EMAIL_POINTER = "/data/attributes/profile/data/attributes/email";

  it("202: confirms and goes to /success/", async () => {
    renderPage(IndexPage);
    await fillAndSubmit(VALID, userEvent.setup());
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
    expect(toastTexts()).toEqual(["Submission confirmed" + "Welcome to the team! Check your email for next steps."]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("400 pointing at the e-mail: shows 'Invalid email', does not retry, keeps the values and focuses the e-mail field", async () => {
    fetchMock.mockResolvedValue(answer(400, errorDocument(400, "Invalid email address", EMAIL_POINTER)));
    renderPage(IndexPage);
    await fillAndSubmit(VALID, userEvent.setup());
    await waitFor(() => expect(toastTexts()).toEqual(["Invalid email" + "Please enter a valid email address"]));
    await waitFor(() => expect(screen.getByLabelText("Email")).toHaveFocus());
    expectValuesKept();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("429 with Retry-After: 3 waits 3 s (not the 1 s backoff) before trying again, then confirms", async () => {
    jest.useFakeTimers();
    fetchMock.mockResolvedValueOnce(answer(429, errorDocument(429, "Request was throttled.", ""), { "Retry-After": "3" }));
    renderPage(IndexPage);
    await fillAndSubmit(VALID);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await act(async () => jest.advanceTimersByTimeAsync(2_999));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("button", { name: content.home.form.submitting })).toBeDisabled();
    await act(async () => jest.advanceTimersByTimeAsync(1));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
  });

  it("429 asking for more than 30 s waits only the 30 s backoff cap", async () => {
    jest.useFakeTimers();
    fetchMock.mockResolvedValueOnce(answer(429, null, { "Retry-After": "120" }));
    renderPage(IndexPage);
    await fillAndSubmit(VALID);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await act(async () => jest.advanceTimersByTimeAsync(29_999));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await act(async () => jest.advanceTimersByTimeAsync(1));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("429 whose Retry-After the page may not read (not exposed by CORS) falls back to the 1 s, 2 s, 4 s backoff; each 429 is one of the 3 retries", async () => {
    jest.useFakeTimers();
    fetchMock.mockResolvedValue(answer(429));
    renderPage(IndexPage);
    await fillAndSubmit(VALID);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    for (const [delayMs, calls] of [
      [1_000, 2],
      [2_000, 3],
      [4_000, 4],
    ] as const) {
      await act(async () => jest.advanceTimersByTimeAsync(delayMs - 1));
      expect(fetchMock).toHaveBeenCalledTimes(calls - 1);
      await act(async () => jest.advanceTimersByTimeAsync(1));
      expect(fetchMock).toHaveBeenCalledTimes(calls);
    }
    await waitFor(() => expect(toastTexts()).toEqual(["Subscription failed" + failed.fallbackMessage]));
    await act(async () => jest.advanceTimersByTimeAsync(60_000));
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expectValuesKept();
  });

  it("500 every time: retried 3 times with the backoff, then 'Subscription failed' / 'Please try again later', values kept", async () => {
    jest.useFakeTimers();
    fetchMock.mockResolvedValue(answer(500, errorDocument(500, "Internal error", "")));
    renderPage(IndexPage);
    await fillAndSubmit(VALID);
    await act(async () => jest.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000));
    await waitFor(() => expect(toastTexts()).toEqual(["Subscription failed" + failed.fallbackMessage]));
    await act(async () => jest.advanceTimersByTimeAsync(60_000));
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expectValuesKept();
  });

  it("a 5xx that passes: the retry's 202 confirms", async () => {
    jest.useFakeTimers();
    fetchMock.mockResolvedValueOnce(answer(503));
    renderPage(IndexPage);
    await fillAndSubmit(VALID);
    await act(async () => jest.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it.each([
    ["400 naming the list (wrong list id)", 400, "List WtL1st does not exist.", "/data/relationships/list/data/id"],
    ["400 naming company_id (wrong public key)", 400, "Invalid Company ID", ""],
    ["403", 403, "You do not have permission to perform this action.", ""],
  ])("%s: no retry, the content's rejected message, and the provider's detail in console.error", async (_case, status, detail, pointer) => {
    const consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
    fetchMock.mockResolvedValue(answer(status, errorDocument(status, detail, pointer)));
    renderPage(IndexPage);
    await fillAndSubmit(VALID, userEvent.setup());
    await waitFor(() => expect(toastTexts()).toEqual(["Subscription failed" + failed.rejectedMessage]));
    expect(consoleError.mock.calls.map((args) => String(args[0])).join("\n")).toContain(detail);
    expect(toastTexts().join()).not.toContain(detail);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expectValuesKept();
    consoleError.mockRestore();
  });
});

describe("demo mode (product rule 15)", () => {
  it("simulates success after 1.5 s and sends nothing", async () => {
    jest.useFakeTimers();
    const demo: TestSiteContent = { ...content, derived: { ...content.derived, demoMode: true } };
    renderPage(IndexPage, "/", demo);
    await fillAndSubmit(VALID);
    await act(async () => jest.advanceTimersByTimeAsync(1_499));
    expect(navigate).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: content.home.form.submitting })).toBeDisabled();
    await act(async () => jest.advanceTimersByTimeAsync(1));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/success/"));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
