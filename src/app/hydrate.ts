import { startTransition, type ReactElement } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { afterFirstPaint, PAINT_WAIT_LIMIT_MS } from "../lib/afterFirstPaint";
import { markPrerenderedView } from "../lib/pageView";

/**
 * Gatsby's `replaceHydrateFunction`: hydrate only after the first paint (afterFirstPaint). Built
 * pages already start their scripts then; this keeps the rule for `gatsby develop` and cached pages.
 *
 * Hydration runs as a transition so that React yields to input between slices instead of holding
 * the main thread for the whole tree; input on an unhydrated part hydrates it at once and replays.
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
