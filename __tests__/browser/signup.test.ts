/**
 * The signup form in a real browser against the provider stand-in (product rules 6 to 11 and 16),
 * on the fixture's transport, Klaviyo's Client API. The legacy-form call has its own file.
 */
import type { BrowserContext, Page } from "playwright-core";
import { newGuardedContext, openHydrated, setUpChromium } from "./support/browser";
import { allProviderRequests, providerRequests, requestsFrom, sentSignup, setProviderMode } from "./support/provider-control";
import { CLIENT_API_PATH } from "./support/provider-stand-in";
import { expectNoLaterRequests } from "./support/quiet-period";
import { FIXTURE } from "./support/fixture-content";
import { expectFormGivenBack, fillSignupForm, signupFields, skipBrowserValidation, submitButton } from "./support/signup-page";
import { allToasts, toastTitled } from "./support/toasts";
import { uniqueVisitor, type Visitor } from "./support/visitors";

const { emailRequired, firstNameRequired, lastNameRequired, invalidEmail, subscriptionFailed, success } = FIXTURE.toasts;
const VALIDATION_TITLES = [emailRequired, firstNameRequired, lastNameRequired, invalidEmail].map((toast) => toast.title);

const browser = setUpChromium();
let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  ({ context } = await newGuardedContext(browser()));
  page = await openHydrated(context, "/");
});
afterEach(async () => {
  await context?.close();
});

describe("validation, in its fixed order (first failure wins)", () => {
  const valid = uniqueVisitor("validation");
  it.each<[string, string, string, Partial<Visitor>]>([
    ["every field is empty", emailRequired.title, emailRequired.message, { email: "", firstName: "", lastName: "" }],
    ["the email is only spaces, the names filled", emailRequired.title, emailRequired.message, { email: "   " }],
    ["the email is filled and both names are empty", firstNameRequired.title, firstNameRequired.message, { firstName: "", lastName: "" }],
    ["the last name is empty", lastNameRequired.title, lastNameRequired.message, { lastName: "" }],
    [
      "the email has no @, everything else filled",
      invalidEmail.title,
      invalidEmail.message,
      { email: `no-at-sign-${valid.firstName}.example.test` },
    ],
    ["the email has no dot in its domain", invalidEmail.title, invalidEmail.message, { email: `${valid.firstName}@localhost` }],
  ])("when %s it shows only '%s' and sends nothing", async (_case, title, message, override) => {
    const visitor = { ...valid, ...override };
    await fillSignupForm(page, visitor);
    await skipBrowserValidation(page);
    await submitButton(page).click();

    const toast = toastTitled(page, title);
    await toast.waitFor();
    expect(await toast.textContent()).toContain(message);
    for (const other of VALIDATION_TITLES.filter((t) => t !== title)) {
      expect(await toastTitled(page, other).count()).toBe(0);
    }
    expect(new URL(page.url()).pathname).toBe("/");
    const sent = await allProviderRequests();
    // Only non-empty values identify this test's request: an empty one would match any form with an empty field.
    const own = [visitor.email, visitor.firstName].filter(Boolean);
    expect(sent.filter((r) => r.fields.some(([, value]) => own.includes(value)))).toEqual([]);
  });

  it("marks all three fields required, so the browser itself stops an empty submit", async () => {
    const visitor = uniqueVisitor("browser-check");
    const fields = signupFields(page);
    for (const field of [fields.email, fields.firstName, fields.lastName]) {
      expect(await field.getAttribute("required")).not.toBeNull();
    }
    await fields.lastName.fill(visitor.lastName + visitor.firstName);
    await submitButton(page).click();

    expect(await fields.email.evaluate((input: HTMLInputElement) => input.matches(":invalid"))).toBe(true);
    expect(await fields.email.evaluate((input: HTMLInputElement) => input.validationMessage)).not.toBe("");
    expect(await fields.firstName.evaluate((input: HTMLInputElement) => input.validationMessage)).not.toBe("");
    // The browser's check ran first: the page's script saw no submit and showed no toast.
    expect(await allToasts(page).count()).toBe(0);
    expect(await providerRequests(visitor.lastName + visitor.firstName)).toEqual([]);
  });
});

describe("sending a signup", () => {
  it("shows the submitting state while the provider is slow, sends one JSON:API subscription to the Client API, confirms on 202 and goes to /success/", async () => {
    const visitor = uniqueVisitor("slow-signup");
    await setProviderMode(visitor.email, "slow", 3_000);
    await fillSignupForm(page, { ...visitor, email: `  ${visitor.email} ` });
    await submitButton(page).click();

    const busyButton = page.getByRole("button", { name: FIXTURE.home.form.submitting });
    await busyButton.waitFor();
    expect(await busyButton.isDisabled()).toBe(true);
    expect(await busyButton.innerText()).toContain(FIXTURE.home.form.submitting);
    const fields = signupFields(page);
    for (const field of [fields.email, fields.firstName, fields.lastName]) {
      expect(await field.isDisabled()).toBe(true);
    }

    const [request] = await requestsFrom(visitor, 1);
    expect(request.method).toBe("POST");
    expect(request.path).toBe(CLIENT_API_PATH);
    expect(request.query).toEqual({ company_id: FIXTURE.provider.publicApiKey });
    expect(request.headers.revision).toBe("2026-07-15");
    expect(request.headers["content-type"]).toBe("application/vnd.api+json");
    // Trimmed values, in Klaviyo's JSON:API subscription document, with the custom source, the list,
    // and where the signup was made (no UTM values or referrer on this visit, so none are sent).
    expect(request.json).toEqual({
      data: {
        type: "subscription",
        attributes: {
          custom_source: FIXTURE.provider.source,
          profile: {
            data: {
              type: "profile",
              attributes: {
                email: visitor.email,
                first_name: visitor.firstName,
                last_name: visitor.lastName,
                properties: { landing_page: "/" },
              },
            },
          },
        },
        relationships: { list: { data: { type: "list", id: FIXTURE.provider.listId } } },
      },
    });

    await toastTitled(page, success.title).waitFor();
    await page.waitForURL((url) => url.pathname === "/success/");
    await page.getByRole("heading", { name: FIXTURE.success.heading }).waitFor();
    expect(await providerRequests(visitor.email)).toHaveLength(1);
  });

  it(`after the connection drops on every retry, shows '${subscriptionFailed.title}' with the content's network message (not the browser's text) and gives the form back with the values kept`, async () => {
    const visitor = uniqueVisitor("dropped");
    await setProviderMode(visitor.email, "drop");
    await fillSignupForm(page, visitor);
    await submitButton(page).click();

    // One attempt and three retries, 1 s, 2 s and 4 s apart (product rule 9).
    const toast = toastTitled(page, subscriptionFailed.title);
    await toast.waitFor({ timeout: 30_000 });
    const description = (await toast.textContent())?.replace(subscriptionFailed.title, "").trim();
    expect(description).toBe(subscriptionFailed.networkMessage);
    expect(await providerRequests(visitor.email)).toHaveLength(4);

    await expectFormGivenBack(page, visitor);
    // The failure is final: no fifth attempt, no native form POST after the toast.
    await expectNoLaterRequests(visitor.email, 4);
  });

  it("sends exactly one request when the button is double-clicked", async () => {
    const visitor = uniqueVisitor("double-click");
    await setProviderMode(visitor.email, "slow", 1_000);
    await fillSignupForm(page, visitor);
    await submitButton(page).dblclick();

    await page.waitForURL((url) => url.pathname === "/success/");
    expect(await providerRequests(visitor.email)).toHaveLength(1);
  });

  it("sends exactly one request when Enter is pressed twice", async () => {
    const visitor = uniqueVisitor("enter-twice");
    await setProviderMode(visitor.email, "slow", 1_000);
    await fillSignupForm(page, visitor);
    await signupFields(page).lastName.press("Enter");
    await page.keyboard.press("Enter");

    await page.waitForURL((url) => url.pathname === "/success/");
    expect(await providerRequests(visitor.email)).toHaveLength(1);
  });

  it("can be filled in and sent with the keyboard alone: Tab goes email → first name → last name → button, Enter sends", async () => {
    const visitor = uniqueVisitor("keyboard");
    const fields = signupFields(page);
    const isFocused = (field: typeof fields.email) => field.evaluate((el) => el === document.activeElement);
    // From the top of the page, Tab until the email field (past whatever links come first).
    for (let presses = 0; !(await isFocused(fields.email)); presses += 1) {
      expect(presses).toBeLessThan(20);
      await page.keyboard.press("Tab");
    }
    await page.keyboard.type(visitor.email);
    await page.keyboard.press("Tab");
    expect(await isFocused(fields.firstName)).toBe(true);
    await page.keyboard.type(visitor.firstName);
    await page.keyboard.press("Tab");
    expect(await isFocused(fields.lastName)).toBe(true);
    await page.keyboard.type(visitor.lastName);
    await page.keyboard.press("Tab");
    // The honeypot has tabindex -1: the next stop is the button.
    expect(await isFocused(submitButton(page))).toBe(true);
    await page.keyboard.press("Enter");

    const [request] = await requestsFrom(visitor, 1);
    expect(sentSignup(request)).toMatchObject({ email: visitor.email, firstName: visitor.firstName, lastName: visitor.lastName });
    await page.waitForURL((url) => url.pathname === "/success/");
  });
});
