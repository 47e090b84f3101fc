/**
 * The ad pixel loads only after consent (product rule 21): accept, decline, the
 * remembered choice, and no banner at all without a pixel id.
 */
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import IndexPage from "../../src/pages/index";
import SuccessPage from "../../src/pages/success";
import {
  CONSENT_QUESTION_ATTRIBUTE,
  CONSENT_QUESTION_SCRIPT,
  CONSENT_STORAGE_KEY,
  META_PIXEL_SCRIPT_URL,
  readConsent,
} from "../../src/consent/pixel";
import { loadTestContent, type TestSiteContent } from "../support/content";
import { renderPage } from "../support/render";

const base = loadTestContent();
const withPixel: TestSiteContent = { ...base, adPixel: { id: "123456789012345" } };
const { message, accept, decline } = base.consent;

const pixelScripts = () => [...document.querySelectorAll("script")].filter((s) => s.src === META_PIXEL_SCRIPT_URL);

beforeEach(() => {
  window.localStorage.clear();
  document.documentElement.removeAttribute(CONSENT_QUESTION_ATTRIBUTE);
  delete window.fbq;
  document.head.querySelectorAll("script").forEach((s) => s.remove());
});

it("shows no banner and loads no pixel when no pixel id is configured", async () => {
  renderPage(IndexPage, "/", { ...base, adPixel: { id: null } });
  await waitFor(() => expect(screen.getByRole("form")).toBeInTheDocument());
  expect(screen.queryByText(message)).not.toBeInTheDocument();
  expect(pixelScripts()).toHaveLength(0);
  expect(window.fbq).toBeUndefined();
});

it("asks first and loads nothing from the ad network before an answer", async () => {
  renderPage(IndexPage, "/", withPixel);
  expect(await screen.findByRole("region", { name: message })).toBeInTheDocument();
  expect(screen.getByRole("button", { name: accept })).toBeInTheDocument();
  expect(screen.getByRole("button", { name: decline })).toBeInTheDocument();
  expect(pixelScripts()).toHaveLength(0);
  expect(window.fbq).toBeUndefined();
});

it("loads the pixel once the visitor accepts, and remembers the choice", async () => {
  renderPage(IndexPage, "/", withPixel);
  await userEvent.setup().click(await screen.findByRole("button", { name: accept }));
  expect(pixelScripts()).toHaveLength(1);
  expect(typeof window.fbq).toBe("function");
  expect(window.localStorage.getItem(CONSENT_STORAGE_KEY)).toBe("accepted");
  expect(screen.queryByRole("region", { name: message })).not.toBeInTheDocument();
});

it("loads nothing when the visitor declines, remembers it and does not ask again", async () => {
  const first = renderPage(IndexPage, "/", withPixel);
  await userEvent.setup().click(await screen.findByRole("button", { name: decline }));
  expect(pixelScripts()).toHaveLength(0);
  expect(window.fbq).toBeUndefined();
  expect(window.localStorage.getItem(CONSENT_STORAGE_KEY)).toBe("declined");
  first.unmount();
  renderPage(IndexPage, "/", withPixel);
  await waitFor(() => expect(screen.getByRole("form")).toBeInTheDocument());
  expect(screen.queryByRole("region", { name: message })).not.toBeInTheDocument();
});

it("fires Lead on /success for a visitor who accepted earlier, and not for one who declined", () => {
  window.localStorage.setItem(CONSENT_STORAGE_KEY, "accepted");
  const accepted = renderPage(SuccessPage, "/success/", withPixel);
  const queue = (window.fbq as unknown as { queue: unknown[][] }).queue;
  expect(queue).toEqual([
    ["init", "123456789012345"],
    ["track", "PageView"],
    ["track", "Lead"],
  ]);
  expect(pixelScripts()).toHaveLength(1);
  accepted.unmount();

  delete window.fbq;
  document.head.querySelectorAll("script").forEach((s) => s.remove());
  window.localStorage.setItem(CONSENT_STORAGE_KEY, "declined");
  renderPage(SuccessPage, "/success/", withPixel);
  expect(window.fbq).toBeUndefined();
  expect(pixelScripts()).toHaveLength(0);
});

it("follows Meta's base-code contract: calls before fbevents.js loads are queued, calls after it go through fbq.callMethod", async () => {
  window.localStorage.setItem(CONSENT_STORAGE_KEY, "accepted");
  renderPage(IndexPage, "/", withPixel);
  await waitFor(() => expect(typeof window.fbq).toBe("function"));
  const fbq = window.fbq as unknown as { queue: unknown[][]; callMethod?: (...args: unknown[]) => void };
  expect(fbq.queue).toEqual([
    ["init", "123456789012345"],
    ["track", "PageView"],
  ]);

  // What fbevents.js does once it has loaded: drain the queue once, then take calls through callMethod.
  const received: unknown[][] = [];
  fbq.callMethod = (...args: unknown[]) => received.push(args);
  received.push(...fbq.queue.splice(0));

  window.fbq?.("track", "Lead");
  expect(received).toEqual([
    ["init", "123456789012345"],
    ["track", "PageView"],
    ["track", "Lead"],
  ]);
  expect(fbq.queue).toEqual([]);
});

describe("the inline script that shows the banner before the first paint", () => {
  afterEach(() => jest.restoreAllMocks());

  // What the page's parser runs: the script element, with the text the page carries (jsdom runs inserted scripts).
  const runScript = () => {
    const script = document.createElement("script");
    script.textContent = CONSENT_QUESTION_SCRIPT;
    document.body.append(script);
    script.remove();
  };
  const asking = () => document.documentElement.hasAttribute(CONSENT_QUESTION_ATTRIBUTE);

  it.each([
    ["no answer", null, true],
    ["accepted", "accepted", false],
    ["declined", "declined", false],
    ["a value the site never writes", "maybe", true],
  ])("asks exactly when the bundle's readConsent() finds no answer: %s", (_name, stored, asks) => {
    if (stored !== null) window.localStorage.setItem(CONSENT_STORAGE_KEY, stored);
    runScript();
    expect(asking()).toBe(asks);
    expect(readConsent() === null).toBe(asks);
  });

  it("asks when the browser blocks storage, as readConsent() does", () => {
    jest.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    });
    runScript();
    expect(asking()).toBe(true);
    expect(readConsent()).toBeNull();
  });
});

it("hides the banner once answered, and the page keeps no question on <html>", async () => {
  renderPage(IndexPage, "/", withPixel);
  await screen.findByRole("region", { name: message });
  expect(document.documentElement.hasAttribute(CONSENT_QUESTION_ATTRIBUTE)).toBe(true);
  await userEvent.setup().click(screen.getByRole("button", { name: decline }));
  expect(document.documentElement.hasAttribute(CONSENT_QUESTION_ATTRIBUTE)).toBe(false);
});
