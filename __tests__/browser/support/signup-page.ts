/**
 * The home page's signup form as a visitor sees it: fields by their labels, the
 * button by its text. Copy comes from the fixture (__tests__/fixtures/site.yaml).
 */
import type { Locator, Page } from "playwright-core";
import { eventually } from "./eventually";
import { setProviderMode } from "./provider-control";
import type { Visitor } from "./visitors";

/** Fixture copy the signup tests look for. */
export const COPY = {
  submit: "Secure Spot & Access Discord",
  submitting: "Joining the Elite...",
  listId: "WtL1st",
  publicApiKey: "Pk7Fnd",
} as const;

/** The three fields, by label. */
export function signupFields(page: Page): { email: Locator; firstName: Locator; lastName: Locator } {
  return {
    email: page.getByLabel("Email", { exact: true }),
    firstName: page.getByLabel("First name", { exact: true }),
    lastName: page.getByLabel("Last name", { exact: true }),
  };
}

/** The submit button, whatever it currently says. */
export function submitButton(page: Page): Locator {
  return page.getByRole("button", { name: new RegExp(`^(${escape(COPY.submit)}|${escape(COPY.submitting)})$`) });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Type a visitor's values into the form (empty strings leave a field empty).
 * @param page the hydrated home page
 * @param visitor what to type
 */
export async function fillSignupForm(page: Page, visitor: Visitor): Promise<void> {
  const fields = signupFields(page);
  await fields.email.fill(visitor.email);
  await fields.firstName.fill(visitor.firstName);
  await fields.lastName.fill(visitor.lastName);
}

/**
 * Turn off the browser's own required/e-mail checks so that a submit reaches the
 * page's script and its validation toasts (spec §5).
 */
export async function skipBrowserValidation(page: Page): Promise<void> {
  await page.locator("form").evaluate((form: HTMLFormElement) => {
    form.noValidate = true;
  });
}

/**
 * After a failed signup (spec §4: submitting → failure): the button and the three
 * fields are enabled again, they still hold what the visitor typed, and the page is
 * still /. Waits for the button to come back; asserts the rest at once.
 */
export async function expectFormGivenBack(page: Page, visitor: Visitor): Promise<void> {
  const button = page.getByRole("button", { name: COPY.submit });
  await eventually(async () => expect(await button.isEnabled()).toBe(true));
  const fields = signupFields(page);
  expect(await fields.email.inputValue()).toBe(visitor.email);
  expect(await fields.firstName.inputValue()).toBe(visitor.firstName);
  expect(await fields.lastName.inputValue()).toBe(visitor.lastName);
  for (const field of [fields.email, fields.firstName, fields.lastName]) {
    expect(await field.isEnabled()).toBe(true);
  }
  expect(new URL(page.url()).pathname).toBe("/");
}

/**
 * A valid signup the stand-in accepts at once: fill the form, send it, and wait
 * until the site has moved on to /success/ (spec §4: success → /success).
 */
export async function signUpToSuccess(page: Page, visitor: Visitor): Promise<void> {
  await setProviderMode(visitor.email, "ok");
  await fillSignupForm(page, visitor);
  await submitButton(page).click();
  await page.waitForURL((url) => url.pathname === "/success/");
}
