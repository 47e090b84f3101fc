/**
 * The signup form in a real browser against the provider stand-in (product rules 6 to 11 and 16),
 * on the fixture's transport, Klaviyo's Client API. The legacy-form call has its own file.
 */
import { expect, gotoHydrated, test } from "./support/fixtures";
import { installPageClock, type PageClock } from "./support/page-clock";
import { sentSignup } from "./support/provider-control";
import { CLIENT_API_PATH } from "./support/provider-stand-in";
import { expectNoLaterRequestsOnClock } from "./support/quiet-period";
import { runEnv } from "./support/run-env";
import { FIXTURE } from "./support/fixture-content";
import { expectFormGivenBack, fillSignupForm, signupFields, skipBrowserValidation, submitButton } from "./support/signup-page";
import { allToasts, toastText, toastTitled } from "./support/toasts";
import { uniqueVisitor, type Visitor } from "./support/visitors";

const { emailRequired, firstNameRequired, lastNameRequired, invalidEmail, subscriptionFailed, success } = FIXTURE.toasts;
const VALIDATION_TITLES = [emailRequired, firstNameRequired, lastNameRequired, invalidEmail].map((toast) => toast.title);
/** Product rule 9: 3 retries after 1 s, 2 s and 4 s of backoff (ms). */
const BACKOFF_MS = [1_000, 2_000, 4_000];

/** The page's clock, and its requests to the Client API. */
let clock: PageClock;

test.beforeEach(async ({ page }) => {
  clock = await installPageClock(page, `${runEnv().providerOrigin}${CLIENT_API_PATH}`);
  await gotoHydrated(page, "/");
});

test.describe("validation, in its fixed order (first failure wins)", () => {
  const valid = uniqueVisitor("validation");
  const cases: [string, string, string, Partial<Visitor>][] = [
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
  ];
  for (const [when, title, message, override] of cases) {
    test(`when ${when} it shows only '${title}' and sends nothing`, async ({ page, provider }) => {
      const visitor = { ...valid, ...override };
      await fillSignupForm(page, visitor);
      await skipBrowserValidation(page);
      await submitButton(page).click();

      await expect(toastTitled(page, title)).toContainText(message);
      for (const other of VALIDATION_TITLES.filter((t) => t !== title)) {
        await expect(toastTitled(page, other)).toHaveCount(0);
      }
      await expect(page).toHaveURL((url) => url.pathname === "/");
      const sent = await provider.all();
      // Only non-empty values identify this test's request: an empty one would match any form with an empty field.
      const own = [visitor.email, visitor.firstName].filter(Boolean);
      expect(sent.filter((r) => r.fields.some(([, value]) => own.includes(value)))).toEqual([]);
    });
  }

  test("marks all three fields required, so the browser itself stops an empty submit", async ({ page, provider }) => {
    const visitor = uniqueVisitor("browser-check");
    const fields = signupFields(page);
    for (const field of [fields.email, fields.firstName, fields.lastName]) {
      await expect(field).toHaveAttribute("required");
    }
    await fields.lastName.fill(visitor.lastName + visitor.firstName);
    await submitButton(page).click();

    await expect(fields.email.and(page.locator(":invalid"))).toHaveCount(1);
    await expect(fields.email).not.toHaveJSProperty("validationMessage", "");
    await expect(fields.firstName).not.toHaveJSProperty("validationMessage", "");
    // The browser's check ran first: the page's script saw no submit and showed no toast.
    await expect(allToasts(page)).toHaveCount(0);
    expect(await provider.requests(visitor.lastName + visitor.firstName)).toEqual([]);
  });
});

test.describe("sending a signup", () => {
  test("shows the submitting state while the provider is slow, sends one JSON:API subscription to the Client API, confirms on 202 and goes to /success/", async ({
    page,
    provider,
  }) => {
    const visitor = uniqueVisitor("slow-signup");
    await provider.setMode(visitor.email, "slow", 3_000);
    await fillSignupForm(page, { ...visitor, email: `  ${visitor.email} ` });
    await submitButton(page).click();

    const busyButton = page.getByRole("button", { name: FIXTURE.home.form.submitting });
    await expect(busyButton).toBeDisabled();
    await expect(busyButton).toContainText(FIXTURE.home.form.submitting);
    const fields = signupFields(page);
    for (const field of [fields.email, fields.firstName, fields.lastName]) {
      await expect(field).toBeDisabled();
    }

    const [request] = await provider.requestsFrom(visitor, 1);
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

    await expect(toastTitled(page, success.title)).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
    await expect(page.getByRole("heading", { name: FIXTURE.success.heading })).toBeVisible();
    expect(await provider.requests(visitor.email)).toHaveLength(1);
  });

  test(`after the connection drops on every retry, shows '${subscriptionFailed.title}' with the content's network message (not the browser's text) and gives the form back with the values kept`, async ({
    page,
    provider,
  }) => {
    const visitor = uniqueVisitor("dropped");
    await provider.setMode(visitor.email, "drop");
    await fillSignupForm(page, visitor);
    await clock.pause();
    await submitButton(page).click();

    // One attempt and three retries, each after its backoff of 1 s, 2 s and 4 s in the page's time (product rule 9).
    await provider.requestsFrom(visitor, 1);
    for (const [retry, backoff] of BACKOFF_MS.entries()) {
      await clock.expectNextRequestAfter(backoff);
      await provider.requestsFrom(visitor, retry + 2);
    }
    const toast = toastTitled(page, subscriptionFailed.title);
    // The title, then the content's network message and nothing else.
    await expect(toast).toHaveText(toastText(subscriptionFailed.title, subscriptionFailed.networkMessage));
    expect((await clock.settled(4)).map((request) => request.outcome)).toEqual(Array(4).fill("TypeError"));
    expect(await provider.requests(visitor.email)).toHaveLength(4);

    await expectFormGivenBack(page, visitor);
    // The failure is final: no fifth attempt, no native form POST after the toast.
    await expectNoLaterRequestsOnClock(clock, visitor.email, 4);
  });

  test("sends exactly one request when the button is double-clicked", async ({ page, provider }) => {
    const visitor = uniqueVisitor("double-click");
    await provider.setMode(visitor.email, "slow", 1_000);
    await fillSignupForm(page, visitor);
    await submitButton(page).dblclick();

    await expect(page).toHaveURL((url) => url.pathname === "/success/");
    expect(await provider.requests(visitor.email)).toHaveLength(1);
  });

  test("sends exactly one request when Enter is pressed twice", async ({ page, provider }) => {
    const visitor = uniqueVisitor("enter-twice");
    await provider.setMode(visitor.email, "slow", 1_000);
    await fillSignupForm(page, visitor);
    await signupFields(page).lastName.press("Enter");
    await page.keyboard.press("Enter");

    await expect(page).toHaveURL((url) => url.pathname === "/success/");
    expect(await provider.requests(visitor.email)).toHaveLength(1);
  });

  test("can be filled in and sent with the keyboard alone: Tab goes email → first name → last name → button, Enter sends", async ({
    page,
    provider,
  }) => {
    const visitor = uniqueVisitor("keyboard");
    const fields = signupFields(page);
    // From the top of the page, Tab until the email field (past whatever links come first).
    for (let presses = 0; !(await fields.email.evaluate((el) => el === document.activeElement)); presses += 1) {
      expect(presses, "Tab presses before the email field").toBeLessThan(20);
      await page.keyboard.press("Tab");
    }
    await page.keyboard.type(visitor.email);
    await page.keyboard.press("Tab");
    await expect(fields.firstName).toBeFocused();
    await page.keyboard.type(visitor.firstName);
    await page.keyboard.press("Tab");
    await expect(fields.lastName).toBeFocused();
    await page.keyboard.type(visitor.lastName);
    await page.keyboard.press("Tab");
    // The honeypot has tabindex -1: the next stop is the button.
    await expect(submitButton(page)).toBeFocused();
    await page.keyboard.press("Enter");

    const [request] = await provider.requestsFrom(visitor, 1);
    expect(sentSignup(request)).toMatchObject({ email: visitor.email, firstName: visitor.firstName, lastName: visitor.lastName });
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
  });
});
