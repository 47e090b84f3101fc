/**
 * Retry an assertion until it passes: the page updates asynchronously, and jest's
 * `expect` (unlike Playwright Test's) does not wait.
 */

/** How long `eventually` keeps retrying by default (ms); generous for a busy CI machine. */
export const EVENTUALLY_TIMEOUT_MS = 15_000;
const RETRY_INTERVAL_MS = 50;

/**
 * Run `assertion` until it stops throwing, then return its result.
 * @param timeoutMs ms; then the last failure is rethrown
 */
export async function eventually<T>(assertion: () => Promise<T> | T, timeoutMs = EVENTUALLY_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_INTERVAL_MS));
    }
  }
}
