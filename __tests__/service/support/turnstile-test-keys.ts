/** Cloudflare's published Turnstile test secrets and the dummy token (plain values: workerd and Node both import them). */

/** Cloudflare's published Turnstile test secrets. */
export const TURNSTILE_TEST_SECRETS = {
  passes: "1x0000000000000000000000000000000AA",
  fails: "2x0000000000000000000000000000000AA",
  spent: "3x0000000000000000000000000000000AA",
} as const;

/** What the test site keys' widget hands the page: the dummy token. */
export const TURNSTILE_DUMMY_TOKEN = "XXXX.DUMMY.TOKEN.XXXX";
