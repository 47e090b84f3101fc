/**
 * The signup form without JavaScript (product rule 12): the prerendered home page is a
 * complete form that posts the signup's fields straight to Klaviyo's legacy form
 * endpoint (provider.noScriptFormUrl), which shows the visitor a page of its own. And
 * with JavaScript, the same form never falls through to that native post.
 */
import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { firstRequestsCarrying } from "./support/provider-control";
import { NO_SCRIPT_FORM_HEADING, NO_SCRIPT_FORM_PATH } from "./support/provider-stand-in";
import { expectNoLaterRequests } from "./support/quiet-period";
import { runEnv } from "./support/run-env";
import { FIXTURE } from "./support/fixture-content";
import { fillSignupForm, signupFields, submitButton } from "./support/signup-page";
import { uniqueVisitor } from "./support/visitors";

/** The home page's copy that has to be there without any script. */
const HOME_COPY = [
  FIXTURE.home.title,
  FIXTURE.home.tagline,
  FIXTURE.home.form.heading,
  FIXTURE.home.privacyNote,
  FIXTURE.home.badges.ssl.label,
  FIXTURE.home.badges.gdpr.label,
  FIXTURE.links.social.label,
];

/** Main-frame navigations from now on. */
function recordNavigations(page: Page): string[] {
  const urls: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) urls.push(frame.url());
  });
  return urls;
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("shows the whole form and its copy, prerendered", async ({ page }) => {
    await page.goto("/");
    for (const text of HOME_COPY) await expect(page.locator("body")).toContainText(text, { useInnerText: true });
    const fields = signupFields(page);
    for (const field of [fields.email, fields.firstName, fields.lastName]) {
      await expect(field).toBeEditable();
    }
    await expect(page.getByRole("button", { name: FIXTURE.home.form.submit })).toBeEnabled();
  });

  test("posts one form to the legacy form endpoint with g, email, first_name, last_name (and the empty honeypot), and shows the provider's page", async ({
    page,
  }) => {
    const visitor = uniqueVisitor("no-js");
    await page.goto("/");
    await fillSignupForm(page, visitor);
    await submitButton(page).click();

    // The browser follows the form to the provider: what it gets back there is the provider's business.
    await expect(page).toHaveURL((url) => url.pathname === NO_SCRIPT_FORM_PATH);
    const [request, ...more] = await firstRequestsCarrying(visitor.email);
    expect(more).toEqual([]);
    expect(request.method).toBe("POST");
    expect(request.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded\b/);
    expect(request.fields).toEqual([
      ["g", FIXTURE.provider.listId],
      ["email", visitor.email],
      ["first_name", visitor.firstName],
      ["last_name", visitor.lastName],
      ["website", ""],
    ]);
    // Klaviyo answers a person's browser with a page of its own.
    await expect(page.getByRole("heading", { name: NO_SCRIPT_FORM_HEADING })).toBeVisible();
  });
});

test.describe("with JavaScript", () => {
  test("never lets a submit become a native post to the provider: the page stays on the site until /success/, one request", async ({
    page,
  }) => {
    const visitor = uniqueVisitor("js-no-native-post");
    await gotoHydrated(page, "/");
    const navigations = recordNavigations(page);
    await fillSignupForm(page, visitor);
    await submitButton(page).click();

    await expect(page).toHaveURL((url) => url.pathname === "/success/");
    const site = new URL(runEnv().siteOrigin).origin;
    expect(navigations.length).toBeGreaterThan(0);
    for (const url of navigations) expect(new URL(url).origin).toBe(site);
    expect(navigations.some((url) => new URL(url).pathname === NO_SCRIPT_FORM_PATH)).toBe(false);
    await expectNoLaterRequests(visitor.email, 1);
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
  });
});
