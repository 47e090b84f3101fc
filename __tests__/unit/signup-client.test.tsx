/**
 * The signup client and retry policy on their own (spec §7, §9), and the
 * form's inline success state (spec §2).
 */
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { SignupForm } from "../../src/components/SignupForm";
import { Layout } from "../../src/components/Layout";
import { SignupConfigurationError, SignupNetworkError, subscribe } from "../../src/signup/client";
import { MAX_RETRIES, retryDelay, shouldRetrySignup } from "../../src/signup/queryClient";
import { loadTestContent } from "../support/content";
import { renderInProviders } from "../support/render";

const content = loadTestContent();
const SUBMISSION = { email: "jordan@example.com", firstName: "Jordan", lastName: "Smith" };
const fetchMock = jest.fn();

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
    await expect(subscribe({ endpointUrl: "https://provider.example/subscribe", publicApiKey: "Pk7Fnd", listId: "WtL1st" }, SUBMISSION)).resolves.toBeUndefined();
  });

  it("turns a rejected fetch into a network error that keeps the message", async () => {
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    const call = subscribe({ endpointUrl: "https://provider.example/subscribe", publicApiKey: "Pk7Fnd", listId: "WtL1st" }, SUBMISSION);
    await expect(call).rejects.toBeInstanceOf(SignupNetworkError);
    await expect(call).rejects.toThrow("Failed to fetch");
  });

  it("aborts an attempt that gets no answer within the timeout and reports it as a network error", async () => {
    jest.useFakeTimers();
    fetchMock.mockImplementation((_url: string, init: RequestInit) => new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(new Error("aborted")))));
    const call = subscribe({ endpointUrl: "https://provider.example/subscribe", publicApiKey: "Pk7Fnd", listId: "WtL1st" }, SUBMISSION);
    const outcome = expect(call).rejects.toMatchObject({ name: "SignupNetworkError", message: "" });
    await jest.advanceTimersByTimeAsync(4_999);
    expect(fetchMock.mock.calls[0][1].signal.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await outcome;
  });
});

describe("retry policy (spec §9)", () => {
  it("retries network failures 3 times and configuration errors never", () => {
    const network = new SignupNetworkError("Failed to fetch");
    expect([0, 1, 2, 3].map((n) => shouldRetrySignup(n, network))).toEqual([true, true, true, false]);
    expect(MAX_RETRIES).toBe(3);
    expect(shouldRetrySignup(0, new SignupConfigurationError())).toBe(false);
    expect(shouldRetrySignup(0, new Error("anything else"))).toBe(false);
  });

  it("backs off exponentially from 1 s and caps at 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });
});

describe("inline success state", () => {
  it("shows the welcome message with JOIN DISCORD to the inline invite when no navigation is wanted", async () => {
    renderInProviders(
      <Layout content={content} pathname="/">
        <SignupForm
          copy={{ form: content.home.form, inlineSuccess: content.home.inlineSuccess, toasts: content.toasts, newTabHint: content.links.newTabHint }}
          provider={content.provider}
          inlineInviteUrl={content.links.inlineDiscordInviteUrl}
        />
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
