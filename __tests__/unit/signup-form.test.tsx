/**
 * The signup on / as a visitor uses it (spec §4, §5, §7, §8): what the form
 * shows, which toasts appear and which request leaves the browser.
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { navigate } from "gatsby";
import IndexPage from "../../src/pages/index";
import { loadTestContent, type TestSiteContent } from "../support/content";
import { renderPage } from "../support/render";

const content = loadTestContent();
const fetchMock = jest.fn();
/** What a no-cors fetch resolves with: an opaque response whose status cannot be read. */
const OPAQUE_RESPONSE = { type: "opaque", status: 0, ok: false };

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockResolvedValue(OPAQUE_RESPONSE);
  global.fetch = fetchMock as unknown as typeof fetch;
  (navigate as jest.Mock).mockReset();
});

afterEach(() => {
  jest.useRealTimers();
});

type Values = { email?: string; first?: string; last?: string };

/** Type into the three fields and submit, bypassing the browser's `required` check like a script-only visitor would reach it. */
async function fillAndSubmit({ email = "", first = "", last = "" }: Values, user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime })) {
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

describe("validation (spec §5): the first failure stops the submission", () => {
  it.each<[string, Values, string, string]>([
    ["email is empty, before any other check", {}, "Email required", "Please enter your email address"],
    ["first name is empty", { email: "not-an-email" }, "First name required", "Please enter your first name"],
    ["last name is empty", { email: "not-an-email", first: "Jordan" }, "Last name required", "Please enter your last name"],
    ["email does not match the pattern", { email: "user@localhost", first: "Jordan", last: "Smith" }, "Invalid email", "Please enter a valid email address"],
    ["fields hold only spaces (trimmed to empty)", { email: "   ", first: "Jordan", last: "Smith" }, "Email required", "Please enter your email address"],
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

describe("the provider call (spec §7)", () => {
  it("POSTs one form-urlencoded request in no-cors mode with g, email, first_name and last_name, trimmed", async () => {
    renderPage(IndexPage);
    await fillAndSubmit({ email: "  jordan@example.com ", first: " Jordan", last: "Smith  " }, userEvent.setup());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(content.provider.endpointUrl);
    expect(init.method).toBe("POST");
    expect(init.mode).toBe("no-cors");
    expect(init.headers).toEqual({ "Content-Type": "application/x-www-form-urlencoded" });
    expect(String(init.body)).toBe(`g=${content.provider.listId}&email=jordan%40example.com&first_name=Jordan&last_name=Smith`);
  });

  it("disables the inputs and shows the submitting text with a spinner while sending, then confirms and goes to /success/", async () => {
    let answer: (value: unknown) => void = () => undefined;
    fetchMock.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    renderPage(IndexPage);
    await fillAndSubmit(VALID, userEvent.setup());

    const button = await screen.findByRole("button", { name: content.home.form.submitting });
    expect(button).toBeDisabled();
    expect(screen.getByRole("img", { name: content.home.form.submitting })).toBeInTheDocument();
    for (const label of ["Email", "First name", "Last name"]) expect(screen.getByLabelText(label)).toBeDisabled();
    expect(navigate).not.toHaveBeenCalled();

    await act(async () => answer(OPAQUE_RESPONSE));
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

describe("failures (spec §8)", () => {
  it("retries a network failure 3 times with 1 s, 2 s, 4 s backoff, staying in the submitting state, then shows the error's message and re-enables the form with the values kept", async () => {
    jest.useFakeTimers();
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    renderPage(IndexPage);
    await fillAndSubmit(VALID);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));

    for (const [delayMs, calls] of [[1_000, 2], [2_000, 3], [4_000, 4]] as const) {
      expect(screen.getByRole("button", { name: content.home.form.submitting })).toBeDisabled();
      await act(async () => jest.advanceTimersByTimeAsync(delayMs - 1));
      expect(fetchMock).toHaveBeenCalledTimes(calls - 1);
      await act(async () => jest.advanceTimersByTimeAsync(1));
      expect(fetchMock).toHaveBeenCalledTimes(calls);
    }
    await waitFor(() => expect(toastTexts()).toEqual(["Subscription failed" + "Failed to fetch"]));
    await act(async () => jest.advanceTimersByTimeAsync(60_000));
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(screen.getByRole("button", { name: content.home.form.submit })).toBeEnabled();
    expect(screen.getByLabelText("Email")).toHaveValue("jordan@example.com");
    expect(screen.getByLabelText("First name")).toHaveValue("Jordan");
    expect(screen.getByLabelText("Last name")).toHaveValue("Smith");
    expect(navigate).not.toHaveBeenCalled();
  });

  it("falls back to 'Please try again later' when the error has no message", async () => {
    jest.useFakeTimers();
    fetchMock.mockRejectedValue(new TypeError(""));
    renderPage(IndexPage);
    await fillAndSubmit(VALID);
    await act(async () => jest.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(toastTexts()).toEqual(["Subscription failed" + "Please try again later"]));
  });

  it("does not retry a missing list id and says both key and list id are required", async () => {
    const halfConfigured: TestSiteContent = { ...content, provider: { ...content.provider, listId: undefined } };
    renderPage(IndexPage, "/", halfConfigured);
    await fillAndSubmit(VALID, userEvent.setup());
    await waitFor(() => expect(toastTexts()).toEqual(["Subscription failed" + content.toasts.subscriptionFailed.missingConfigurationMessage]));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: content.home.form.submit })).toBeEnabled();
  });
});

describe("demo mode (spec §7)", () => {
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
