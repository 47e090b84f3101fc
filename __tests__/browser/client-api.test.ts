/**
 * What the visitor sees for each answer of Klaviyo's Client API, from a stand-in that answers as Klaviyo's
 * reference documents. Timings are asserted as lower bounds (a wait was honoured), never as deadlines.
 */
import type { Page } from "@playwright/test";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { providerRequests, requestsFrom, setProviderMode } from "./support/provider-control";
import { CLIENT_API_PATH, LIST_REFUSAL_DETAIL } from "./support/provider-stand-in";
import { expectNoLaterRequests } from "./support/quiet-period";
import { runEnv } from "./support/run-env";
import { FIXTURE } from "./support/fixture-content";
import { expectFormGivenBack, fillSignupForm, signupFields, submitButton } from "./support/signup-page";
import { allToasts, toastText, toastTitled } from "./support/toasts";
import { uniqueVisitor, type Visitor } from "./support/visitors";

const { subscriptionFailed: FAILED, invalidEmail: INVALID_EMAIL, success: SUCCESS } = FIXTURE.toasts;
/** The stand-in sees a retry a little after the browser sent it; lower bounds allow for that much (ms). */
const CLOCK_SLACK_MS = 250;
/** A Retry-After the page cannot read (not exposed by CORS): it must not wait this long (s). */
const UNREADABLE_RETRY_AFTER_S = 20;

/** What the page logged with console.error. */
let consoleErrors: string[];

test.beforeEach(async ({ page }) => {
  await gotoHydrated(page, "/");
  consoleErrors = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
});

/** Expect the toast titled `title` to say exactly `message` beside its title (the config's wait covers every retry's backoff). */
async function expectToast(page: Page, title: string, message: string): Promise<void> {
  await expect(toastTitled(page, title)).toHaveText(toastText(title, message));
}

async function signUp(page: Page, visitor: Visitor): Promise<void> {
  await fillSignupForm(page, visitor);
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
    await signUp(page, visitor);

    await expectToast(page, INVALID_EMAIL.title, INVALID_EMAIL.message);
    await expectFormGivenBack(page, visitor);
    await expect(signupFields(page).email).toBeFocused();
    await expect(toastTitled(page, FAILED.title)).toHaveCount(0);
    await expectNoLaterRequests(visitor.email, 1);
  });

  test("429 with a readable Retry-After: 3 waits those 3 s (not the 1 s backoff), retries, and confirms", async ({ page }) => {
    const visitor = uniqueVisitor("api-throttled");
    await setProviderMode(visitor.email, "throttle", { times: 1, retryAfterS: 3 });
    await signUp(page, visitor);

    // The form stays in its submitting state while it waits.
    await requestsFrom(visitor, 1);
    await expect(page.getByRole("button", { name: FIXTURE.home.form.submitting })).toBeDisabled();
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
    const [first, retry] = await requestsFrom(visitor, 2);
    expect(retry.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(3_000 - CLOCK_SLACK_MS);
    expect(retry.body).toBe(first.body);
  });

  test("429 whose Retry-After is not exposed to the page: retries after the usual backoff instead of the unreadable 20 s", async ({
    page,
  }) => {
    const visitor = uniqueVisitor("api-throttled-hidden");
    await setProviderMode(visitor.email, "throttle-hidden", { times: 1, retryAfterS: UNREADABLE_RETRY_AFTER_S });
    await signUp(page, visitor);

    // Had the page waited the 20 s it could not read, the retry would not arrive in this time.
    const [first, retry] = await requestsFrom(visitor, 2, UNREADABLE_RETRY_AFTER_S * 1_000 - CLOCK_SLACK_MS);
    expect(retry.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(1_000 - CLOCK_SLACK_MS);
    expect(retry.receivedAt - first.receivedAt).toBeLessThan(UNREADABLE_RETRY_AFTER_S * 1_000);
    await expect(page).toHaveURL((url) => url.pathname === "/success/");
  });

  test(`429 every time: each counts as one of the 3 retries, then '${FAILED.title}' / '${FAILED.fallbackMessage}'`, async ({ page }) => {
    const visitor = uniqueVisitor("api-throttled-always");
    await setProviderMode(visitor.email, "throttle", { retryAfterS: 1 });
    await signUp(page, visitor);

    await expectToast(page, FAILED.title, FAILED.fallbackMessage);
    expect(await providerRequests(visitor.email)).toHaveLength(4);
    await expectFormGivenBack(page, visitor);
  });

  test(`500 every time: retried 3 times with the backoff, then '${FAILED.title}' / '${FAILED.fallbackMessage}', the form given back`, async ({
    page,
  }) => {
    const visitor = uniqueVisitor("api-500");
    await setProviderMode(visitor.email, "500");
    await signUp(page, visitor);

    await expectToast(page, FAILED.title, FAILED.fallbackMessage);
    const attempts = await providerRequests(visitor.email);
    expect(attempts).toHaveLength(4);
    [1_000, 2_000, 4_000].forEach((backoff, retry) => {
      expect(attempts[retry + 1].receivedAt - attempts[retry].receivedAt).toBeGreaterThanOrEqual(backoff);
    });
    await expectFormGivenBack(page, visitor);
    await expectNoLaterRequests(visitor.email, 4);
  });

  test("400 naming the list (a configuration mistake): no retry, the content's message to the visitor, the provider's detail in the console", async ({
    page,
  }) => {
    const visitor = uniqueVisitor("api-wrong-list");
    await setProviderMode(visitor.email, "refuse-list");
    await signUp(page, visitor);

    await expectToast(page, FAILED.title, FAILED.rejectedMessage);
    await expect(allToasts(page)).toHaveCount(1);
    await expect
      .poll(() => consoleErrors.some((text) => text.includes(LIST_REFUSAL_DETAIL)), { message: "the provider's detail in the console" })
      .toBe(true);
    await expect(page.locator("body")).not.toContainText(LIST_REFUSAL_DETAIL);
    await expectFormGivenBack(page, visitor);
    await expectNoLaterRequests(visitor.email, 1);
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
