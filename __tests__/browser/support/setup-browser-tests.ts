/**
 * Per-file setup of the browser project. A real browser on a busy 2-core CI machine,
 * and the failed-signup case alone waits through ~7 s of retry backoff, so each test
 * (and hook) gets a generous limit. This is a safety net, not a timing target.
 */
jest.setTimeout(60_000);
