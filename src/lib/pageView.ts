/**
 * Whether the page on screen is still the prerendered one (not drawn by React after a client-side
 * navigation): while it is, components can leave what the server wrote (its <head>) alone.
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
