/**
 * axe-core finds no WCAG 2.2 AA (or best-practice) violation on any page, in any
 * state a visitor meets (toasts, tooltip, submitting), at phone and desktop size
 * (product rule 23): the config's phone and desktop projects each run this file.
 */
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { consoleUrl } from "./support/console-page";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { setProviderMode } from "./support/provider-control";
import { holdToast, openBadgeTooltip, showEmailRequiredToast, waitForFiniteAnimations } from "./support/page-state";
import { FIXTURE } from "./support/fixture-content";
import { fillSignupForm, signUpToSuccess, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";
import { uniqueVisitor } from "./support/visitors";
import { peopleInEachInvitationState } from "./support/launch";
import { waitlistSite } from "./support/run-env";

/** The hydrated page at `path`, its finite animations over. */
async function open(page: Page, path: string): Promise<Page> {
  await gotoHydrated(page, path);
  await waitForFiniteAnimations(page);
  return page;
}

test.describe("at the project's size", () => {
  /** The project's size ("phone" or "desktop"), for the failure messages and the visitors' addresses. */
  let viewport: string;
  test.beforeEach(({ page: _page }, testInfo) => {
    viewport = testInfo.project.name;
  });

  for (const [name, path] of [
    ["the home page", "/"],
    ["a campaign page", "/nba-ads/"],
    ["/success/", "/success/"],
    ["the 404 page", "/no-such-page/"],
    ["the giveaway draw", "/giveaway/draw/"],
  ]) {
    test(`${name} has no violations`, async ({ page }) => {
      await open(page, path);
      await expectNoAxeViolations(page, `${name} (${path}, ${viewport})`);
    });
  }

  test("the operator console has no violations, showing the content's words for a missing API", async ({ page, baseURL }) => {
    await open(page, consoleUrl(baseURL!));
    await expect(page.getByRole("alert").filter({ hasText: FIXTURE.console.errors.unavailable })).toBeVisible();
    await expectNoAxeViolations(page, `the operator console (/console/, ${viewport})`);
  });

  // One test a page: each is a full axe run, and four in one test outgrew its time on a busy machine.
  for (const state of ["invited", "accepted", "expired"] as const) {
    test(`the status page has no violations when the invitation is ${state}`, async ({ page }) => {
      const states = await peopleInEachInvitationState();
      await open(page, states[state]);
      const words = state === "accepted" ? FIXTURE.status.invitation.joined : FIXTURE.status.invitation[state];
      await expect(page.getByText(words.split("{date}")[0])).toBeVisible();
      await expectNoAxeViolations(page, `the status page, ${state} (${viewport})`);
    });
  }

  test("the console's Launch screen has no violations, its funnel by day drawn", async ({ page }) => {
    await peopleInEachInvitationState();
    await open(page, consoleUrl(waitlistSite().origin, "#launch"));
    await expect(page.getByRole("table", { name: FIXTURE.console.launch.funnelCaption })).toBeVisible();
    await expect(page.getByRole("table", { name: FIXTURE.console.launch.days.caption })).toBeVisible();
    await expectNoAxeViolations(page, `the console's Launch screen (${viewport})`);
  });

  test("the home page has no violations with an error toast showing", async ({ page }) => {
    await open(page, "/");
    await showEmailRequiredToast(page);
    await expectNoAxeViolations(page, `/ with the '${FIXTURE.toasts.emailRequired.title}' toast (${viewport})`);
  });

  test("the home page has no violations while a signup is being sent (spinner, disabled form)", async ({ page }) => {
    await open(page, "/");
    const visitor = uniqueVisitor(`a11y-busy-${viewport}`);
    await setProviderMode(visitor.email, "never");
    await fillSignupForm(page, visitor);
    await submitButton(page).click();
    await expect(page.getByRole("img", { name: FIXTURE.home.form.submitting })).toBeVisible();
    await expectNoAxeViolations(page, `/ while submitting (${viewport})`);
  });

  test("/success/ has no violations with the success toast still showing after the signup", async ({ page }) => {
    await open(page, "/");
    const visitor = uniqueVisitor(`a11y-success-${viewport}`);
    await signUpToSuccess(page, visitor);
    const toast = toastTitled(page, FIXTURE.toasts.success.title);
    await expect(toast).toBeVisible();
    await holdToast(toast);
    await expectNoAxeViolations(page, `/success/ with the '${FIXTURE.toasts.success.title}' toast (${viewport})`);
  });

  test("the home page has no violations with a badge tooltip open", async ({ page }) => {
    await open(page, "/");
    await openBadgeTooltip(page, FIXTURE.home.badges.gdpr.label);
    await expectNoAxeViolations(page, `/ with the '${FIXTURE.home.badges.gdpr.label}' tooltip open (${viewport})`);
  });
});
