/**
 * Unusual and hostile input through the real form (product rules 6, 7, 16): the toast a visitor sees and
 * exactly what reached the stand-in. Each row tags one field so its request is found among shared traffic.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./support/fixtures";
import { allProviderRequests, sentSignup } from "./support/provider-control";
import type { RecordedRequest } from "./support/provider-stand-in";
import { FIXTURE } from "./support/fixture-content";
import { fillSignupForm, skipBrowserValidation, submitButton } from "./support/signup-page";
import { allToasts, toastTitled } from "./support/toasts";
import type { Visitor } from "./support/visitors";
import { SIGNUP_FIELD_MAX_LENGTH } from "../../shared/validation";

/** The toasts a row can end in, by their key in `toasts` of the content. */
type ToastKey =
  "success" | "emailRequired" | "firstNameRequired" | "lastNameRequired" | "invalidEmail" | "firstNameInvalid" | "lastNameInvalid";
const SENT: ToastKey = "success";

/** Characters typed into a field, far over its limit (the fields carry the shared rules' `maxlength`). */
const LONG = 1_000;

/** Markup a page would create if it rendered a name as HTML instead of text. */
const INJECTED_MARKUP = "img[src='x'], svg[onload], [onerror], [data-injected]";

interface Row {
  /** What the row is about, for the test name. */
  about: string;
  /** What the visitor types; `tag` is unique to the row and must end up in one field. */
  typed: (tag: string) => Visitor;
  /** The toast the visitor should see; `success` means the signup was sent. */
  toast: ToastKey;
  /**
   * What the provider should receive when the browser itself changes what was typed
   * (default: the typed values, trimmed before they are checked or sent: product rule 6).
   */
  sent?: (tag: string) => Visitor;
}

/** Defaults: a valid address carrying the tag, and plain names. */
const visitor = (tag: string, override: Partial<Visitor> = {}): Visitor => ({
  email: `${tag}@example.test`,
  firstName: "Ann",
  lastName: "Lee",
  ...override,
});
/** For rows about the e-mail address: the tag goes in the last name. */
const withEmail = (email: string) => (tag: string) => visitor(tag, { email, lastName: `Lee-${tag}` });
const names = (firstName: string, lastName: string) => (tag: string) => visitor(tag, { firstName, lastName });

const ROWS: Row[] = [
  // Unicode names are sent exactly as typed.
  { about: "accented Latin names", typed: names("Zoë", "Núñez-Ångström"), toast: SENT },
  { about: "Chinese/Japanese names", typed: names("太郎", "山田"), toast: SENT },
  { about: "Korean names", typed: names("민준", "김"), toast: SENT },
  { about: "Cyrillic names", typed: names("Анна", "Иванова"), toast: SENT },
  { about: "Devanagari names", typed: names("अर्जुन", "शर्मा"), toast: SENT },
  { about: "right-to-left Arabic names", typed: names("محمد", "العلي"), toast: SENT },
  { about: "right-to-left Hebrew names", typed: names("דוד", "כהן"), toast: SENT },
  { about: "emoji in names", typed: names("Sam 🏈", "Lee ⚽️🏀"), toast: SENT },
  { about: "a zero-width-joiner emoji sequence", typed: names("👩‍👩‍👧‍👦", "Family"), toast: SENT },
  { about: "a decomposed accent (not normalised)", typed: names("Jose\u0301", "Lee"), toast: SENT },
  // A bidirectional override would reorder what every e-mail greeting the person shows (the shared rules refuse it).
  { about: "a right-to-left override character", typed: names("\u202Eevil", "Lee"), toast: "firstNameInvalid" },
  { about: "apostrophes and hyphens", typed: names("O'Brien", "D'Angelo-Smith"), toast: SENT },
  { about: "spaces inside names (kept)", typed: names("Mary Ann", "van der Berg"), toast: SENT },
  // Long values.
  // The browser stops typing at each field's maxlength (the shared rules' limits), so a paste of 1,000 characters sends the first 100.
  {
    about: "1,000 characters typed into the first name",
    typed: names("a".repeat(LONG), "Lee"),
    toast: SENT,
    sent: (tag) => visitor(tag, { firstName: "a".repeat(SIGNUP_FIELD_MAX_LENGTH.firstName) }),
  },
  {
    about: "1,000 accented letters typed into the last name",
    typed: names("Ann", "é".repeat(LONG)),
    toast: SENT,
    sent: (tag) => visitor(tag, { lastName: "é".repeat(SIGNUP_FIELD_MAX_LENGTH.lastName) }),
  },
  {
    about: "an address of exactly 254 characters, the longest deliverable",
    typed: withEmail(`${"x".repeat(SIGNUP_FIELD_MAX_LENGTH.email - "@example.test".length)}@example.test`),
    toast: SENT,
  },
  // Cut at 254 characters, the address loses its domain: the visitor is told it is not an address, nothing is sent.
  { about: "1,000 characters typed into the e-mail address", typed: withEmail(`${"x".repeat(LONG)}@example.test`), toast: "invalidEmail" },
  // Surrounding white space is trimmed before the checks and before sending.
  {
    about: "spaces around every field",
    typed: (tag) => visitor(tag, { email: `  ${tag}@example.test  `, firstName: "  Ann ", lastName: " Lee  " }),
    toast: SENT,
  },
  { about: "tabs around the names", typed: names("\tAnn\t", "\t Lee"), toast: SENT },
  { about: "no-break spaces around a name", typed: names("\u00A0Ann\u00A0", "Lee"), toast: SENT },
  { about: "ideographic spaces around a name", typed: names("\u3000太郎\u3000", "山田"), toast: SENT },
  // A one-line field cannot hold a line break: Chromium turns it into a space (as when pasting) before the page sees it.
  {
    about: "a line break inside a name",
    typed: names("Ann\nMarie", "Lee"),
    toast: SENT,
    sent: (tag) => visitor(tag, { firstName: "Ann Marie" }),
  },
  // White space only counts as empty: the 'required' toasts, in the order of product rule 7.
  { about: "an e-mail of spaces only", typed: (tag) => visitor(tag, { email: "   ", lastName: `Lee-${tag}` }), toast: "emailRequired" },
  { about: "a first name of spaces only", typed: (tag) => visitor(tag, { firstName: "   " }), toast: "firstNameRequired" },
  { about: "a last name of tabs and spaces only", typed: (tag) => visitor(tag, { lastName: "\t \t" }), toast: "lastNameRequired" },
  {
    about: "a first name of Unicode spaces only",
    typed: (tag) => visitor(tag, { firstName: "\u00A0\u3000\u2003" }),
    toast: "firstNameRequired",
  },
  { about: "every field white space only", typed: () => ({ email: " ", firstName: "\t", lastName: " " }), toast: "emailRequired" },
  {
    about: "spaces-only names with an invalid e-mail (required comes first)",
    typed: (tag) => ({ email: `not-an-email-${tag}`, firstName: "  ", lastName: "Lee" }),
    toast: "firstNameRequired",
  },
  // HTML and script are text: sent exactly, never rendered.
  { about: "HTML tags in the first name", typed: names("<b>Bold</b>", "<i>Lee</i>"), toast: SENT },
  { about: "an img onerror payload", typed: names(`<img src=x onerror="window.__injected=1">`, "Lee"), toast: SENT },
  { about: "a script element", typed: names("<script>window.__injected=2</script>", "Lee"), toast: SENT },
  {
    about: "an attribute-breaking svg payload",
    typed: names(`"><svg onload=alert(1) data-injected>`, "'><b data-injected>x</b>"),
    toast: SENT,
  },
  { about: "HTML entities (not decoded)", typed: names("&amp; &lt;b&gt;", "&#60;Lee&#62;"), toast: SENT },
  { about: "a javascript: URL and a template expression", typed: names("javascript:alert(1)", "{{7*7}} ${7*7}"), toast: SENT },
  { about: "form-encoding characters (+ & = %)", typed: names("a+b=c&d", "100% %20"), toast: SENT },
  { about: "SQL-looking text", typed: names("Robert'); DROP TABLE signups;--", "' OR 1=1 --"), toast: SENT },
  // Links, an @ and control characters in a name would reach Klaviyo and every e-mail that greets the person.
  { about: "a link in the first name", typed: names("Claim $500 at https://pickfund-bonus.io", "Lee"), toast: "firstNameInvalid" },
  { about: "a domain as the first name", typed: names("pickfund-bonus.io", "Lee"), toast: "firstNameInvalid" },
  { about: "an @ in the last name", typed: names("Ann", "lee@example"), toast: "lastNameInvalid" },
  { about: "a terminal escape in the last name", typed: names("Ann", "Lee\u001b[2K"), toast: "lastNameInvalid" },
  // E-mail addresses at the edges of product rule 7's pattern: non-space characters, one @, a domain with a dot.
  { about: "the shortest valid address a@b.c", typed: withEmail("a@b.c"), toast: SENT },
  { about: "a plus tag in the address", typed: withEmail("a+waitlist@example.test"), toast: SENT },
  { about: "capitals in the address (sent as typed)", typed: withEmail("Ann.LEE@Example.TEST"), toast: SENT },
  { about: "a dot after the domain (the same inbox without it)", typed: withEmail("a@b.c."), toast: SENT },
  // Chromium's e-mail input writes the domain in punycode itself; the shared rules accept it as workerd's do.
  {
    about: "an internationalised domain",
    typed: withEmail("ann@bücher.example"),
    toast: SENT,
    sent: (tag) => withEmail("ann@xn--bcher-kva.example")(tag),
  },
  { about: "user@localhost (no dot in the domain)", typed: withEmail("user@localhost"), toast: "invalidEmail" },
  { about: "two @ signs", typed: withEmail("a@b@c.d"), toast: "invalidEmail" },
  { about: "nothing before the @", typed: withEmail("@x.com"), toast: "invalidEmail" },
  { about: "nothing around the dot (x@.)", typed: withEmail("x@."), toast: "invalidEmail" },
  { about: "a domain ending in a dot (a@b.)", typed: withEmail("a@b."), toast: "invalidEmail" },
  { about: "a domain starting with its only dot (a@.b)", typed: withEmail("a@.b"), toast: "invalidEmail" },
  { about: "a space in the local part", typed: withEmail("a b@c.de"), toast: "invalidEmail" },
  { about: "a space in the domain", typed: withEmail("ab@c .de"), toast: "invalidEmail" },
  { about: "a quoted local part with a space", typed: withEmail(`"a b"@c.de`), toast: "invalidEmail" },
  { about: "no @ at all", typed: withEmail("plainaddress.example.test"), toast: "invalidEmail" },
  { about: "an @ alone", typed: withEmail("@"), toast: "invalidEmail" },
  // Addresses no inbox can be named for (shared/email-address.ts).
  { about: "a zero-width space in the address", typed: withEmail("a\u200Bb@c.de"), toast: "invalidEmail" },
  { about: "a quoted local part", typed: withEmail(`"ab"@c.de`), toast: "invalidEmail" },
  { about: "an empty label in the domain", typed: withEmail("ab@c..de"), toast: "invalidEmail" },
  { about: "a domain label ending in a hyphen", typed: withEmail("ab@c-.de"), toast: "invalidEmail" },
  // Chromium's URL parser accepts a label that is not Punycode; the shared rules decode it themselves.
  { about: "a punycode label that does not decode", typed: withEmail("ab@xn--zz.de"), toast: "invalidEmail" },
];

/** One run's prefix, so a rerun against the same stand-in never sees an old row's request. */
const RUN = randomUUID().slice(0, 6);

/** Every alert/confirm/prompt the page opened: an injected script would show here. */
let dialogs: string[] = [];

test.beforeEach(({ page }) => {
  dialogs = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
});

/** A fresh home page: no toasts, the browser's checks off. */
async function freshForm(page: Page): Promise<void> {
  await page.goto("/");
  await waitForHydration(page);
  await skipBrowserValidation(page);
}

/** The stand-in's requests carrying the row's tag in any field. */
async function requestsTagged(tag: string): Promise<RecordedRequest[]> {
  return (await allProviderRequests()).filter((request) => request.fields.some(([, value]) => value.includes(tag)));
}

/** Nothing the visitor typed became markup, and no script it carried ran. */
async function expectNoInjectedMarkup(page: Page): Promise<void> {
  await expect(page.locator(INJECTED_MARKUP)).toHaveCount(0);
  await expect
    .poll(() => page.evaluate(() => (window as { __injected?: unknown }).__injected), {
      message: "window.__injected, set by a script the visitor typed",
    })
    .toBeUndefined();
  expect(dialogs).toEqual([]);
}

test.describe("bad and unusual input, one page per row", () => {
  // The rows share nothing: both workers take them, rather than one worker the whole file.
  test.describe.configure({ mode: "parallel" });

  test("has at least 40 rows", () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(40);
  });

  for (const [index, row] of ROWS.entries()) {
    test(`${row.about} → '${FIXTURE.toasts[row.toast].title}'`, async ({ page }) => {
      const tag = `r${index}-${RUN}`;
      const typed = row.typed(tag);
      // A row that should be sent must carry its tag, or its request could not be told apart.
      if (row.toast === SENT) expect([typed.email, typed.firstName, typed.lastName].some((value) => value.includes(tag))).toBe(true);

      await freshForm(page);
      await fillSignupForm(page, typed);
      await submitButton(page).click();

      const { title, message } = FIXTURE.toasts[row.toast];
      await expect(toastTitled(page, title)).toContainText(message);
      await expect(allToasts(page)).toHaveCount(1);
      await expectNoInjectedMarkup(page);

      if (row.toast !== SENT) {
        await expect(page).toHaveURL((url) => url.pathname === "/");
        await expect(page.getByRole("button", { name: FIXTURE.home.form.submit })).toBeEnabled();
        expect(await requestsTagged(tag)).toEqual([]);
        return;
      }
      const expected = row.sent?.(tag) ?? { email: typed.email.trim(), firstName: typed.firstName.trim(), lastName: typed.lastName.trim() };
      let requests: RecordedRequest[] = [];
      await expect.poll(async () => (requests = await requestsTagged(tag)).length, { message: `signups tagged ${tag}` }).toBeGreaterThan(0);
      const [request, ...more] = requests;
      expect(more).toEqual([]);
      expect(sentSignup(request)).toEqual({
        listId: FIXTURE.provider.listId,
        email: expected.email,
        firstName: expected.firstName,
        lastName: expected.lastName,
      });
      await expect(page).toHaveURL((url) => url.pathname === "/success/");
      await expectNoInjectedMarkup(page);
    });
  }
});
