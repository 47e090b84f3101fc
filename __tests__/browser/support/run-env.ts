/**
 * globalSetup's hand-over to the test files: the servers' addresses, in environment variables the workers inherit;
 * each worker adds its own waitlist service's (worker-service.ts).
 */

/** Origin of the static server that serves the fixture build. */
export const SITE_ORIGIN_VAR = "BROWSER_TESTS_SITE_ORIGIN";
/** Origin of the provider stand-in (its control endpoints live there too). */
export const PROVIDER_ORIGIN_VAR = "BROWSER_TESTS_PROVIDER_ORIGIN";
/** Origin of a second static server over the same build that also sends the headers of `public/_headers`. */
export const SITE_ORIGIN_WITH_HEADERS_VAR = "BROWSER_TESTS_SITE_ORIGIN_WITH_HEADERS";
/** Origin of the static server over the second build (transport legacy-form, with an ad pixel id), with its `_headers` applied. */
export const LEGACY_PIXEL_SITE_ORIGIN_VAR = "BROWSER_TESTS_LEGACY_PIXEL_SITE_ORIGIN";
/** Origin of `wrangler dev` serving the third build (transport waitlist-api) with the waitlist service. */
export const WAITLIST_SITE_ORIGIN_VAR = "BROWSER_TESTS_WAITLIST_SITE_ORIGIN";
/** That wrangler's local state directory (`--persist-to`), where its D1 database is. */
export const WAITLIST_STATE_DIR_VAR = "BROWSER_TESTS_WAITLIST_STATE_DIR";
/** The file that wrangler's output goes to as it comes, as `npm start` prints it (the Worker's log lines among it). */
export const WAITLIST_OUTPUT_FILE_VAR = "BROWSER_TESTS_WAITLIST_OUTPUT_FILE";

/** The third build's folder, for a test that serves it with a waitlist service of its own (other vars, its own D1). */
export const WAITLIST_ASSETS_DIR_VAR = "BROWSER_TESTS_WAITLIST_ASSETS_DIR";

/**
 * The third build's folder (see WAITLIST_ASSETS_DIR_VAR).
 * @throws Error naming the command to use when globalSetup did not run
 */
export function waitlistAssetsDir(): string {
  const dir = process.env[WAITLIST_ASSETS_DIR_VAR];
  if (!dir) throw new Error(`${WAITLIST_ASSETS_DIR_VAR} is not set: run the browser tests with Playwright Test (npm run test:browser).`);
  return dir;
}

/** Where the servers started by globalSetup listen. */
export interface RunEnv {
  siteOrigin: string;
  providerOrigin: string;
}

/**
 * The servers' origins, as globalSetup left them.
 * @throws Error naming the command to use when the tests were started without the browser project's globalSetup
 */
export function runEnv(): RunEnv {
  const siteOrigin = process.env[SITE_ORIGIN_VAR];
  const providerOrigin = process.env[PROVIDER_ORIGIN_VAR];
  if (!siteOrigin || !providerOrigin) {
    throw new Error(
      `${SITE_ORIGIN_VAR} / ${PROVIDER_ORIGIN_VAR} are not set: run the browser tests with Playwright Test (npm run test:browser), whose globalSetup builds and serves the site.`,
    );
  }
  return { siteOrigin, providerOrigin };
}

/**
 * Origin of the static server that applies `public/_headers` (CSP, HSTS, …) as the
 * static host would; the plain one (runEnv().siteOrigin) sends none of them.
 * @throws Error naming the command to use when globalSetup did not run
 */
export function siteOriginWithHeaders(): string {
  const origin = process.env[SITE_ORIGIN_WITH_HEADERS_VAR];
  if (!origin) {
    throw new Error(
      `${SITE_ORIGIN_WITH_HEADERS_VAR} is not set: run the browser tests with Playwright Test (npm run test:browser), whose globalSetup builds and serves the site.`,
    );
  }
  return origin;
}

/**
 * Origin of the second fixture build (see global-setup.ts): `provider.transport: legacy-form`
 * and `adPixel.id` set, for the legacy-form and pixel tests.
 * @throws Error naming the command to use when globalSetup did not run
 */
export function legacyPixelSiteOrigin(): string {
  const origin = process.env[LEGACY_PIXEL_SITE_ORIGIN_VAR];
  if (!origin) {
    throw new Error(
      `${LEGACY_PIXEL_SITE_ORIGIN_VAR} is not set: run the browser tests with Playwright Test (npm run test:browser), whose globalSetup builds and serves the site.`,
    );
  }
  return origin;
}

/**
 * The waitlist service's KLAVIYO_WEBHOOK_SECRET in the browser tests (each worker's service gets it): the fixture
 * counts referrals after confirmation, and a test plays Klaviyo's flow webhook with it.
 */
export const WAITLIST_WEBHOOK_SECRET = "browser-tests-webhook-secret";

/** The third build, served with the waitlist service by `wrangler dev`. */
export interface WaitlistSite {
  /** e.g. http://127.0.0.1:40125: the site and its /api/ on one origin. */
  origin: string;
  /** The wrangler's `--persist-to` directory, for reading its D1 (scripts/lib/wrangler.ts d1Query). */
  stateDir: string;
  /** wrangler's output so far, in a file (the Worker's log lines among it). */
  outputFile: string;
}

/**
 * Where this worker serves the third build (see global-setup.ts and worker-service.ts): `provider.transport: waitlist-api` with a Turnstile site key,
 * the site and the waitlist service on one origin.
 * @throws Error naming the command to use when the tests were started without Playwright Test's fixtures
 */
export function waitlistSite(): WaitlistSite {
  const origin = process.env[WAITLIST_SITE_ORIGIN_VAR];
  const stateDir = process.env[WAITLIST_STATE_DIR_VAR];
  const outputFile = process.env[WAITLIST_OUTPUT_FILE_VAR];
  if (!origin || !stateDir || !outputFile) {
    throw new Error(
      `${WAITLIST_SITE_ORIGIN_VAR} / ${WAITLIST_STATE_DIR_VAR} / ${WAITLIST_OUTPUT_FILE_VAR} are not set: run the browser tests with Playwright Test (npm run test:browser), whose globalSetup builds the site and whose fixtures start a waitlist service in each worker.`,
    );
  }
  return { origin, stateDir, outputFile };
}
