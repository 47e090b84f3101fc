/**
 * Run something once the prerendered page has been painted, as the browser reports it: any
 * main-thread work before that paint delays it, and waiting a frame only makes that rarer.
 *
 * Self-contained on purpose: the build writes this function's source into every page as the
 * inline loader of Gatsby's scripts (src/build/deferScripts.ts), so it refers to nothing outside it.
 */

/** After this long without a paint report, `run` runs anyway (ms): for browsers that never report the paint. */
export const PAINT_WAIT_LIMIT_MS = 3_000;

/**
 * Calls `run` once, on the first of: a largest-contentful-paint candidate (buffered, so a past
 * paint counts), an existing `first-contentful-paint` entry, the visitor's first input, a hidden
 * page (which never paints), or `limitMs` (ms). Without LCP support it runs after the next frame.
 * Never throws: a browser without PerformanceObserver gets the fallbacks.
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
