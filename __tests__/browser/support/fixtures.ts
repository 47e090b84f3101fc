/**
 * The browser suite's `test` and `expect`: Playwright Test's, extended with what every file shares. The page's
 * context is guarded (a request leaving the machine is aborted and recorded in `blocked`), its baseURL is the
 * server of the build a file picks with `test.use({ site })`, and a failure keeps, beside Playwright's trace and
 * screenshot, each open page's address and text, the requests still waiting for an answer, and the waitlist
 * service's last log lines.
 */
import { readFile, writeFile } from "node:fs/promises";
import {
  test as base,
  expect,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type Request,
  type TestInfo,
} from "@playwright/test";
import { waitForHydration } from "../../../scripts/lib/hydration";
import { isConsoleHost } from "./console-page";
import { allProviderRequests, providerRequests, requestsFrom, setProviderMode } from "./provider-control";
import { legacyPixelSiteOrigin, runEnv, siteOriginWithHeaders, WAITLIST_OUTPUT_FILE_VAR, waitlistSite, type WaitlistSite } from "./run-env";
import { nextClientIp } from "./waitlist-service";
import { startWorkerService } from "./worker-service";

export { expect };

/**
 * The servers globalSetup started, by the build they serve: the main build (client-api), the same with its
 * `_headers` applied, the legacy-form build with an ad pixel, and the waitlist build under `wrangler dev`.
 */
export type SiteName = "main" | "withHeaders" | "legacyPixel" | "waitlist";

/**
 * A site's origin, as globalSetup left it in the environment.
 * @throws Error naming the command to use when globalSetup did not run
 */
export function originOf(site: SiteName): string {
  if (site === "withHeaders") return siteOriginWithHeaders();
  if (site === "legacyPixel") return legacyPixelSiteOrigin();
  if (site === "waitlist") return waitlistSite().origin;
  return runEnv().siteOrigin;
}

/** A browser context whose requests to anywhere but 127.0.0.1 (and the console's localhost) are aborted and noted. */
export interface GuardedContext {
  context: BrowserContext;
  /** URLs of the requests that were blocked because they would have left the machine. */
  blocked: string[];
}

/** Options of a further guarded context: a browser context's, and the site its baseURL points at (default: the test's). */
export type GuardedContextOptions = BrowserContextOptions & { site?: SiteName };

/** The provider stand-in's control endpoints (provider-control.ts), as one fixture. */
export interface ProviderControl {
  setMode: typeof setProviderMode;
  /** The signups carrying a value (a test's own e-mail address). */
  requests: typeof providerRequests;
  /** Every signup since the start of the run. */
  all: typeof allProviderRequests;
  /** Waits until a visitor's signups number exactly `count`, and returns them. */
  requestsFrom: typeof requestsFrom;
}

interface BrowserFixtures {
  /** The build the test's pages load from (default "main"); choose with `test.use({ site: "waitlist" })`. */
  site: SiteName;
  /** Requests the test's own `context` aborted because they would have left the machine. */
  blocked: string[];
  /** Another guarded context (a second visitor, JavaScript off, another size), closed after the test. */
  newGuardedContext: (options?: GuardedContextOptions) => Promise<GuardedContext>;
  provider: ProviderControl;
  /** The waitlist build under `wrangler dev`: its origin, its D1 state folder, its output file. */
  waitlist: WaitlistSite;
  /** On failure: the waitlist service's last log lines, attached and kept under the test's output folder. */
  serviceLog: void;
}

/** How many of wrangler's last output lines a failed test keeps. */
const SERVICE_LOG_LINES = 80;
/** How long a failure report waits for a page's text before noting it could not be read (ms). */
const REPORT_READ_MS = 2_000;

/** Abort and record every request that would leave the machine: any host but 127.0.0.1 and the console's (localhost). */
async function guard(context: BrowserContext, blocked: string[]): Promise<void> {
  await context.route("**/*", (route) => {
    const url = route.request().url();
    const { hostname } = new URL(url);
    if (hostname === "127.0.0.1" || isConsoleHost(hostname)) return route.continue();
    blocked.push(url);
    return route.abort("blockedbyclient");
  });
}

/** A context's requests that have been sent and not yet answered or failed, by when each was sent (ms since epoch). */
function watchPending(context: BrowserContext): Map<Request, number> {
  const pending = new Map<Request, number>();
  context.on("request", (request) => pending.set(request, Date.now()));
  context.on("requestfinished", (request) => pending.delete(request));
  context.on("requestfailed", (request) => pending.delete(request));
  return pending;
}

/** After a failed test: attach and print the requests still without an answer (a stalled script leaves a page unhydrated). */
async function reportPending(pending: Map<Request, number>, testInfo: TestInfo, label: string): Promise<void> {
  if (testInfo.status === testInfo.expectedStatus || pending.size === 0) return;
  const now = Date.now();
  const lines = [...pending].map(([request, sentAt]) => `${request.method()} ${request.url()} (waiting ${now - sentAt} ms)`);
  await testInfo.attach(`requests ${label}without an answer`, { body: lines.join("\n"), contentType: "text/plain" });
  console.error(`[requests ${label}without an answer] ${lines.join("; ")}`);
}

/** After a failed test: attach each open page's address and the text of its `main` element (or body), and print a line of it. */
async function reportPages(context: BrowserContext, testInfo: TestInfo, label: string): Promise<void> {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const [index, page] of context.pages().entries()) {
    const main = page.locator("main").first();
    const hasMain = (await main.count().catch(() => 0)) > 0;
    const text = await (hasMain ? main : page.locator("body"))
      .innerText({ timeout: REPORT_READ_MS })
      .catch((error: Error) => `(could not read the page: ${error.message.split("\n")[0]})`);
    const name = `page ${label}${index + 1}`;
    await testInfo.attach(name, {
      body: `${page.url()}\n\n${hasMain ? "main" : "body (no main element)"}:\n${text}`,
      contentType: "text/plain",
    });
    console.error(`[${name}] ${page.url()} showed: ${text.replace(/\s+/g, " ").trim().slice(0, 400)}`);
  }
}

/** How long a worker's waitlist service may take to migrate its D1 and start, on a loaded machine (ms). */
const SERVICE_START_TIMEOUT_MS = 180_000;

export const test = base.extend<BrowserFixtures, { workerService: void }>({
  // Every worker starts its own waitlist service before its first test (worker-service.ts says why).
  workerService: [
    async ({}, use) => {
      const service = await startWorkerService();
      await use();
      await service.stop();
    },
    { scope: "worker", auto: true, timeout: SERVICE_START_TIMEOUT_MS },
  ],
  site: ["main", { option: true }],
  baseURL: async ({ site }, use) => {
    await use(originOf(site));
  },
  blocked: async ({}, use) => {
    await use([]);
  },
  context: async ({ context, blocked, site }, use, testInfo) => {
    await guard(context, blocked);
    const pending = watchPending(context);
    // The service limits signups per CF-Connecting-IP (wrangler passes it through): each test's visitor has its own.
    if (site === "waitlist") await context.setExtraHTTPHeaders({ "cf-connecting-ip": nextClientIp() });
    await use(context);
    await reportPages(context, testInfo, "");
    await reportPending(pending, testInfo, "");
  },
  newGuardedContext: async ({ browser, site, viewport }, use, testInfo) => {
    const made: { context: BrowserContext; pending: Map<Request, number> }[] = [];
    await use(async ({ site: which = site, ...options } = {}) => {
      const extraHTTPHeaders =
        which === "waitlist" ? { "cf-connecting-ip": nextClientIp(), ...options.extraHTTPHeaders } : options.extraHTTPHeaders;
      const context = await browser.newContext({ viewport, baseURL: originOf(which), ...options, extraHTTPHeaders });
      const blocked: string[] = [];
      await guard(context, blocked);
      made.push({ context, pending: watchPending(context) });
      return { context, blocked };
    });
    for (const [index, { context, pending }] of made.entries()) {
      await reportPages(context, testInfo, `of context ${index + 2}, `);
      await reportPending(pending, testInfo, `of context ${index + 2} `);
      await context.close();
    }
  },
  provider: async ({}, use) => {
    await use({ setMode: setProviderMode, requests: providerRequests, all: allProviderRequests, requestsFrom });
  },
  waitlist: async ({}, use) => {
    await use(waitlistSite());
  },
  serviceLog: [
    async ({}, use, testInfo) => {
      await use();
      const file = process.env[WAITLIST_OUTPUT_FILE_VAR];
      if (testInfo.status === testInfo.expectedStatus || !file) return;
      const tail = (await readFile(file, "utf8").catch(() => "")).split("\n").slice(-SERVICE_LOG_LINES).join("\n");
      const kept = testInfo.outputPath("waitlist-service.log");
      await writeFile(kept, tail);
      await testInfo.attach("waitlist-service.log", { path: kept, contentType: "text/plain" });
    },
    { auto: true },
  ],
});

/** Open a path of the built site, e.g. "/success/", and wait for hydration. */
export async function gotoHydrated(page: Page, path: string): Promise<Page> {
  await page.goto(path);
  await waitForHydration(page);
  return page;
}

/** Wait until React has hydrated the page (shared with the bench). */
export { waitForHydration };
