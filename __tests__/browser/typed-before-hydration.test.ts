/**
 * What the fields show is what is sent: values typed into the prerendered form while the scripts are held
 * back must be the ones validated and sent once they arrive. (A submit before then is no-js.test.ts's.)
 */
import type { Page, Route } from "@playwright/test";
import { expect, test, waitForHydration } from "./support/fixtures";
import { firstRequestsCarrying, sentSignup } from "./support/provider-control";
import { runEnv } from "./support/run-env";
import { FIXTURE } from "./support/fixture-content";
import { fillSignupForm, signupFields, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";
import { uniqueVisitor } from "./support/visitors";

/**
 * Hold every script of the site until `release` is called (page routes take precedence
 * over the guarded context's, to which each held request falls back once released).
 */
async function holdScripts(page: Page): Promise<{ held: () => number; release: () => void }> {
  const waiting: Route[] = [];
  let released = false;
  const site = new URL(runEnv().siteOrigin).origin;
  await page.route(
    (url) => url.origin === site && url.pathname.endsWith(".js"),
    (route) => {
      if (released) return route.fallback();
      waiting.push(route);
      return undefined;
    },
  );
  return {
    held: () => waiting.length,
    release: () => {
      released = true;
      for (const route of waiting.splice(0)) void route.fallback();
    },
  };
}

/** Whether React has taken over the form yet (it marks the nodes it hydrated). */
function formIsHydrated(page: Page): Promise<boolean> {
  return page.locator("form").evaluate((form) => Object.keys(form).some((key) => key.startsWith("__reactProps$")));
}

test("sends the values typed before the scripts arrived, once they have, and confirms", async ({ page }) => {
  const scripts = await holdScripts(page);
  await page.goto("/", { waitUntil: "domcontentloaded" });
  await expect.poll(scripts.held, { message: "scripts held back" }).toBeGreaterThan(0);

  const visitor = uniqueVisitor("typed-early");
  await fillSignupForm(page, { ...visitor, firstName: ` ${visitor.firstName} ` });
  // The visitor really typed into the plain HTML form: nothing has hydrated it.
  await expect.poll(() => formIsHydrated(page), { message: "whether React hydrated the form" }).toBe(false);

  scripts.release();
  await waitForHydration(page);
  // The fields still show what was typed…
  const fields = signupFields(page);
  await expect(fields.email).toHaveValue(visitor.email);
  await expect(fields.firstName).toHaveValue(` ${visitor.firstName} `);
  await expect(fields.lastName).toHaveValue(visitor.lastName);

  // …and that is what is checked (no e-mail-required toast) and sent (trimmed).
  await submitButton(page).click();
  await expect(toastTitled(page, FIXTURE.toasts.success.title)).toBeVisible();
  await expect(toastTitled(page, FIXTURE.toasts.emailRequired.title)).toHaveCount(0);
  const [request, ...more] = await firstRequestsCarrying(visitor.email);
  expect(more).toEqual([]);
  expect(sentSignup(request)).toEqual({
    listId: FIXTURE.provider.listId,
    email: visitor.email,
    firstName: visitor.firstName,
    lastName: visitor.lastName,
  });
  await expect(page).toHaveURL((url) => url.pathname === "/success/");
});
