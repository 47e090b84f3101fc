/** The page on `waitlist-api` against the real service (globalSetup's third build); a signup is checked by its row in D1. */
import type { BrowserContext, Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { waitlistContent } from "./support/fixture-content";
import { expectFormGivenBack, fillSignupForm, signupFields, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";
import { TURNSTILE_DUMMY_TOKEN, TURNSTILE_STAND_IN_LABEL, TURNSTILE_STAND_IN_PATH } from "./support/turnstile-stand-in";
import { uniqueVisitor, type Visitor } from "./support/visitors";
import { storedSignups } from "./support/waitlist-service";

const WAITLIST = waitlistContent();
const { form } = WAITLIST.home;
const { invalidEmail, success } = WAITLIST.toasts;

test.use({ site: "waitlist" });

/** Record every CSP violation the page reports, from before its first script. */
async function recordCspViolations(target: BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    const violations: string[] = [];
    Object.assign(window, { __cspViolations: violations });
    document.addEventListener("securitypolicyviolation", (event) => {
      violations.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`);
    });
  });
}

/** The POST the page's script sends to the service, once the visitor submits. */
function signupRequest(page: Page) {
  return page.waitForRequest((request) => request.method() === "POST" && new URL(request.url()).pathname === "/api/signups");
}

/** The stand-in widget, drawn into the form once Turnstile's script has loaded after the first paint. */
function turnstileWidget(page: Page) {
  return page.getByRole("form").getByRole("group", { name: TURNSTILE_STAND_IN_LABEL });
}

test.describe("with JavaScript", () => {
  test("signs up through the service: the Turnstile token goes along, 'Submission confirmed', then /success/, and the row is in D1", async ({
    context,
    page,
  }) => {
    await recordCspViolations(context);
    const visitor = uniqueVisitor("waitlist-signup");
    await gotoHydrated(page, "/");
    await expect(turnstileWidget(page)).toBeVisible();
    const sent = signupRequest(page);
    await fillSignupForm(page, visitor, form);
    await submitButton(page, form).click();

    const request = await sent;
    expect(request.headers()["content-type"]).toBe("application/json");
    expect(request.postDataJSON()).toEqual({
      email: visitor.email,
      firstName: visitor.firstName,
      lastName: visitor.lastName,
      source: WAITLIST.provider.source,
      properties: { landing_page: "/" },
      turnstileToken: TURNSTILE_DUMMY_TOKEN,
    });
    expect((await request.response())?.status()).toBe(202);
    await expect(toastTitled(page, success.title)).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");

    const rows = await storedSignups(visitor.email);
    expect(rows).toEqual([
      expect.objectContaining({
        email: visitor.email,
        first_name: visitor.firstName,
        last_name: visitor.lastName,
        source: WAITLIST.provider.source,
      }),
    ]);
    expect(JSON.parse(rows[0].properties)).toEqual({ landing_page: "/" });
    // Under the build's own CSP (wrangler applies public/_headers): connect-src 'self', the stand-in's script allowed.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations), {
        message: "the CSP violations the page recorded",
      })
      .toEqual([]);
  });

  test("loads Turnstile's script only after the first paint, into a box reserved for it: the widget moves nothing in or below the form", async ({
    page,
  }) => {
    await gotoHydrated(page, "/");
    await expect(turnstileWidget(page)).toBeVisible();
    const timing = await page.evaluate(
      (scriptPath) =>
        new Promise<{ firstPaintMs: number; scriptRequestedMs: number; formShift: number }>((resolve) => {
          const script = performance.getEntriesByType("resource").find((entry) => new URL(entry.name).pathname === scriptPath);
          const paint = performance.getEntriesByName("first-contentful-paint")[0];
          // The layout shift of everything the widget could push: the form's own content and what follows it.
          const form = document.querySelector("form");
          const pushable = (node: Node) =>
            Boolean(form && (form.contains(node) || form.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING));
          let formShift = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as unknown as { value: number; sources?: { node: Node | null }[] }[]) {
              if ((entry.sources ?? []).some((source) => source.node && pushable(source.node))) formShift += entry.value;
            }
          }).observe({ type: "layout-shift", buffered: true });
          // Buffered entries arrive in the observer's first callback; give it a frame.
          requestAnimationFrame(() =>
            setTimeout(() => resolve({ firstPaintMs: paint?.startTime ?? -1, scriptRequestedMs: script?.startTime ?? -1, formShift }), 0),
          );
        }),
      TURNSTILE_STAND_IN_PATH,
    );
    expect(timing.firstPaintMs).toBeGreaterThan(0);
    expect(timing.scriptRequestedMs).toBeGreaterThanOrEqual(timing.firstPaintMs);
    expect(timing.formShift).toBe(0);
  });

  test("a disposable address: the service's 400 gives the invalid-email toast, the typed values kept, the e-mail field focused, nothing stored", async ({
    page,
  }) => {
    const visitor: Visitor = { ...uniqueVisitor("waitlist-disposable"), email: `waitlist-disposable-${Date.now()}@mailinator.com` };
    await gotoHydrated(page, "/");
    await expect(turnstileWidget(page)).toBeVisible();
    const sent = signupRequest(page);
    await fillSignupForm(page, visitor, form);
    await submitButton(page, form).click();

    expect((await (await sent).response())?.status()).toBe(400);
    const toast = toastTitled(page, invalidEmail.title);
    await expect(toast).toBeVisible();
    await expect(toast).toContainText(invalidEmail.message, { useInnerText: true });
    await expectFormGivenBack(page, visitor, form);
    await expect(signupFields(page, form).email).toBeFocused();
    expect(await storedSignups(visitor.email)).toEqual([]);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the plain form posts to the service, which stores the row and sends the visitor to /success/", async ({ page }) => {
    const visitor = uniqueVisitor("waitlist-no-js");
    await page.goto("/");
    await fillSignupForm(page, visitor, form);
    await submitButton(page, form).click();

    await expect(page).toHaveURL((url) => url.pathname === "/success/");
    await expect(page.getByRole("heading", { name: WAITLIST.success.heading })).toBeVisible();
    await expect
      .poll(() => storedSignups(visitor.email), { message: `the service's rows for ${visitor.email} in D1` })
      .toEqual([
        expect.objectContaining({
          email: visitor.email,
          first_name: visitor.firstName,
          last_name: visitor.lastName,
          source: WAITLIST.provider.source,
        }),
      ]);
  });

  test("an address the shared rules refuse: back on / with the invalid-email message from the content, and nothing stored", async ({
    page,
  }) => {
    // The browser's own check lets user@localhost through (it needs no dot); the shared rules do not.
    const visitor: Visitor = { ...uniqueVisitor("waitlist-no-js-invalid"), email: `waitlist-no-js-${Date.now()}@localhost` };
    await page.goto("/");
    await expect(page.getByRole("alert")).toHaveCount(0);
    await fillSignupForm(page, visitor, form);
    await submitButton(page, form).click();

    await expect(page).toHaveURL((url) => url.pathname === "/" && url.hash === "#signup-error-invalidEmail");
    const alerts = page.getByRole("alert");
    await expect(alerts).toHaveCount(1);
    await expect(alerts.first()).toHaveJSProperty("innerText", `${invalidEmail.title}\n${invalidEmail.message}`);
    await expect(alerts.first()).toBeVisible();
    expect(await storedSignups(visitor.email)).toEqual([]);
  });
});
