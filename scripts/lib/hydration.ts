/**
 * When React has taken over a prerendered page (input before that goes to the plain HTML form), told by
 * the `__reactProps$…` key React puts on each DOM node it has taken over.
 */
import type { Page } from "playwright-core";

/**
 * Wait until React has hydrated the page: the page's wrapper and every input, button, link and form in it.
 * @param timeoutMs ms; Playwright's default when left out
 * @throws Playwright's TimeoutError when the page does not hydrate in time
 */
export async function waitForHydration(page: Page, timeoutMs?: number): Promise<void> {
  await page.waitForFunction(
    // No named functions inside: under tsx (the bench) esbuild would wrap them in a `__name` helper the page does not have.
    () => {
      const wrapper = document.getElementById("gatsby-focus-wrapper");
      return (
        wrapper !== null &&
        [wrapper, ...Array.from(wrapper.querySelectorAll("input, button, a, form"))]
          // The Turnstile widget draws its own field into its box: Cloudflare's, never React's.
          .filter((el) => el === wrapper || !el.closest("[data-turnstile-box]"))
          .every((el) => Object.keys(el).some((key) => key.startsWith("__reactProps$")))
      );
    },
    undefined,
    { polling: 50, timeout: timeoutMs },
  );
}

/** After hydration, a page counts as settled once no request has been open for this long (ms). */
export const NETWORK_QUIET_MS = 2_000;
/** …or once this long has passed since navigation (ms): a page that keeps polling is taken as it stands then. */
export const SETTLE_LIMIT_MS = 20_000;
/** How long a page may take to hydrate (ms). */
export const HYDRATION_TIMEOUT_MS = 30_000;

/** One request a page made, in the order made. */
export interface PageRequest {
  url: string;
  /** Playwright's resource type: "script", "document", "fetch", "stylesheet"… */
  resourceType: string;
}

export interface SettleOptions {
  /**
   * Wait for hydration (polling the page) before waiting for the network (default true). A profile
   * of the page turns it off: the polling runs Playwright's own script in the page, which would show
   * up in the profile; it checks hydration once the page has settled instead (`waitForHydration`).
   */
  pollHydration?: boolean;
  /** The quiet time that counts as settled (ms; default NETWORK_QUIET_MS). */
  quietMs?: number;
}

/**
 * Open `url` in `page` and let it settle as a visitor who does nothing would: wait for hydration,
 * then for the network to stay quiet for NETWORK_QUIET_MS (at most SETTLE_LIMIT_MS in all), so
 * whatever the page fetches after hydration (lazily loaded chunks, prefetches) has been fetched.
 * @returns every request the page made meanwhile
 * @throws Playwright's TimeoutError when the page does not hydrate within HYDRATION_TIMEOUT_MS
 */
export async function openAndSettle(page: Page, url: string, options: SettleOptions = {}): Promise<PageRequest[]> {
  const { pollHydration = true, quietMs = NETWORK_QUIET_MS } = options;
  const requests: PageRequest[] = [];
  let open = 0;
  let lastActivity = Date.now();
  page.on("request", (request) => {
    open++;
    lastActivity = Date.now();
    requests.push({ url: request.url(), resourceType: request.resourceType() });
  });
  const settled = () => {
    open--;
    lastActivity = Date.now();
  };
  page.on("requestfinished", settled);
  page.on("requestfailed", settled);
  const started = Date.now();
  await page.goto(url);
  if (pollHydration) await waitForHydration(page, HYDRATION_TIMEOUT_MS);
  while (Date.now() - started < SETTLE_LIMIT_MS && (open > 0 || Date.now() - lastActivity < quietMs)) {
    await page.waitForTimeout(100);
  }
  return requests;
}
