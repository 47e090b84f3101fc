/**
 * axe-core finds no WCAG 2.2 AA (or best-practice) violation on any page, in any
 * state a visitor meets (toasts, tooltip, submitting), at phone and desktop size
 * (product rule 23).
 */
import type { BrowserContext, Page } from "playwright-core";
import { expectNoAxeViolations } from "./support/axe";
import { newGuardedContext, openHydrated, VIEWPORTS, setUpChromium } from "./support/browser";
import { setProviderMode } from "./support/provider-control";
import { holdToast, openBadgeTooltip, showEmailRequiredToast, waitForFiniteAnimations } from "./support/page-state";
import { FIXTURE } from "./support/fixture-content";
import { fillSignupForm, signUpToSuccess, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";
import { uniqueVisitor } from "./support/visitors";

type ViewportName = keyof typeof VIEWPORTS;
const VIEWPORT_NAMES = Object.keys(VIEWPORTS) as ViewportName[];

const browser = setUpChromium();
let context: BrowserContext;

afterEach(async () => {
  await context?.close();
});

/** A fresh context at the viewport's size, with a hydrated page at `path`. */
async function open(viewport: ViewportName, path: string): Promise<Page> {
  ({ context } = await newGuardedContext(browser(), { viewport: VIEWPORTS[viewport] }));
  const page = await openHydrated(context, path);
  await waitForFiniteAnimations(page);
  return page;
}

describe.each(VIEWPORT_NAMES)("at %s size", (viewport) => {
  it.each([
    ["the home page", "/"],
    ["a campaign page", "/nba-ads/"],
    ["/success/", "/success/"],
    ["the 404 page", "/no-such-page/"],
    ["the giveaway draw", "/giveaway/draw/"],
  ])("%s has no violations", async (name, path) => {
    const page = await open(viewport, path);
    await expectNoAxeViolations(page, `${name} (${path}, ${viewport})`);
  });

  it("the operator console has no violations, showing the content's words for a missing API", async () => {
    const page = await open(viewport, "/console/");
    await page.getByRole("alert").filter({ hasText: FIXTURE.console.errors.unavailable }).waitFor();
    await expectNoAxeViolations(page, `the operator console (/console/, ${viewport})`);
  });

  it("the home page has no violations with an error toast showing", async () => {
    const page = await open(viewport, "/");
    await showEmailRequiredToast(page);
    await expectNoAxeViolations(page, `/ with the '${FIXTURE.toasts.emailRequired.title}' toast (${viewport})`);
  });

  it("the home page has no violations while a signup is being sent (spinner, disabled form)", async () => {
    const page = await open(viewport, "/");
    const visitor = uniqueVisitor(`a11y-busy-${viewport}`);
    await setProviderMode(visitor.email, "never");
    await fillSignupForm(page, visitor);
    await submitButton(page).click();
    await page.getByRole("img", { name: FIXTURE.home.form.submitting }).waitFor();
    await expectNoAxeViolations(page, `/ while submitting (${viewport})`);
  });

  it("/success/ has no violations with the success toast still showing after the signup", async () => {
    const page = await open(viewport, "/");
    const visitor = uniqueVisitor(`a11y-success-${viewport}`);
    await signUpToSuccess(page, visitor);
    const toast = toastTitled(page, FIXTURE.toasts.success.title);
    await toast.waitFor();
    await holdToast(toast);
    await expectNoAxeViolations(page, `/success/ with the '${FIXTURE.toasts.success.title}' toast (${viewport})`);
  });

  it("the home page has no violations with a badge tooltip open", async () => {
    const page = await open(viewport, "/");
    await openBadgeTooltip(page, FIXTURE.home.badges.gdpr.label);
    await expectNoAxeViolations(page, `/ with the '${FIXTURE.home.badges.gdpr.label}' tooltip open (${viewport})`);
  });
});
