/**
 * The signup form as a visitor sees it: fields by their labels, the button by its
 * text. The copy is the page's `home.form` (the fixture's unless a test passes another).
 */
import { expect, type Locator, type Page, type Request } from "@playwright/test";
import type { SiteContent } from "../../../src/content/schema";
import { FIXTURE } from "./fixture-content";
import { setProviderMode } from "./provider-control";
import type { Visitor } from "./visitors";

/** The form's copy (`home.form`) of the page under test. */
export type FormCopy = SiteContent["home"]["form"];

/** The three fields, by label. */
export function signupFields(page: Page, form: FormCopy = FIXTURE.home.form): { email: Locator; firstName: Locator; lastName: Locator } {
  return {
    email: page.getByLabel(form.email.label, { exact: true }),
    firstName: page.getByLabel(form.firstName.label, { exact: true }),
    lastName: page.getByLabel(form.lastName.label, { exact: true }),
  };
}

/** The submit button, whatever it currently says (`submit`, or `submitting` while sending). */
export function submitButton(page: Page, form: FormCopy = FIXTURE.home.form): Locator {
  return page.getByRole("button", { name: new RegExp(`^(${escapeRegExp(form.submit)}|${escapeRegExp(form.submitting)})$`) });
}

/** `text` as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Type a visitor's values into the form (empty strings leave a field empty). */
export async function fillSignupForm(page: Page, visitor: Visitor, form: FormCopy = FIXTURE.home.form): Promise<void> {
  const fields = signupFields(page, form);
  await fields.email.fill(visitor.email);
  await fields.firstName.fill(visitor.firstName);
  await fields.lastName.fill(visitor.lastName);
}

/**
 * Turn off the browser's own required/e-mail checks so that a submit reaches the
 * page's script and its validation toasts, which check the trimmed values in a fixed order.
 */
export async function skipBrowserValidation(page: Page): Promise<void> {
  await page.locator("form").evaluate((form: HTMLFormElement) => {
    form.noValidate = true;
  });
}

/**
 * After a failed signup: the button and the three fields are enabled again, they
 * still hold what the visitor typed (a failure never loses typed values), and the
 * page is still /.
 */
export async function expectFormGivenBack(page: Page, visitor: Visitor, form: FormCopy = FIXTURE.home.form): Promise<void> {
  await expect(page.getByRole("button", { name: form.submit })).toBeEnabled();
  const fields = signupFields(page, form);
  await expect(fields.email).toHaveValue(visitor.email);
  await expect(fields.firstName).toHaveValue(visitor.firstName);
  await expect(fields.lastName).toHaveValue(visitor.lastName);
  for (const field of [fields.email, fields.firstName, fields.lastName]) await expect(field).toBeEnabled();
  await expect(page).toHaveURL((url) => url.pathname === "/");
}

/**
 * A valid signup the stand-in accepts at once: fill the form, send it, and wait
 * until the site has moved on to /success/, where every accepted signup goes.
 */
export async function signUpToSuccess(page: Page, visitor: Visitor, form: FormCopy = FIXTURE.home.form): Promise<void> {
  await setProviderMode(visitor.email, "ok");
  await fillSignupForm(page, visitor, form);
  await submitButton(page, form).click();
  await page.waitForURL((url) => url.pathname === "/success/");
}

/** How long the network must stay quiet after the form is first touched for what it loads to count as loaded (ms). */
const TOUCH_QUIET_MS = 500;
/** The longest touchForm waits for that (ms). */
const TOUCH_LIMIT_MS = 10_000;

/**
 * Start on the form as a visitor does (focus the e-mail field) and wait until what that loads has
 * arrived: the form loads the engine that sends and retries a signup only once it is first used.
 * @returns the script URLs the touch fetched
 * @throws the poll's failure, naming the wait, when the network is still busy after TOUCH_LIMIT_MS
 */
export async function touchForm(page: Page, form: FormCopy = FIXTURE.home.form): Promise<string[]> {
  const scripts: string[] = [];
  let open = 0;
  let lastActivity = Date.now();
  const started = (request: Request) => {
    open++;
    lastActivity = Date.now();
    if (request.resourceType() === "script") scripts.push(request.url());
  };
  const ended = () => {
    open--;
    lastActivity = Date.now();
  };
  page.on("request", started);
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  try {
    await signupFields(page, form).email.focus();
    await expect
      .poll(() => open === 0 && Date.now() - lastActivity >= TOUCH_QUIET_MS, {
        message: `the network quiet for ${TOUCH_QUIET_MS} ms after the form was touched`,
        timeout: TOUCH_LIMIT_MS,
        intervals: [50],
      })
      .toBe(true);
    return scripts;
  } finally {
    page.off("request", started);
    page.off("requestfinished", ended);
    page.off("requestfailed", ended);
  }
}
