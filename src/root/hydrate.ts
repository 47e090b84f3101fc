import { startTransition, type ReactElement } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { afterFirstPaint, PAINT_WAIT_LIMIT_MS } from "./afterFirstPaint";
import { markPrerenderedView } from "./pageView";

/**
 * Gatsby's `replaceHydrateFunction`: hydrate only once the browser has painted the
 * prerendered HTML, as measured by afterFirstPaint (a reported largest-contentful-paint
 * candidate, or the visitor's first input). The built pages already start Gatsby's
 * scripts only then (src/build/deferScripts.ts), so in production this finds the paint
 * done and hydrates at once; it keeps the rule where the scripts start any other way
 * (`gatsby develop`, a cached page). Until hydration the page works as plain HTML.
 *
 * Hydration runs as a transition: React then hydrates in slices of a few milliseconds and
 * lets the browser handle input between them, instead of holding the main thread for the
 * whole tree in one task (a root hydrated outside a transition is rendered in one go). The
 * page on screen is the server's HTML meanwhile, so nothing waits for it; a click or key on
 * a part not yet hydrated makes React hydrate that part at once and replay the event.
 */
export function replaceHydrateFunction() {
  return (element: ReactElement, container: Element): void => {
    afterFirstPaint(() => {
      const prerendered = container.hasChildNodes();
      if (prerendered) markPrerenderedView();
      startTransition(() => {
        if (prerendered) hydrateRoot(container, element);
        else createRoot(container).render(element);
      });
    }, PAINT_WAIT_LIMIT_MS);
  };
}
