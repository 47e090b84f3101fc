import type { ReactElement } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";

/**
 * Gatsby's `replaceHydrateFunction`: hydrate only after the browser has painted
 * the prerendered HTML once. The page's copy (and so its LCP) is all in that HTML;
 * without this, on a fast connection the scripts arrive before the first frame and
 * hydration holds the main thread while the finished page waits to be drawn
 * (issue 5: mobile LCP at most 1.25× the no-JavaScript floor). Interactivity comes
 * one frame later, which nobody can notice.
 */
export function replaceHydrateFunction() {
  return (element: ReactElement, container: Element): void => {
    // requestAnimationFrame runs just before the next paint; the timeout after it.
    requestAnimationFrame(() => {
      setTimeout(() => {
        if (container.hasChildNodes()) hydrateRoot(container, element);
        else createRoot(container).render(element);
      }, 0);
    });
  };
}
