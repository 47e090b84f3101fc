/**
 * What the fields show is what is sent: values typed into the prerendered form while the scripts are held
 * back must be the ones validated and sent once they arrive. (A submit before then is no-js.test.ts's.)
 */
import type { BrowserContext, Page, Route } from "playwright-core";
import { newGuardedContext, setUpChromium, waitForHydration } from "./support/browser";
import { eventually } from "./support/eventually";
import { providerRequests, sentSignup } from "./support/provider-control";
import { runEnv } from "./support/run-env";
import { FIXTURE } from "./support/fixture-content";
import { fillSignupForm, signupFields, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";
import { uniqueVisitor } from "./support/visitors";

const browser = setUpChromium();
let context: BrowserContext;

afterEach(async () => {
  await context?.close();
});

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

it("sends the values typed before the scripts arrived, once they have, and confirms", async () => {
  ({ context } = await newGuardedContext(browser()));
  const page = await context.newPage();
  const scripts = await holdScripts(page);
  await page.goto("/", { waitUntil: "domcontentloaded" });
  await eventually(() => expect(scripts.held()).toBeGreaterThan(0));

  const visitor = uniqueVisitor("typed-early");
  await fillSignupForm(page, { ...visitor, firstName: ` ${visitor.firstName} ` });
  // The visitor really typed into the plain HTML form: nothing has hydrated it.
  expect(await formIsHydrated(page)).toBe(false);

  scripts.release();
  await waitForHydration(page);
  // The fields still show what was typed…
  const fields = signupFields(page);
  expect(await fields.email.inputValue()).toBe(visitor.email);
  expect(await fields.firstName.inputValue()).toBe(` ${visitor.firstName} `);
  expect(await fields.lastName.inputValue()).toBe(visitor.lastName);

  // …and that is what is checked (no e-mail-required toast) and sent (trimmed).
  await submitButton(page).click();
  await toastTitled(page, FIXTURE.toasts.success.title).waitFor();
  expect(await toastTitled(page, FIXTURE.toasts.emailRequired.title).count()).toBe(0);
  const [request, ...more] = await eventually(async () => {
    const requests = await providerRequests(visitor.email);
    expect(requests.length).toBeGreaterThan(0);
    return requests;
  });
  expect(more).toEqual([]);
  expect(sentSignup(request)).toEqual({
    listId: FIXTURE.provider.listId,
    email: visitor.email,
    firstName: visitor.firstName,
    lastName: visitor.lastName,
  });
  await page.waitForURL((url) => url.pathname === "/success/");
});
