import type { ReactElement } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { afterFirstPaint, PAINT_WAIT_LIMIT_MS } from "./afterFirstPaint";

/**
 * Gatsby's `replaceHydrateFunction`: hydrate only once the browser has painted the
 * prerendered HTML, as measured by afterFirstPaint (a reported largest-contentful-paint
 * candidate, or the visitor's first input). The built pages already start Gatsby's
 * scripts only then (src/build/deferScripts.ts), so in production this finds the paint
 * done and hydrates at once; it keeps the rule where the scripts start any other way
 * (`gatsby develop`, a cached page). Until hydration the page works as plain HTML.
 */
export function replaceHydrateFunction() {
  return (element: ReactElement, container: Element): void => {
    afterFirstPaint(() => {
      if (container.hasChildNodes()) hydrateRoot(container, element);
      else createRoot(container).render(element);
    }, PAINT_WAIT_LIMIT_MS);
  };
}
