/**
 * A stand-in for Meta's pixel, routed by Playwright. Its `fbevents.js` keeps Meta's contract: it drains
 * `fbq.queue` once, then takes calls only through `fbq.callMethod`; each event is an image request to
 * `/tr/`, which the stand-in records.
 */
import type { BrowserContext } from "@playwright/test";
import { META_PIXEL_SCRIPT_URL } from "../../../src/consent/pixel";

/** Meta's event-collection endpoint (images requested by fbevents.js). */
export const META_TRACKING_URL = "https://www.facebook.com/tr/";

/** Hosts of Meta's that a page with the pixel talks to. */
const META_HOSTS = /(^|\.)(facebook\.net|facebook\.com)$/;

/** The stand-in script: what fbevents.js does with the base code's queue and callMethod. */
const FBEVENTS_JS = `(function () {
  var fbq = window.fbq;
  if (!fbq || fbq.callMethod) return;
  var pixelIds = [];
  function handle(command, name) {
    if (command === "init") { pixelIds.push(String(name)); return; }
    if (command !== "track") return;
    pixelIds.forEach(function (id) {
      new Image().src = ${JSON.stringify(META_TRACKING_URL)} + "?id=" + encodeURIComponent(id) + "&ev=" + encodeURIComponent(name);
    });
  }
  var queued = fbq.queue.slice();
  fbq.callMethod = function () { handle.apply(null, arguments); };
  queued.forEach(function (args) { handle.apply(null, args); });
})();`;

/** One event that reached the stand-in's tracking endpoint. */
export interface PixelEvent {
  pixelId: string;
  event: string;
}

/** What the pixel stand-in saw in one browser context. */
export interface MetaPixelStandIn {
  /** Events tracked (Lead, PageView…), in order. */
  events: PixelEvent[];
  /** Every request the pages made to any Meta host (script, tracking, anything else). */
  metaRequests: string[];
}

/**
 * Serve the stand-in fbevents.js and record tracking requests in `context`. Register after
 * newGuardedContext: later routes take precedence over its block-everything-else route.
 */
export async function routeMetaPixel(context: BrowserContext): Promise<MetaPixelStandIn> {
  const standIn: MetaPixelStandIn = { events: [], metaRequests: [] };
  context.on("request", (request) => {
    if (META_HOSTS.test(new URL(request.url()).hostname)) standIn.metaRequests.push(request.url());
  });
  await context.route(META_PIXEL_SCRIPT_URL, (route) =>
    route.fulfill({ status: 200, contentType: "application/javascript", body: FBEVENTS_JS }),
  );
  await context.route(`${META_TRACKING_URL}**`, (route) => {
    const url = new URL(route.request().url());
    standIn.events.push({ pixelId: url.searchParams.get("id") ?? "", event: url.searchParams.get("ev") ?? "" });
    return route.fulfill({ status: 204 });
  });
  return standIn;
}
