/**
 * Whether the page on screen is still the one the server prerendered and the browser hydrated,
 * as opposed to a page React has drawn itself after a client-side navigation (or in `gatsby
 * develop`, which prerenders nothing). A prerendered page already carries everything static the
 * server wrote for it (its <head> above all), so components can leave that alone while it lasts.
 */
import type { GatsbyBrowser } from "gatsby";

let prerenderedView = false;

/** Called by the hydration function (hydrate.ts) when it hydrates prerendered HTML. */
export function markPrerenderedView(): void {
  prerenderedView = true;
}

/** True from hydration of a prerendered page until the visitor's first client-side navigation; false on the server. */
export function isPrerenderedView(): boolean {
  return prerenderedView;
}

/** Gatsby's `onPreRouteUpdate` (gatsby-browser.tsx): it runs before the next page renders, so that page is drawn in full. */
export const onPreRouteUpdate: GatsbyBrowser["onPreRouteUpdate"] = ({ prevLocation }) => {
  if (prevLocation) prerenderedView = false;
};
