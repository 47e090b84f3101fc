/**
 * The security headers the build writes to `public/_headers`, served as a
 * static host would serve them, in a real browser: every page carries them, the
 * Content-Security-Policy lets the site's own scripts run (Gatsby's inline ones by
 * hash) without a single violation, and a whole signup works under it.
 */
import type { Page } from "@playwright/test";
import { consoleUrl } from "./support/console-page";
import { expect, test, waitForHydration } from "./support/fixtures";
import { requestsFrom } from "./support/provider-control";
import { FIXTURE } from "./support/fixture-content";
import { fillSignupForm, submitButton } from "./support/signup-page";
import { toastTitled } from "./support/toasts";
import { uniqueVisitor } from "./support/visitors";

/** The pages to check, with the status each answers. */
const PAGES: [string, number][] = [
  ["/", 200],
  ["/success/", 200],
  ["/no-such-page/", 404],
];

/** What Chromium logs when it blocks something under a CSP. */
const CSP_CONSOLE_TEXT = "Content Security Policy";

/** Console messages about the CSP. */
let cspConsole: string[];

test.use({ site: "withHeaders" });

test.beforeEach(async ({ context, page }) => {
  // Before any page script: record every violation the document reports.
  await context.addInitScript(() => {
    const violations: string[] = [];
    Object.assign(window, { __cspViolations: violations });
    document.addEventListener("securitypolicyviolation", (event) => {
      violations.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  cspConsole = [];
  page.on("console", (message) => {
    if (message.text().includes(CSP_CONSOLE_TEXT)) cspConsole.push(message.text());
  });
});

/** CSP directives by name, e.g. { "script-src": ["'self'", "'sha256-…'"] }. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name.toLowerCase(), sources]),
  );
}

/** The violations the page recorded, and the CSP console messages. */
async function expectNoViolations(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations), {
      message: "the CSP violations the page recorded",
    })
    .toEqual([]);
  expect(cspConsole).toEqual([]);
}

for (const [path, status] of PAGES) {
  test.describe(`${path} with the headers of public/_headers`, () => {
    test("carries the CSP (no 'unsafe-inline' scripts, frame-ancestors 'none'), HSTS, nosniff, Referrer-Policy and Permissions-Policy", async ({
      page,
    }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(status);
      const headers = response?.headers() ?? {};

      const csp = directives(headers["content-security-policy"] ?? "");
      expect(csp["script-src"]).toEqual(expect.arrayContaining(["'self'"]));
      expect(csp["script-src"]).not.toContain("'unsafe-inline'");
      expect(csp["script-src"]).not.toContain("'unsafe-eval'");
      expect(csp["frame-ancestors"]).toEqual(["'none'"]);
      expect(csp["object-src"]).toEqual(["'none'"]);
      expect(headers["strict-transport-security"]).toMatch(/^max-age=\d+/);
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBeTruthy();
      expect(headers["permissions-policy"]).toBeTruthy();
    });

    test("runs the page (hydrates) without a CSP violation", async ({ page }) => {
      await page.goto(path);
      // Hydration needs every script, inline and bundled: a blocked one would stop it.
      await waitForHydration(page);
      await page.waitForLoadState("networkidle");
      await expectNoViolations(page);
    });
  });
}

test.describe("a signup under the CSP", () => {
  test("reaches the provider and lands on /success/ without a violation", async ({ page }) => {
    const visitor = uniqueVisitor("under-csp");
    await page.goto("/");
    await waitForHydration(page);
    await fillSignupForm(page, visitor);
    await submitButton(page).click();

    await requestsFrom(visitor, 1);
    await expect(toastTitled(page, FIXTURE.toasts.success.title)).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
    await expect(page.getByRole("heading", { name: FIXTURE.success.heading })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expectNoViolations(page);
  });
});

test.describe("/console/ (the operator's console) with the headers of public/_headers", () => {
  /** The sources of a policy that name a host or a scheme of the network: a third party's, or the site's by name. */
  const hostSources = (policy: string) =>
    Object.values(directives(policy))
      .flat()
      .filter((source) => !source.startsWith("'") && source !== "data:");

  test("the console page's CSP has no third-party origin, and the page runs under it without a violation", async ({ page, baseURL }) => {
    // The control: the public page's policy names the provider's origin.
    const site = await page.goto("/");
    expect(hostSources(site?.headers()["content-security-policy"] ?? "")).not.toEqual([]);

    const response = await page.goto(consoleUrl(baseURL!));
    expect(response?.status()).toBe(200);
    const policy = response?.headers()["content-security-policy"] ?? "";
    expect(directives(policy)["script-src"]).toEqual(expect.arrayContaining(["'self'"]));
    expect(hostSources(policy)).toEqual([]);
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    await expectNoViolations(page);
  });
});

test.describe("/admin/ (the web editor) with the headers of public/_headers", () => {
  test("has its own policy: Decap CMS may eval and style inline there, nothing may frame it, and search engines skip it", async ({
    page,
  }) => {
    const response = await page.goto("/admin/");
    expect(response?.status()).toBe(200);
    const headers = response?.headers() ?? {};
    const csp = directives(headers["content-security-policy"] ?? "");
    expect(csp["script-src"]).toEqual(["'self'", "'unsafe-eval'"]);
    expect(csp["style-src"]).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(headers["x-robots-tag"]).toBe("noindex, nofollow");
    expect(headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
  });

  test("starts the editor under that policy without a violation", async ({ page }) => {
    await page.goto("/admin/");
    // Decap's sign-in screen: it has loaded its config and chosen the backend.
    await expect(page.getByRole("button", { name: /login/i })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expectNoViolations(page);
  });

  for (const [path] of PAGES) {
    test(`gives ${path} none of the editor's allowances`, async ({ page }) => {
      const response = await page.goto(path);
      const headers = response?.headers() ?? {};
      const csp = directives(headers["content-security-policy"] ?? "");
      expect(csp["script-src"]).not.toContain("'unsafe-eval'");
      expect(csp["img-src"]).not.toContain("blob:");
      expect(headers["x-robots-tag"]).toBeUndefined();
    });
  }
});
