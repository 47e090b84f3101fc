/**
 * What the visitor sees for each answer of Klaviyo's Client API, from a stand-in that answers as Klaviyo's
 * reference documents. The page's clock is the test's (support/page-clock.ts): a wait before a retry is checked
 * to the millisecond in the page's own time, and takes no real time.
 */
import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { installPageClock, type PageClock } from "./support/page-clock";
import { providerRequests, requestsFrom, setProviderMode } from "./support/provider-control";
import { CLIENT_API_PATH, LIST_REFUSAL_DETAIL } from "./support/provider-stand-in";
import { expectNoLaterRequestsOnClock } from "./support/quiet-period";
import { runEnv } from "./support/run-env";
import { FIXTURE } from "./support/fixture-content";
import { expectFormGivenBack, fillSignupForm, signupFields, submitButton } from "./support/signup-page";
import { allToasts, toastText, toastTitled } from "./support/toasts";
import { uniqueVisitor, type Visitor } from "./support/visitors";

const { subscriptionFailed: FAILED, invalidEmail: INVALID_EMAIL, success: SUCCESS } = FIXTURE.toasts;
/** Product rule 9: 3 retries after 1 s, 2 s and 4 s of backoff (ms). */
const BACKOFF_MS = [1_000, 2_000, 4_000];
/** A Retry-After the page cannot read (not exposed by CORS): it must not wait this long (s). */
const UNREADABLE_RETRY_AFTER_S = 20;

/** What the page logged with console.error. */
let consoleErrors: string[];
/** The page's clock, and its requests to the Client API. */
let clock: PageClock;

test.beforeEach(async ({ page }) => {
  clock = await installPageClock(page, `${runEnv().providerOrigin}${CLIENT_API_PATH}`);
  await gotoHydrated(page, "/");
  consoleErrors = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
});

/** Expect the toast titled `title` to say exactly `message` beside its title. */
async function expectToast(page: Page, title: string, message: string): Promise<void> {
  await expect(toastTitled(page, title)).toHaveText(toastText(title, message));
}

/** Fill the form in and send it; with `heldClock`, the page's clock is paused first, to be moved on by the test. */
async function signUp(page: Page, visitor: Visitor, { heldClock = false } = {}): Promise<void> {
  await fillSignupForm(page, visitor);
  if (heldClock) await clock.pause();
  await submitButton(page).click();
}

test.describe("the Client API's answers", () => {
  test(`202 Accepted: '${SUCCESS.title}', then /success/`, async ({ page }) => {
    const visitor = uniqueVisitor("api-202");
    await setProviderMode(visitor.email, "ok");
    await signUp(page, visitor);

    await expect(toastTitled(page, SUCCESS.title)).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
    const [request] = await requestsFrom(visitor, 1);
    expect(request.path).toBe(CLIENT_API_PATH);
  });

  test(`400 pointing at the e-mail: '${INVALID_EMAIL.title}', no retry, the values kept and the e-mail field focused`, async ({ page }) => {
    const visitor = uniqueVisitor("api-refused-email");
    await setProviderMode(visitor.email, "refuse-email");
    await signUp(page, visitor, { heldClock: true });

    await expectToast(page, INVALID_EMAIL.title, INVALID_EMAIL.message);
    await expectFormGivenBack(page, visitor);
    // No retry while the page's time runs on past the backoff; the focus moves on that clock too (a timer of 0 ms).
    await expectNoLaterRequestsOnClock(clock, visitor.email, 1);
    await expect(signupFields(page).email).toBeFocused();
    await expect(toastTitled(page, FAILED.title)).toHaveCount(0);
  });

  test("429 with a readable Retry-After: 3 waits those 3 s (not the 1 s backoff), retries, and confirms", async ({ page }) => {
    const visitor = uniqueVisitor("api-throttled");
    const retryAfterS = 3;
    await setProviderMode(visitor.email, "throttle", { times: 1, retryAfterS });
    await signUp(page, visitor, { heldClock: true });

    // The form stays in its submitting state while it waits.
    await requestsFrom(visitor, 1);
    expect((await clock.settled(1))[0].outcome).toBe("429");
    await expect(page.getByRole("button", { name: FIXTURE.home.form.submitting })).toBeDisabled();
    await clock.expectNextRequestAfter(retryAfterS * 1_000);
    const [first, retry] = await requestsFrom(visitor, 2);
    expect(retry.body).toBe(first.body);
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
  });

  test("429 whose Retry-After is not exposed to the page: retries after the usual backoff instead of the unreadable 20 s", async ({
    page,
  }) => {
    const visitor = uniqueVisitor("api-throttled-hidden");
    await setProviderMode(visitor.email, "throttle-hidden", { times: 1, retryAfterS: UNREADABLE_RETRY_AFTER_S });
    await signUp(page, visitor, { heldClock: true });

    await requestsFrom(visitor, 1);
    expect((await clock.settled(1))[0].outcome).toBe("429");
    await clock.expectNextRequestAfter(BACKOFF_MS[0]);
    await requestsFrom(visitor, 2);
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
  });

  test(`429 every time: each counts as one of the 3 retries, then '${FAILED.title}' / '${FAILED.fallbackMessage}'`, async ({ page }) => {
    const visitor = uniqueVisitor("api-throttled-always");
    const retryAfterS = 1;
    await setProviderMode(visitor.email, "throttle", { retryAfterS });
    await signUp(page, visitor, { heldClock: true });

    await requestsFrom(visitor, 1);
    for (const retry of BACKOFF_MS.keys()) {
      await clock.expectNextRequestAfter(retryAfterS * 1_000);
      await requestsFrom(visitor, retry + 2);
    }
    await expectToast(page, FAILED.title, FAILED.fallbackMessage);
    expect((await clock.settled(4)).map((request) => request.outcome)).toEqual(Array(4).fill("429"));
    expect(await providerRequests(visitor.email)).toHaveLength(4);
    await expectFormGivenBack(page, visitor);
  });

  test(`500 every time: retried 3 times with the backoff, then '${FAILED.title}' / '${FAILED.fallbackMessage}', the form given back`, async ({
    page,
  }) => {
    const visitor = uniqueVisitor("api-500");
    await setProviderMode(visitor.email, "500");
    await signUp(page, visitor, { heldClock: true });

    await requestsFrom(visitor, 1);
    for (const [retry, backoff] of BACKOFF_MS.entries()) {
      await clock.expectNextRequestAfter(backoff);
      await requestsFrom(visitor, retry + 2);
    }
    await expectToast(page, FAILED.title, FAILED.fallbackMessage);
    expect((await clock.settled(4)).map((request) => request.outcome)).toEqual(Array(4).fill("500"));
    expect(await providerRequests(visitor.email)).toHaveLength(4);
    await expectFormGivenBack(page, visitor);
    await expectNoLaterRequestsOnClock(clock, visitor.email, 4);
  });

  test("400 naming the list (a configuration mistake): no retry, the content's message to the visitor, the provider's detail in the console", async ({
    page,
  }) => {
    const visitor = uniqueVisitor("api-wrong-list");
    await setProviderMode(visitor.email, "refuse-list");
    await signUp(page, visitor, { heldClock: true });

    await expectToast(page, FAILED.title, FAILED.rejectedMessage);
    await expect(allToasts(page)).toHaveCount(1);
    await expect
      .poll(() => consoleErrors.some((text) => text.includes(LIST_REFUSAL_DETAIL)), { message: "the provider's detail in the console" })
      .toBe(true);
    await expect(page.locator("body")).not.toContainText(LIST_REFUSAL_DETAIL);
    await expectFormGivenBack(page, visitor);
    await expectNoLaterRequestsOnClock(clock, visitor.email, 1);
  });
});

test.describe("the Klaviyo stand-in itself refuses what the real API refuses", () => {
  const endpoint = () => `${runEnv().providerOrigin}${CLIENT_API_PATH}`;
  const document = (email: string) => ({
    data: {
      type: "subscription",
      attributes: { profile: { data: { type: "profile", attributes: { email } } } },
      relationships: { list: { data: { type: "list", id: FIXTURE.provider.listId } } },
    },
  });
  const post = (url: string, headers: Record<string, string>, body: unknown) =>
    fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const HEADERS = { revision: "2026-07-15", "content-type": "application/vnd.api+json" };

  const refused: [string, (email: string) => Promise<Response>][] = [
    ["without company_id", (email) => post(endpoint(), HEADERS, document(email))],
    [
      "without a revision header",
      (email) =>
        post(`${endpoint()}?company_id=${FIXTURE.provider.publicApiKey}`, { "content-type": HEADERS["content-type"] }, document(email)),
    ],
    [
      "whose body is not a subscription document",
      (email) =>
        post(`${endpoint()}?company_id=${FIXTURE.provider.publicApiKey}`, HEADERS, { data: { type: "profile", attributes: { email } } }),
    ],
  ];
  for (const [request, send] of refused) {
    test(`answers a request ${request} with 400 and a JSON:API error`, async () => {
      const response = await send(uniqueVisitor("stand-in-check").email);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { errors: { status: string; detail: string }[] };
      expect(body.errors[0]).toMatchObject({ status: "400", detail: expect.any(String) });
    });
  }

  test("accepts a well-formed one with 202 and no body, and answers the CORS preflight", async () => {
    const response = await post(
      `${endpoint()}?company_id=${FIXTURE.provider.publicApiKey}`,
      { ...HEADERS, origin: runEnv().siteOrigin },
      document(uniqueVisitor("stand-in-ok").email),
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
    expect(response.headers.get("access-control-allow-origin")).toBe(runEnv().siteOrigin);
    const preflight = await fetch(endpoint(), {
      method: "OPTIONS",
      headers: {
        origin: runEnv().siteOrigin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "revision,content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toBe("revision,content-type");
  });
});
