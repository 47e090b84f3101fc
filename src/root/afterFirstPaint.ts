/**
 * Run something once the prerendered page has been painted, measured rather than guessed.
 *
 * The page's copy (and so its largest contentful paint, the tagline) is all in the
 * prerendered HTML. Anything that runs on the main thread before that paint delays
 * it: a script that arrives early (a fast connection, a warm cache) and runs before
 * the first frame makes the finished page wait for it. Waiting a frame
 * (requestAnimationFrame, then a timeout) makes that rarer, not impossible; waiting
 * for the browser to report the paint makes it impossible.
 *
 * The function is self-contained on purpose: the build also writes its source, as it
 * stands, into every page as the inline loader of Gatsby's scripts (see
 * src/build/deferScripts.ts), so it must not refer to anything outside its own body.
 */

/**
 * After this long without a paint report, `run` runs anyway (ms). A page whose HTML has
 * been parsed paints within a frame or two; the wait only exists for browsers that never
 * report the paint (no `largest-contentful-paint` support, or a page opened in the background).
 */
export const PAINT_WAIT_LIMIT_MS = 3_000;

/**
 * Calls `run` once, on the first of:
 * - the browser reporting a largest-contentful-paint candidate (PerformanceObserver,
 *   buffered, so a paint that already happened counts at once);
 * - the page having painted already (a `first-contentful-paint` entry exists);
 * - the visitor's first pointer, key, touch or focus;
 * - the page being hidden (nothing is painted for a hidden page, so no paint is ever reported);
 * - `limitMs` passing, the fallback for browsers without LCP reporting; where LCP is not
 *   supported it runs after the next frame instead (the old rule), which is as good as they allow.
 * Never throws: a browser without PerformanceObserver gets the fallbacks.
 * @param run what to do, e.g. hydrate or load the scripts
 * @param limitMs the fallback, in ms (PAINT_WAIT_LIMIT_MS)
 */
export function afterFirstPaint(run: () => void, limitMs: number): void {
  // Input ends the wait at once: a visitor who acts wants the page to answer now.
  const inputs = ["pointerdown", "keydown", "touchstart", "focusin"];
  let done = false;
  let observer: PerformanceObserver | null = null;
  // Set up front: go() also runs before the timer exists, when the page has already painted.
  let timer: ReturnType<typeof setTimeout> | undefined = undefined;
  const go = () => {
    if (done) return;
    done = true;
    if (observer) observer.disconnect();
    clearTimeout(timer);
    inputs.forEach((type) => removeEventListener(type, go, true));
    run();
  };
  const painted = typeof performance.getEntriesByName === "function" && performance.getEntriesByName("first-contentful-paint").length > 0;
  if (document.visibilityState === "hidden" || painted) {
    go();
    return;
  }
  inputs.forEach((type) => addEventListener(type, go, { capture: true, passive: true }));
  timer = setTimeout(go, limitMs);
  // Plain syntax (no `?.`): this text also runs as the inline loader, before any polyfill.
  const Observer = typeof PerformanceObserver === "function" ? PerformanceObserver : null;
  if (Observer && Observer.supportedEntryTypes && Observer.supportedEntryTypes.indexOf("largest-contentful-paint") >= 0) {
    observer = new Observer(go);
    observer.observe({ type: "largest-contentful-paint", buffered: true });
  } else {
    // requestAnimationFrame runs just before the next paint; the timeout after it.
    requestAnimationFrame(() => setTimeout(go, 0));
  }
}
