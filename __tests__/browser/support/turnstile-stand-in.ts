/**
 * A stand-in for Turnstile's script, served by the provider stand-in: the part of `window.turnstile` the form
 * uses, as Cloudflare's rendering reference describes it, handing out the dummy token Cloudflare's test site
 * keys produce. It counts its calls in `window.__turnstileStandIn` for tests to read.
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
