/**
 * Signups when the network fails (product rules 8, 9, 11): a provider that never answers, a browser that is
 * offline. The page's clock is the test's (support/page-clock.ts): each attempt's timeout and each backoff is
 * checked to the millisecond in the page's own time, and takes no real time.
 */
import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { installPageClock, type PageClock } from "./support/page-clock";
import { providerRequests, requestsFrom, setProviderMode } from "./support/provider-control";
import { CLIENT_API_PATH } from "./support/provider-stand-in";
import { expectNoLaterRequests, expectNoLaterRequestsOnClock } from "./support/quiet-period";
import { runEnv } from "./support/run-env";
import { FIXTURE } from "./support/fixture-content";
import { expectFormGivenBack, fillSignupForm, submitButton, touchForm } from "./support/signup-page";
import { toastText, toastTitled } from "./support/toasts";
import { uniqueVisitor, type Visitor } from "./support/visitors";

/** Product rule 9: each attempt is given up after about this long (ms). */
const ATTEMPT_TIMEOUT_MS = 5_000;
/** Product rule 9: one attempt, then 3 retries after 1 s, 2 s and 4 s of backoff (ms). */
const BACKOFF_MS = [1_000, 2_000, 4_000];
const ATTEMPTS = 1 + BACKOFF_MS.length;
/** The failure toast's copy. */
const FAILED = FIXTURE.toasts.subscriptionFailed;

/** Main-frame navigations after the home page loaded. */
let navigations: string[];
/** The page's clock, and its requests to the Client API. */
let clock: PageClock;

test.beforeEach(async ({ page }) => {
  clock = await installPageClock(page, `${runEnv().providerOrigin}${CLIENT_API_PATH}`);
  await gotoHydrated(page, "/");
  navigations = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });
});

/** Expect the failure toast, its title followed by exactly `message`. */
async function expectFailure(page: Page, message: string): Promise<void> {
  await expect(toastTitled(page, FAILED.title)).toHaveText(toastText(FAILED.title, message));
}

/** The form is given back (see expectFormGivenBack) and the page never navigated at all. */
async function expectFormGivenBackInPlace(page: Page, visitor: Visitor): Promise<void> {
  await expectFormGivenBack(page, visitor);
  expect(navigations).toEqual([]);
}

test.describe("when the provider never answers", () => {
  test(`gives each of the 4 attempts 5 s, backs off 1 s, 2 s, 4 s between them, then shows '${FAILED.title}' / '${FAILED.fallbackMessage}' and sends nothing more`, async ({
    page,
  }) => {
    const visitor = uniqueVisitor("never-answers");
    await setProviderMode(visitor.email, "never");
    await fillSignupForm(page, visitor);
    await clock.pause();
    await submitButton(page).click();

    await requestsFrom(visitor, 1);
    await clock.expectGivenUpAfter(ATTEMPT_TIMEOUT_MS);
    for (const [retry, backoff] of BACKOFF_MS.entries()) {
      // A retry starts only after the previous attempt was given up, and then only after its backoff.
      await clock.expectNextRequestAfter(backoff);
      await requestsFrom(visitor, retry + 2);
      // While the retries run, the form stays in its submitting state (product rule 8).
      await expect(page.getByRole("button", { name: FIXTURE.home.form.submitting })).toBeDisabled();
      await clock.expectGivenUpAfter(ATTEMPT_TIMEOUT_MS);
    }

    await expectFailure(page, FAILED.fallbackMessage);
    // The browser closed each connection it gave up; the last close may trail the toast a little.
    await expect
      .poll(async () => (await providerRequests(visitor.email)).map((r) => r.abandonedAt !== null), {
        message: "which attempts the browser gave up (closed)",
      })
      .toEqual(Array(ATTEMPTS).fill(true));
    // Every attempt is the same signup.
    expect(new Set((await providerRequests(visitor.email)).map((attempt) => attempt.body)).size).toBe(1);

    await expectFormGivenBackInPlace(page, visitor);
    await expectNoLaterRequestsOnClock(clock, visitor.email, ATTEMPTS);
  });
});

test.describe("on a slow connection", () => {
  test("sends the signup once the engine's code arrives, however late, even with the page's clock held meanwhile", async ({ page }) => {
    const visitor = uniqueVisitor("slow-engine");
    await setProviderMode(visitor.email, "never");
    // Every script from here on (the engine the form loads on first use among them) takes 1.5 s to arrive.
    await page.route("**/*.js", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.fallback();
    });
    await fillSignupForm(page, visitor);
    await clock.pause();
    await submitButton(page).click();

    await expect(page.getByRole("button", { name: FIXTURE.home.form.submitting })).toBeDisabled();
    const [request] = await requestsFrom(visitor, 1);
    expect(request.path).toBe(CLIENT_API_PATH);
    expect(request.body).toContain(visitor.email);
  });
});

test.describe("when the browser goes offline after the page loaded", () => {
  test(`tries 4 times once the form was in use, shows '${FAILED.title}' with the content's network message, keeps the values and stays on the page`, async ({
    context,
    page,
  }) => {
    const visitor = uniqueVisitor("offline");
    const endpoint = `${runEnv().providerOrigin}${CLIENT_API_PATH}`;
    const sent: string[] = [];
    const failed: string[] = [];
    page.on("request", (request) => {
      if (request.url().split("?")[0] === endpoint) sent.push(request.method());
    });
    page.on("requestfailed", (request) => {
      if (request.url().split("?")[0] === endpoint) failed.push(request.failure()?.errorText ?? "");
    });

    // The visitor starts on the form (which loads the engine that sends and retries), then the connection drops.
    const engine = await touchForm(page);
    expect(engine, "the scripts the touch fetched").not.toEqual([]);
    await context.setOffline(true);
    await fillSignupForm(page, visitor);
    await clock.pause();
    await submitButton(page).click();

    // Each attempt fails at once, and each retry still waits its backoff (product rule 9).
    await clock.settled(1);
    for (const backoff of BACKOFF_MS) await clock.expectNextRequestAfter(backoff);
    await expectFailure(page, FAILED.networkMessage);
    expect((await clock.settled(ATTEMPTS)).map((request) => request.outcome)).toEqual(Array(ATTEMPTS).fill("TypeError"));
    expect(sent).toEqual(Array(ATTEMPTS).fill("POST"));
    expect(failed).toHaveLength(ATTEMPTS);
    await expectFormGivenBackInPlace(page, visitor);
    // Nothing reached the provider, and nothing is queued to go out once the browser is back online. Coming back
    // online is the browser's event, in real time: the page's clock runs by itself again while the stand-in listens.
    await page.clock.resume();
    await context.setOffline(false);
    await expectNoLaterRequests(visitor.email, 0);
    expect(sent).toHaveLength(ATTEMPTS);
  });

  test(`shows '${FAILED.title}' with the network message and keeps the values when the form was not touched before the connection dropped`, async ({
    context,
    page,
  }) => {
    const visitor = uniqueVisitor("offline-untouched");
    await context.setOffline(true);
    await fillSignupForm(page, visitor);
    await submitButton(page).click();

    // The engine that sends a signup could not be fetched: no request could go out, and the page did not reload.
    await expectFailure(page, FAILED.networkMessage);
    await expectFormGivenBackInPlace(page, visitor);
    await context.setOffline(false);
    await expectNoLaterRequests(visitor.email, 0);
  });
});
