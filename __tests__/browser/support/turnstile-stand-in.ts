/**
 * A stand-in for Cloudflare Turnstile's script (`/turnstile/v0/api.js?render=explicit`), served on 127.0.0.1 by the
 * provider stand-in, so that a build with a Turnstile site key can be tested without reaching Cloudflare
 * (TURNSTILE_SCRIPT_URL points the build at it). It implements the part of `window.turnstile` the form uses, as
 * Cloudflare's client-side rendering reference describes it: `render` draws a 65 px widget into the container, with
 * the hidden `cf-turnstile-response` field, and hands the `callback` Cloudflare's dummy token, which is what
 * Cloudflare's own test site keys produce; `reset` runs the "check" again; `getResponse` gives the current token.
 * It counts what it was asked to do in `window.__turnstileStandIn`, which tests read like the stand-in's records.
 */

/** Where the provider stand-in serves the script. */
export const TURNSTILE_STAND_IN_PATH = "/turnstile/v0/api.js";

/** The token Cloudflare's test site keys produce (its siteverify accepts it only with a test secret key). */
export const TURNSTILE_DUMMY_TOKEN = "XXXX.DUMMY.TOKEN.XXXX";

/** The heading the stand-in widget shows, so a test can see it was drawn. */
export const TURNSTILE_STAND_IN_LABEL = "Turnstile stand-in";

/** How long the stand-in's "check" takes before the token arrives (ms): a real widget is never instant. */
export const TURNSTILE_STAND_IN_SOLVE_MS = 200;

/** What the stand-in counts (window.__turnstileStandIn). */
export interface TurnstileStandInCounts {
  rendered: number;
  resets: number;
  /** The site key of the last widget drawn. */
  sitekey: string | null;
}

/** The script's text. Plain ES5-style code: it runs in the page as Cloudflare's would. */
export function turnstileStandInScript(): string {
  return `(function () {
  var TOKEN = ${JSON.stringify(TURNSTILE_DUMMY_TOKEN)};
  var counts = { rendered: 0, resets: 0, sitekey: null };
  var widgets = {};
  function solve(widget) {
    setTimeout(function () {
      if (widget.removed) return;
      widget.token = TOKEN;
      widget.field.value = TOKEN;
      if (widget.options.callback) widget.options.callback(TOKEN);
    }, ${TURNSTILE_STAND_IN_SOLVE_MS});
  }
  window.__turnstileStandIn = counts;
  window.turnstile = {
    render: function (container, options) {
      var element = typeof container === "string" ? document.querySelector(container) : container;
      var id = "stand-in-" + (counts.rendered += 1);
      counts.sitekey = options.sitekey;
      var box = document.createElement("div");
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", ${JSON.stringify(TURNSTILE_STAND_IN_LABEL)});
      box.style.height = "65px";
      var field = document.createElement("input");
      field.type = "hidden";
      field.name = options["response-field-name"] || "cf-turnstile-response";
      element.appendChild(box);
      element.appendChild(field);
      var widget = { options: options, field: field, box: box, token: null, removed: false };
      widgets[id] = widget;
      solve(widget);
      return id;
    },
    reset: function (id) {
      var widget = widgets[id];
      if (!widget) return;
      counts.resets += 1;
      widget.token = null;
      widget.field.value = "";
      solve(widget);
    },
    getResponse: function (id) {
      var widget = widgets[id];
      return (widget && widget.token) || undefined;
    },
    remove: function (id) {
      var widget = widgets[id];
      if (!widget) return;
      widget.removed = true;
      widget.box.remove();
      widget.field.remove();
      delete widgets[id];
    }
  };
})();
`;
}
