/**
 * The legacy-form transport sends the original embed's call exactly (product rule 17). Runs against the
 * second fixture build, whose consent banner is answered beforehand so it stays out of the way.
 */
import { CONSENT_STORAGE_KEY } from "../../src/consent/pixel";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { providerRequests, requestsFrom, setProviderMode } from "./support/provider-control";
import { LEGACY_SUBSCRIBE_PATH } from "./support/provider-stand-in";
import { legacyPixelContent } from "./support/fixture-content";
import { fillSignupForm, signupFields, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";
import { uniqueVisitor } from "./support/visitors";

/** The content of the legacy-form build. */
const LEGACY = legacyPixelContent();
const { form } = LEGACY.home;

test.use({ site: "legacyPixel" });

test.beforeEach(async ({ context, page }) => {
  await context.addInitScript((key) => window.localStorage.setItem(key, "declined"), CONSENT_STORAGE_KEY);
  await gotoHydrated(page, "/");
});

test.describe("sending a signup on the legacy-form transport", () => {
  test("shows the submitting state while the provider is slow, sends one form-urlencoded POST, confirms and goes to /success/", async ({
    page,
  }) => {
    const visitor = uniqueVisitor("legacy-slow-signup");
    await setProviderMode(visitor.email, "slow", 3_000);
    await fillSignupForm(page, { ...visitor, email: `  ${visitor.email} ` }, form);
    await submitButton(page, form).click();

    const busyButton = page.getByRole("button", { name: form.submitting });
    await expect(busyButton).toBeDisabled();
    const fields = signupFields(page, form);
    for (const field of [fields.email, fields.firstName, fields.lastName]) {
      await expect(field).toBeDisabled();
    }

    const [request] = await requestsFrom(visitor, 1);
    expect(request.method).toBe("POST");
    expect(request.path).toBe(LEGACY_SUBSCRIBE_PATH);
    expect(request.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded\b/);
    // Trimmed values, in the provider's field names, with the list id in `g`.
    expect(request.fields).toEqual([
      ["g", LEGACY.provider.listId],
      ["email", visitor.email],
      ["first_name", visitor.firstName],
      ["last_name", visitor.lastName],
    ]);

    await expect(toastTitled(page, LEGACY.toasts.success.title)).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
    await expect(page.getByRole("heading", { name: LEGACY.success.heading })).toBeVisible();
    expect(await providerRequests(visitor.email)).toHaveLength(1);
  });

  test("treats an HTTP 500 from the provider as sent, because a no-cors answer cannot be read", async ({ page }) => {
    const visitor = uniqueVisitor("legacy-provider-500");
    await setProviderMode(visitor.email, "500");
    await fillSignupForm(page, visitor, form);
    await submitButton(page, form).click();

    await expect(toastTitled(page, LEGACY.toasts.success.title)).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
    expect(await providerRequests(visitor.email)).toHaveLength(1);
  });
});
