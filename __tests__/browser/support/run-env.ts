/**
 * The hand-over from globalSetup to the test files: globalSetup runs in jest's main
 * process, before the test workers are started, and passes the servers' addresses on
 * in environment variables, which the workers inherit.
 */

/** Origin of the static server that serves the fixture build. */
export const SITE_ORIGIN_VAR = "BROWSER_TESTS_SITE_ORIGIN";
/** Origin of the provider stand-in (its control endpoints live there too). */
export const PROVIDER_ORIGIN_VAR = "BROWSER_TESTS_PROVIDER_ORIGIN";
/** Origin of a second static server over the same build that also sends the headers of `public/_headers`. */
export const SITE_ORIGIN_WITH_HEADERS_VAR = "BROWSER_TESTS_SITE_ORIGIN_WITH_HEADERS";
/** Origin of the static server over the second build: transport legacy-form, with an ad pixel id. */
export const LEGACY_PIXEL_SITE_ORIGIN_VAR = "BROWSER_TESTS_LEGACY_PIXEL_SITE_ORIGIN";
/** Origin of the static server over the third build: the referral program on (transport waitlist-api). */
export const REFERRALS_SITE_ORIGIN_VAR = "BROWSER_TESTS_REFERRALS_SITE_ORIGIN";

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
      `${SITE_ORIGIN_VAR} / ${PROVIDER_ORIGIN_VAR} are not set: run the browser tests through their jest project (npm run test:browser), whose globalSetup builds and serves the site.`,
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
      `${SITE_ORIGIN_WITH_HEADERS_VAR} is not set: run the browser tests through their jest project (npm run test:browser), whose globalSetup builds and serves the site.`,
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
      `${LEGACY_PIXEL_SITE_ORIGIN_VAR} is not set: run the browser tests through their jest project (npm run test:browser), whose globalSetup builds and serves the site.`,
    );
  }
  return origin;
}

/**
 * Origin of the third fixture build (see global-setup.ts): the referral program on, with the
 * waitlist service's transport; its /api/ answers are routed by each test.
 * @throws Error naming what is missing when globalSetup did not build it
 */
export function referralsSiteOrigin(): string {
  const origin = process.env[REFERRALS_SITE_ORIGIN_VAR];
  if (!origin) {
    throw new Error(
      `${REFERRALS_SITE_ORIGIN_VAR} is not set: run the browser tests through their jest project (npm run test:browser), whose globalSetup builds the referral program's site. It builds it only when the signup code has the waitlist-api transport the program needs.`,
    );
  }
  return origin;
}
