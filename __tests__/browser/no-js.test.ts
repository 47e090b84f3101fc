/**
 * The signup form without JavaScript (product rule 12): the prerendered home page is a
 * complete form that posts the signup's fields straight to Klaviyo's legacy form
 * endpoint (provider.noScriptFormUrl), which shows the visitor a page of its own. And
 * with JavaScript, the same form never falls through to that native post.
 */
import type { BrowserContext, Page } from "playwright-core";
import { newGuardedContext, openHydrated, setUpChromium } from "./support/browser";
import { eventually } from "./support/eventually";
import { providerRequests } from "./support/provider-control";
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

const browser = setUpChromium();
let context: BrowserContext;

afterEach(async () => {
  await context?.close();
});

/** Main-frame navigations from now on. */
function recordNavigations(page: Page): string[] {
  const urls: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) urls.push(frame.url());
  });
  return urls;
}

describe("without JavaScript", () => {
  beforeEach(async () => {
    ({ context } = await newGuardedContext(browser(), { javaScriptEnabled: false }));
  });

  it("shows the whole form and its copy, prerendered", async () => {
    const page = await context.newPage();
    await page.goto("/");
    const shown = await page.locator("body").innerText();
    expect(HOME_COPY.filter((text) => !shown.includes(text))).toEqual([]);
    const fields = signupFields(page);
    for (const field of [fields.email, fields.firstName, fields.lastName]) {
      expect(await field.isEditable()).toBe(true);
    }
    expect(await page.getByRole("button", { name: FIXTURE.home.form.submit }).isEnabled()).toBe(true);
  });

  it("posts one form to the legacy form endpoint with g, email, first_name, last_name (and the empty honeypot), and shows the provider's page", async () => {
    const visitor = uniqueVisitor("no-js");
    const page = await context.newPage();
    await page.goto("/");
    await fillSignupForm(page, visitor);
    await submitButton(page).click();

    // The browser follows the form to the provider: what it gets back there is the provider's business.
    await page.waitForURL((url) => url.pathname === NO_SCRIPT_FORM_PATH);
    const [request, ...more] = await eventually(async () => {
      const requests = await providerRequests(visitor.email);
      expect(requests.length).toBeGreaterThan(0);
      return requests;
    });
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
    await page.getByRole("heading", { name: NO_SCRIPT_FORM_HEADING }).waitFor();
  });
});

describe("with JavaScript", () => {
  it("never lets a submit become a native post to the provider: the page stays on the site until /success/, one request", async () => {
    ({ context } = await newGuardedContext(browser()));
    const visitor = uniqueVisitor("js-no-native-post");
    const page = await openHydrated(context, "/");
    const navigations = recordNavigations(page);
    await fillSignupForm(page, visitor);
    await submitButton(page).click();

    await page.waitForURL((url) => url.pathname === "/success/");
    const site = new URL(runEnv().siteOrigin).origin;
    expect(navigations.length).toBeGreaterThan(0);
    for (const url of navigations) expect(new URL(url).origin).toBe(site);
    expect(navigations.some((url) => new URL(url).pathname === NO_SCRIPT_FORM_PATH)).toBe(false);
    await expectNoLaterRequests(visitor.email, 1);
    expect(new URL(page.url()).pathname).toBe("/success/");
  });
});
