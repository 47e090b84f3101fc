/**
 * Per-file setup of the browser project: a generous limit per test and hook, since a real browser runs on a busy
 * CI machine and the failed-signup case waits through the whole retry backoff. A safety net, not a timing target.
 */
jest.setTimeout(60_000);
