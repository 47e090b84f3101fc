/**
 * Signups when the network fails (product rules 8, 9, 11): a provider that never answers, a browser that is
 * offline. Timings are asserted as lower bounds (order and spacing of attempts), never as deadlines.
 */
import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { providerRequests, requestsFrom, setProviderMode } from "./support/provider-control";
import { CLIENT_API_PATH, type RecordedRequest } from "./support/provider-stand-in";
import { expectNoLaterRequests } from "./support/quiet-period";
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
/**
 * The stand-in's clock sees an attempt a little after the browser sent it, and sees the browser give up a little
 * after it did, by up to a few hundred ms on a loaded CI machine; lower bounds allow for that much (ms). The spacing
 * of two attempts as the stand-in received them needs no slack and is held to the whole backoff.
 */
const CLOCK_SLACK_MS = 1_000;
/** The failure toast's copy. */
const FAILED = FIXTURE.toasts.subscriptionFailed;
/**
 * How long the failure toast may take to appear: all attempts, their timeouts and the backoff (product rule 9),
 * on a busy machine; longer than the config's expect timeout (ms).
 */
const ALL_ATTEMPTS_LIMIT_MS = 60_000;

/** Main-frame navigations after the home page loaded. */
let navigations: string[];

test.beforeEach(async ({ page }) => {
  await gotoHydrated(page, "/");
  navigations = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });
});

/** Expect the failure toast, its title followed by exactly `message`. */
async function expectFailure(page: Page, message: string): Promise<void> {
  await expect(toastTitled(page, FAILED.title)).toHaveText(toastText(FAILED.title, message), { timeout: ALL_ATTEMPTS_LIMIT_MS });
}

/** The form is given back (see expectFormGivenBack) and the page never navigated at all. */
async function expectFormGivenBackInPlace(page: Page, visitor: Visitor): Promise<void> {
  await expectFormGivenBack(page, visitor);
  expect(navigations).toEqual([]);
}

test.describe("when the provider never answers", () => {
  test(`gives each of the 4 attempts ~5 s, backs off 1 s, 2 s, 4 s between them, then shows '${FAILED.title}' / '${FAILED.fallbackMessage}' and sends nothing more`, async ({
    page,
  }) => {
    const visitor = uniqueVisitor("never-answers");
    await setProviderMode(visitor.email, "never");
    await fillSignupForm(page, visitor);
    await submitButton(page).click();

    // While the retries run, the form stays in its submitting state (product rule 8).
    await requestsFrom(visitor, 2, ALL_ATTEMPTS_LIMIT_MS);
    await expect(page.getByRole("button", { name: FIXTURE.home.form.submitting })).toBeDisabled();

    await expectFailure(page, FAILED.fallbackMessage);
    // The browser closes each connection when it gives up; the last close may trail the toast a little.
    let attempts: RecordedRequest[] = [];
    await expect
      .poll(async () => (attempts = await providerRequests(visitor.email)).map((r) => r.abandonedAt !== null), {
        message: "which attempts the browser gave up (closed)",
      })
      .toEqual(Array(ATTEMPTS).fill(true));
    const abandoned = (attempt: RecordedRequest) => attempt.abandonedAt ?? Number.NaN;

    for (const attempt of attempts) {
      expect(abandoned(attempt) - attempt.receivedAt).toBeGreaterThanOrEqual(ATTEMPT_TIMEOUT_MS - CLOCK_SLACK_MS);
    }
    BACKOFF_MS.forEach((backoff, retry) => {
      const [previous, next] = [attempts[retry], attempts[retry + 1]];
      // A retry starts only after the previous attempt was given up, and then only after its backoff.
      expect(next.receivedAt - abandoned(previous)).toBeGreaterThanOrEqual(backoff - CLOCK_SLACK_MS);
      expect(next.receivedAt - previous.receivedAt).toBeGreaterThanOrEqual(backoff);
    });
    // Every attempt is the same signup.
    expect(new Set(attempts.map((attempt) => attempt.body)).size).toBe(1);

    await expectFormGivenBackInPlace(page, visitor);
    await expectNoLaterRequests(visitor.email, ATTEMPTS);
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
    await submitButton(page).click();

    await expectFailure(page, FAILED.networkMessage);
    expect(sent).toEqual(Array(ATTEMPTS).fill("POST"));
    expect(failed).toHaveLength(ATTEMPTS);
    await expectFormGivenBackInPlace(page, visitor);
    // Nothing reached the provider, and nothing is queued to go out once the browser is back online.
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
