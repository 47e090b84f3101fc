/**
 * The content model, declared once: every derived artefact (types, validation, JSON Schema, GraphQL,
 * the web editor's form) comes from it. Every `description` is written for an editor and every
 * field has an example, which error messages quote as the fix.
 * Build-time only: no page or component imports src/content/, so zod never reaches the browser.
 */
import { z } from "zod";
import { COUNT_AFTER, REFERRALS_TRANSPORT, runsReferralProgram } from "../../shared/referral-program";
import { CUSTOM_SOURCE_MAX_CHARS } from "../../shared/validation";
import { QUICKNET } from "../../shared/giveaway/chains";
import { DRAW_ID_PATTERN } from "../../shared/giveaway/draw-file";
import {
  CLIENT_API_ENDPOINT_URL,
  DEFAULT_SIGNUP_TRANSPORT,
  LEGACY_FORM_ENDPOINT_URL,
  NO_SCRIPT_FORM_URL,
  SIGNUP_TRANSPORTS,
} from "../signup/endpoints";
import { SIGNUPS_ENDPOINT } from "../../shared/contract";
import { DEFAULT_LAUNCH } from "../../shared/service-settings";

/** Klaviyo public API keys (a.k.a. site ids) are six letters or digits. */
export const KLAVIYO_PUBLIC_KEY_PATTERN = /^[A-Za-z0-9]{6}$/;
/** Klaviyo list ids are six letters or digits (as seen in the list's settings URL). */
export const KLAVIYO_LIST_ID_PATTERN = /^[A-Za-z0-9]{6}$/;
/** Klaviyo private API keys start with `pk_`; they must never be published. */
export const PRIVATE_KEY_PATTERN = /^\s*pk_/i;
/**
 * Cloudflare Turnstile site keys: a digit, `x`, then letters, digits, `-` or `_` (24 characters in all,
 * e.g. `0x4AAAAAAADnPIDROrmt1Wwj`, or the published test key `1x00000000000000000000AA`; a little
 * room is left either side in case Cloudflare changes the length).
 */
export const TURNSTILE_SITE_KEY_PATTERN = /^\dx[\w-]{20,30}$/;
/** Turnstile secret keys have the same start but are longer (35 characters); one must never be published. */
export const TURNSTILE_SECRET_KEY_PATTERN = /^\dx[\w-]{31,}$/;
/** Hosts that serve Discord invites (`discord.gg/CODE`, `discord.com/invite/CODE`). */
export const DISCORD_INVITE_HOSTS = ["discord.gg", "discord.com", "www.discord.com", "discordapp.com", "www.discordapp.com"];
/**
 * ISO 8601 date-time with an explicit offset or `Z` (the launch moment).
 * A bare date, or a time without an offset, would mean a different moment for
 * visitors in different time zones, so it is refused.
 */
export const DATE_TIME_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
/**
 * The same form for editor tooling (JSON Schema, the web editor), narrowed to real
 * month, day, hour and minute numbers; only check-content knows the calendar (30 February).
 */
export const DATE_TIME_WITH_OFFSET_FORM =
  "^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$";
/** Text with at least one character that is not a space (editor tooling's form of "non-empty after trimming"). */
const NOT_BLANK = "\\S";
const NOT_BLANK_MESSAGE = "This text is empty. Every text shown on the page needs words.";

const PRIVATE_KEY_MESSAGE =
  "This looks like a Klaviyo PRIVATE API key (it starts with pk_). Everything in this file is published to every visitor, so a private key here would let anyone control your Klaviyo account. Use the 6-character PUBLIC API key (Klaviyo: Settings → API keys → Public API key / Site ID), and revoke this private key in Klaviyo.";

const TURNSTILE_SITE_KEY_MESSAGE =
  "A Turnstile site key looks like 0x4AAAAAAADnPIDROrmt1Wwj: a digit, an x, then about 22 letters or digits, with no spaces (Cloudflare dashboard → Turnstile → your widget → Site key).";
const TURNSTILE_SECRET_KEY_MESSAGE =
  "This looks like the Turnstile SECRET key (it is longer than a site key). Everything in this file is published to every visitor, so anyone could use it. Use the SITE key (Cloudflare dashboard → Turnstile → your widget → Site key), and rotate this secret key in Cloudflare.";
const TURNSTILE_WITHOUT_SERVICE_MESSAGE =
  "Turnstile works only with transport: waitlist-api, because our waitlist service is what checks each visitor's Turnstile answer; Klaviyo does not. Remove turnstileSiteKey, or set transport: waitlist-api.";
const SERVICE_LIST_MESSAGE =
  "The waitlist service needs listId: it subscribes every signup to that Klaviyo list. Add it, or set demoMode: true to publish a demo that collects nothing.";
/** A Klaviyo address set while the service is chosen. */
const SERVICE_ADDRESS_MESSAGE = (key: string) =>
  `With transport: waitlist-api the form always sends signups to our own service at ${SIGNUPS_ENDPOINT} on the site's own address, with and without JavaScript, so ${key} is not used. Remove it.`;

/** A piece of copy shown to visitors: non-empty after trimming, and at most `maxChars` characters when given. */
function copy(description: string, example: string, maxChars?: { chars: number; message: string }) {
  const text = z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? "This text is missing."
          : issue.input === null
            ? "This field has no text after its colon. Write the text, or put it in quotes."
            : "This should be text. Put it in quotes.",
    })
    .trim()
    .min(1, { error: NOT_BLANK_MESSAGE });
  // Metadata last: zod keeps it per schema instance, and every check makes a new one.
  return (maxChars ? text.max(maxChars.chars, { error: maxChars.message }) : text).meta({
    description,
    examples: [example],
    pattern: NOT_BLANK,
    patternErrorMessage: NOT_BLANK_MESSAGE,
  });
}

/** Why a custom source is refused when it is too long (the waitlist service keeps no longer). */
const SOURCE_TOO_LONG = {
  chars: CUSTOM_SOURCE_MAX_CHARS,
  message: `A source has at most ${CUSTOM_SOURCE_MAX_CHARS} characters; the waitlist service would refuse every signup with a longer one. Use a short name, like the ad campaign's.`,
};

/**
 * Copy that runs to a sentence or more: the web editor gives it a text area instead of a
 * one-line box (`x-multiline`, an annotation editor tooling ignores).
 */
function longCopy(description: string, example: string) {
  return copy(description, example).meta({ "x-multiline": true });
}

/**
 * A setting only a developer changes, because it decides where invitation codes go or how the giveaway draw is
 * decided: the product's sign-up page, the drand chain and relay, the draw's rules. Marked `x-developer-only` (an
 * annotation editor tooling ignores), which keeps it out of the web editor's form (cms-config.ts) while a save keeps
 * its value; `npm run deploy` holds the deployed values (PRODUCT_SIGNUP_ORIGIN, a confirmed change).
 */
function developerOnly<T extends z.ZodType>(schema: T): T {
  return schema.meta({ "x-developer-only": true });
}

/** Is `value` a complete https URL? Returns the reason it is not (javascript:, http:, not a URL), or null. */
function urlProblem(value: string): string | null {
  if (/^\s*javascript:/i.test(value)) {
    return "A javascript: link runs code instead of opening a page, so it is never allowed. Use a web address starting with https://.";
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "This is not a complete web address. It must start with https:// followed by the site name.";
  }
  if (url.protocol === "http:") return "This address starts with http://, which is not encrypted. Use https:// instead.";
  if (url.protocol !== "https:") return "This address must start with https://.";
  return null;
}

/** An absolute https URL (never `javascript:`, never plain http). */
function httpsUrl(description: string, example: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? "This web address is missing." : "This should be a web address in quotes.") })
    .trim()
    .superRefine((value, ctx) => {
      const problem = urlProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .meta({
      description,
      examples: [example],
      format: "uri",
      pattern: "^https://\\S+$",
      patternErrorMessage: "This must be a complete web address starting with https:// (never http:// or javascript:).",
    });
}

/**
 * Where the firm's product takes new members: an https address that gets `?invite=<token>` added, or empty while
 * there is none (our own /invite/ page stands in for it).
 */
const productSignupUrl = z
  .string({ error: "This should be a web address in quotes, or empty quotes." })
  .trim()
  .superRefine((value, ctx) => {
    const problem = value === "" ? null : urlProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .meta({
    description:
      "The product's sign-up page an invitation leads to: each invited person's link is this address with ?invite=<their code> added, and the product checks the code in with our service. Leave it empty (\"\") until the product exists: the links then lead to this site's own /invite/ page.",
    examples: ["https://app.example.com/join"],
    pattern: "^(https://\\S+)?$",
    patternErrorMessage: "This must be empty or a complete web address starting with https://.",
  });

/** An https Discord invite link: JOIN DISCORD opens the community's invite, not a channel or another chat (product rule 3). */
function discordInvite(description: string, example: string) {
  return httpsUrl(description, example)
    .superRefine((value, ctx) => {
      if (urlProblem(value)) return;
      const url = new URL(value);
      const host = url.hostname.toLowerCase();
      const isInvite =
        DISCORD_INVITE_HOSTS.includes(host) && (host === "discord.gg" ? url.pathname.length > 1 : /^\/invite\/[^/]+/.test(url.pathname));
      if (!isInvite) {
        ctx.addIssue({
          code: "custom",
          message: DISCORD_INVITE_MESSAGE,
        });
      }
    })
    .meta({ pattern: DISCORD_INVITE_FORM, patternErrorMessage: DISCORD_INVITE_MESSAGE });
}

const DISCORD_INVITE_MESSAGE =
  "This is not a Discord invite link. Invite links look like https://discord.gg/CODE or https://discord.com/invite/CODE (Discord: Server → Invite People → Copy).";
/** DISCORD_INVITE_HOSTS as one pattern for editor tooling: discord.gg/CODE, or …/invite/CODE on the other hosts. */
const DISCORD_INVITE_FORM = "^https://(discord\\.gg/[^/\\s]+|(www\\.)?(discord|discordapp)\\.com/invite/[^/\\s]+)/?$";

/** A site-relative path to a file in `static/`. */
function staticPath(description: string, example: string) {
  const message = "This must be the path of a file in the static folder, starting with a slash, like /logo.svg.";
  return z
    .string()
    .trim()
    .regex(/^\/[^\s]+$/, { error: message })
    .meta({ description, examples: [example], patternErrorMessage: message });
}

/** A Klaviyo-format identifier that must not be a private key. */
function klaviyoId(description: string, example: string, pattern: RegExp, what: string) {
  return z
    .string({
      error: (issue) =>
        typeof issue.input === "number"
          ? "Put this value in quotes so it is read as text, not as a number."
          : "This should be text in quotes.",
    })
    .trim()
    .superRefine((value, ctx) => {
      if (PRIVATE_KEY_PATTERN.test(value)) ctx.addIssue({ code: "custom", message: PRIVATE_KEY_MESSAGE });
      else if (!pattern.test(value))
        ctx.addIssue({ code: "custom", message: `A Klaviyo ${what} is exactly 6 letters or digits, with no spaces.` });
    })
    .meta({
      description,
      examples: [example],
      // Also refuses a private key (pk_…): the underscore is neither a letter nor a digit.
      pattern: pattern.source,
      patternErrorMessage: `A Klaviyo ${what} is exactly 6 letters or digits, with no spaces. Never a private key (pk_…): this file is published.`,
    });
}

/** One input box of the signup form (`what` names it for editors, e.g. "email"). */
function field(what: string, labelExample: string, placeholderExample: string) {
  return z
    .strictObject({
      label: copy(`The label above the ${what} input box.`, labelExample),
      placeholder: copy(`The grey hint inside the empty ${what} input box.`, placeholderExample),
    })
    .meta({ description: `The ${what} input box of the signup form.` });
}

/** A pop-up message (toast): a bold title and a second line. */
function toast(when: string, titleExample: string, messageExample: string) {
  return z
    .strictObject({
      title: copy(`The bold first line of the pop-up shown ${when}.`, titleExample),
      message: copy(`The second line of the pop-up shown ${when}.`, messageExample),
    })
    .meta({ description: `The pop-up message shown ${when}.` });
}

/** A trust badge under the form, with a tooltip. */
function badge(what: string, labelExample: string, tooltipExample: string) {
  return z
    .strictObject({
      label: copy(`The ${what} badge's text under the form.`, labelExample),
      tooltip: longCopy(`One sentence shown when a visitor hovers over or focuses the ${what} badge.`, tooltipExample),
    })
    .meta({ description: `The ${what} badge under the form.` });
}

/**
 * Copy that must keep a placeholder the page fills in (`{position}`, `{link}`): without it the
 * visitor would never see the number or the link the text is about.
 * @param becomes for the editor's message, e.g. "the visitor's referral link"
 */
function copyWithPlaceholder(placeholder: string, becomes: string, description: string, example: string) {
  const message = `Keep ${placeholder} in this text: it is replaced by ${becomes}.`;
  return copy(description, example)
    .refine((value) => value.includes(placeholder), { error: message })
    .meta({
      description,
      examples: [example],
      pattern: placeholder.replace(/[{}]/g, "\\$&"),
      patternErrorMessage: `${message} The text may not be empty either.`,
    });
}

/**
 * A whole number an editor sets (a count, a size), at least `min` and at most `max`.
 * @param example the value quoted in messages and the editor's hint
 */
function wholeNumber(description: string, example: number, min: number, max?: number) {
  const range = max === undefined ? `of ${min} or more` : `from ${min} to ${max}`;
  const message = `Write a whole number ${range}, without quotes, like ${example}.`;
  const number = z
    .number({
      error: (issue) => (typeof issue.input === "string" ? `Write the number without quotes, like ${example}.` : message),
    })
    .int({ error: message })
    .min(min, { error: message });
  return (max === undefined ? number : number.max(max, { error: message })).meta({ description, examples: [example] });
}

/**
 * Lower-case hex of a fixed length (a drand chain hash or key): settings a developer copies from drand's documentation.
 * @param chars how many hex characters
 */
function hexText(description: string, example: string, chars: number) {
  const message = `Write exactly ${chars} hex characters (0-9 and a-f, lower case), as drand publishes them.`;
  const pattern = `^[0-9a-f]{${chars}}$`;
  return z
    .string({ error: message })
    .trim()
    .regex(new RegExp(pattern), { error: message })
    .meta({ description, examples: [example], pattern, patternErrorMessage: message });
}

const DRAW_ID_MESSAGE = "Write the draw's id in lower-case letters, digits and -, starting with a letter, like launch.";
/** The content's example of a draw's delay, hours: a day to commit the draw after entries close. */
const DRAW_ROUND_DELAY_HOURS_EXAMPLE = 24;
/** The longest delay an editor may set, hours: thirty days. */
const DRAW_ROUND_DELAY_HOURS_MAX = 720;

/** The draw's cut-off: a moment with its offset, like the launch moment. */
const drawCutoff = z
  .string({ error: 'Put the cut-off in quotes, like "2026-12-01T00:00:00Z".' })
  .trim()
  .refine((value) => DATE_TIME_WITH_OFFSET.test(value) && !Number.isNaN(Date.parse(value)), {
    error: "Write the cut-off as the date, T, the time and the time-zone offset, like 2026-12-01T00:00:00Z (Z for UTC).",
  })
  .meta({
    description:
      "When entries close, fixed before they do: who had confirmed by then, with the referrals credited by then, is in the draw. Date, T, time and time-zone offset.",
    examples: ["2026-12-01T00:00:00Z"],
    pattern: DATE_TIME_WITH_OFFSET_FORM,
    patternErrorMessage: "Write the date, T, the time and the time-zone offset, like 2026-12-01T00:00:00Z (Z for UTC).",
  });

const launchMoment = z
  .string({
    error: (issue) =>
      issue.input === undefined ? "The launch moment is missing." : 'Put the launch moment in quotes, like "2025-10-13T15:00:00-08:00".',
  })
  .trim()
  .superRefine((value, ctx) => {
    const m = DATE_TIME_WITH_OFFSET.exec(value);
    if (!m) {
      const message = /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? "This is a date without a time. Add the time and the time-zone offset, like 2025-10-13T15:00:00-08:00."
        : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)
          ? "This time has no time-zone offset, so the countdown would be wrong for visitors in other time zones. Add the offset at the end, like -08:00 for Pacific time or Z for UTC."
          : /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(value)
            ? "Write a T between the date and the time, with no space, and end with the time-zone offset, like 2025-10-13T15:00:00-08:00."
            : "This is not a date and time in the expected form YYYY-MM-DDTHH:MM:SS±HH:MM.";
      ctx.addIssue({ code: "custom", message });
      return;
    }
    const [y, mo, d, h, mi, s] = m.slice(1, 7).map((part) => Number(part ?? 0));
    const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
    const real = date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h < 24 && mi < 60 && s < 60;
    if (!real)
      ctx.addIssue({ code: "custom", message: "This date or time does not exist in the calendar (check the month, day and hour)." });
  })
  .meta({
    description:
      "The moment the site launches; the countdown runs to it. Date, T, time and time-zone offset: -08:00 is 8 hours behind UTC (Pacific standard time), Z is UTC.",
    examples: ["2025-10-13T15:00:00-08:00"],
    pattern: DATE_TIME_WITH_OFFSET_FORM,
    patternErrorMessage: "Write the date, T, the time and the time-zone offset, like 2025-10-13T15:00:00-08:00 (Z for UTC).",
  });

/** A flag or hold the console names and explains to the operator (keyed by the word the Worker writes). */
function consoleMark(what: string, nameExample: string, explanationExample: string) {
  return z
    .strictObject({
      name: copy(`The console's short name for ${what}.`, nameExample),
      explanation: longCopy(`One sentence telling the operator what ${what} means and what to check.`, explanationExample),
    })
    .meta({ description: `How the operator's console names and explains ${what}.` });
}

/** A table's caption and its empty state. */
function consoleTable(what: string, captionExample: string, emptyExample: string) {
  return {
    caption: copy(`The caption of the table of ${what} (screen readers announce the table by it).`, captionExample),
    empty: copy(`Shown instead of the table of ${what} when there is none.`, emptyExample),
  };
}

/** The operator's console (/console/): every word an operator reads there. Never shown to visitors. */
const consoleSection = z
  .strictObject({
    pageTitle: copy("The browser tab title of the operator's console.", "Operator console | PickFund"),
    heading: copy("The heading of the operator's console.", "Operator console"),
    noScript: longCopy(
      "Shown on the console when the operator's browser runs no JavaScript (the console needs it).",
      "The console needs JavaScript. Turn it on and reload the page.",
    ),
    loading: copy("Shown (and read by screen readers) while the console loads or waits for an answer.", "Loading…"),
    signedInAs: copyWithPlaceholder(
      "{operator}",
      "the signed-in operator's e-mail address",
      "The line at the top saying who is signed in (through Cloudflare Access). {operator} becomes their e-mail address.",
      "Signed in as {operator}",
    ),
    localOperator: copyWithPlaceholder(
      "{operator}",
      "the local operator's name",
      "The banner on a local run (npm start), where an operator is signed in without Cloudflare Access. {operator} becomes the local operator's name.",
      "Local run: you are signed in as {operator} without Cloudflare Access. The deployed site always asks Access.",
    ),
    viewerNote: longCopy(
      "The note at the top for someone with the viewer role: they see everything but no action, export or draw button.",
      "You have the viewer role: you can look, not act. Ask whoever runs the site for the operator role to take actions, export a person's data or commit a draw.",
    ),
    navigation: z
      .strictObject({
        label: copy("What screen readers call the console's menu.", "Console sections"),
        dashboard: copy("The menu entry of the dashboard.", "Dashboard"),
        search: copy("The menu entry of the search for a person.", "Find a person"),
        review: copy("The menu entry of the review queue.", "Review queue"),
        audit: copy("The menu entry of the audit log.", "Audit log"),
        draw: copy("The menu entry of the giveaway draw's commitment.", "Giveaway draw"),
        launch: copy("The menu entry of launch day's screen.", "Launch"),
      })
      .meta({ description: "The console's menu of its six screens." }),
    none: copy("Shown in a table cell or a field that has no value (no confirmation yet, no flags).", "None"),
    retry: copy("The button that asks the service again after an error.", "Try again"),
    errors: z
      .strictObject({
        accessTokenMissing: longCopy(
          "Shown when the console's request came without Cloudflare Access's sign-in (the page was reached around Access).",
          "You are not signed in through Cloudflare Access. Open the console at the site's own address and sign in.",
        ),
        accessTokenInvalid: longCopy(
          "Shown when Cloudflare Access's sign-in did not check out (expired, or signed by another key).",
          "Your Cloudflare Access sign-in has expired or could not be checked. Reload the page to sign in again.",
        ),
        accessDenied: longCopy(
          "Shown when the sign-in is for another Access application, or carries no identity.",
          "Your Cloudflare Access sign-in is not for this console. Ask whoever runs the site to give you access.",
        ),
        notConfigured: longCopy(
          "Shown when the deployed service has no Cloudflare Access settings (or a team domain that is not https://), so it lets nobody in.",
          'The console is not set up yet: the service has no Cloudflare Access settings (an https:// team domain and the AUD tag). See "Who gets in" in docs/operators.md.',
        ),
        personNotFound: copy(
          "Shown when the person asked for is not there (erased, or never there).",
          "This person is not on the list (erased, or never there).",
        ),
        reasonInvalid: copy(
          "Shown when the service refused the reason given for an action.",
          "The service refused the reason. Write a shorter one in plain words.",
        ),
        parameterInvalid: copy(
          "Shown when the service refused what the console asked for (a range, a search).",
          "The service did not understand this request.",
        ),
        actionNotApplicable: longCopy(
          "Shown when an action does not apply to the person as they are now (for example, requalifying someone not disqualified).",
          "That does not apply to this person as they are now. Reload their page to see their current state.",
        ),
        operatorRoleRequired: longCopy(
          "Shown when someone with the viewer role asked for what only an operator may do (an action, an export, the draw).",
          "Only an operator may do this, and your Cloudflare Access sign-in has the viewer role.",
        ),
        unavailable: longCopy(
          "Shown when the console's service could not be reached or failed, whatever the reason.",
          "The console's service can't be reached right now. Check your connection and try again.",
        ),
      })
      .meta({
        description:
          "What the console says when its service answers with an error, one message per kind of error. The service's own text is never shown.",
      }),
    ranges: z
      .strictObject({
        label: copy("What screen readers call the dashboard's choice of range.", "Range"),
        last7Days: copy("The range of the last 7 days (today included).", "Last 7 days"),
        last30Days: copy("The range of the last 30 days (today included).", "Last 30 days"),
        all: copy("The range of everything since the first signup.", "Everything"),
      })
      .meta({ description: "The dashboard's ranges." }),
    dashboard: z
      .strictObject({
        heading: copy("The heading of the dashboard.", "Dashboard"),
        daysIn: copyWithPlaceholder(
          "{timeZone}",
          "the time zone the days are counted in",
          "The note saying which time zone the dashboard's days are in. {timeZone} becomes its name.",
          "Days in {timeZone}",
        ),
        signups: z
          .strictObject({
            heading: copy("The heading of the signups-per-day chart.", "Signups per day"),
            chartLabel: copy(
              "What screen readers say for the chart (its numbers are in the table below it).",
              "Chart of signups per day, stacked by source; the table below holds the same numbers.",
            ),
            ...consoleTable("signups per day and source", "Signups per day, by source", "No signups in this range yet."),
            dayColumn: copy("The heading of the table's column of days.", "Day"),
            totalColumn: copy("The heading of the table's column of each day's total.", "Total"),
            noSource: copy("The name of signups recorded without a source.", "No source"),
          })
          .meta({ description: "Signups per day, stacked by source (the site and each campaign page): a chart and its table." }),
        utm: z
          .strictObject({
            heading: copy("The heading of the top UTM values.", "Top UTM sources and campaigns"),
            sourcesCaption: copy("The caption of the table of utm_source values.", "UTM sources"),
            campaignsCaption: copy("The caption of the table of utm_campaign values.", "UTM campaigns"),
            valueColumn: copy("The heading of the column of values.", "Value"),
            signupsColumn: copy("The heading of the column of signups.", "Signups"),
            empty: copy("Shown instead of a table when no signup in the range had that UTM value.", "None in this range."),
            otherValues: copy("The table's last row: the signups that came with any value not listed above.", "All other values"),
          })
          .meta({ description: "The most common utm_source and utm_campaign values in the range." }),
        funnel: z
          .strictObject({
            heading: copy("The heading of the funnel.", "Funnel"),
            caption: copy("The caption of the funnel's table.", "From signup to counted referral"),
            stepColumn: copy("The heading of the column of steps.", "Step"),
            peopleColumn: copy("The heading of the column of people at each step.", "People"),
            shareColumn: copy("The heading of the column of each step's share of the step before.", "Share of the step before"),
            signedUp: copy("The funnel's first step.", "Signed up"),
            confirmed: copy("The step of people who confirmed their address.", "Confirmed"),
            referred: copy("The step of people who came through a referral link.", "Came through a referral link"),
            referralCounted: copy("The step of people whose referral counted for their referrer.", "Referral counted"),
            invited: copy("The step of invitations made on launch day in the range.", "Invited"),
            accepted: copy("The step of invitations accepted in the range.", "Accepted their invitation"),
            viralCoefficient: copy(
              "The label of the viral coefficient: counted referrals per person who signed up.",
              "Viral coefficient (counted referrals per signup)",
            ),
          })
          .meta({ description: "The funnel: signed up, confirmed, came through a referral link, referral counted." }),
        delivery: z
          .strictObject({
            heading: copy("The heading of delivery health.", "Delivery to Klaviyo"),
            caption: copy("The caption of the delivery table (over everyone, not the range).", "Signups by delivery state, over everyone"),
            stateColumn: copy("The heading of the column of delivery states.", "State"),
            countColumn: copy("The heading of the column of counts.", "Signups"),
            oldestPending: copy("The label of the age of the oldest signup still waiting for delivery.", "Oldest pending signup"),
            deadLettered: copy("The label of the number of messages that reached the dead-letter queue.", "Dead-lettered messages"),
            erasuresRefused: copy(
              "The label of the number of erased people whose Klaviyo deletion Klaviyo refused (check the key's data-privacy scope).",
              "Klaviyo deletions refused",
            ),
            erasuresOverdue: copy(
              "The label of the number of erased people whose Klaviyo deletion is over a day late.",
              "Klaviyo deletions overdue",
            ),
          })
          .meta({
            description:
              "Delivery health: how many signups are in each delivery state, the oldest pending one's age, dead-lettered messages.",
          }),
        topReferrers: z
          .strictObject({
            heading: copy("The heading of the top referrers.", "Top referrers"),
            ...consoleTable(
              "top referrers",
              "The people with the most referrals, with their flags",
              "Nobody has referred anyone in this range.",
            ),
            nameColumn: copy("The heading of the column of names.", "Name"),
            codeColumn: copy("The heading of the column of referral codes.", "Referral code"),
            referralsColumn: copy("The heading of the column of referral counts.", "Referrals"),
            flagsColumn: copy("The heading of the column of flags.", "Flags"),
          })
          .meta({ description: "The top referrers, with their flags." }),
      })
      .meta({ description: "The dashboard, the console's first screen." }),
    deliveryStates: z
      .strictObject({
        pending: copy("The name of the delivery state of a signup not delivered yet.", "Pending"),
        delivered: copy("The name of the delivery state of a signup Klaviyo took.", "Delivered"),
        refused: copy("The name of the delivery state of a signup Klaviyo refused.", "Refused"),
        demo: copy("The name of the delivery state of a signup stored without a Klaviyo key (nothing sent).", "Demo"),
      })
      .meta({ description: "The names of the delivery states." }),
    flags: z
      .strictObject({
        sameIpAsReferrer: consoleMark(
          "the flag of a friend who signed up from the referrer's own network",
          "Same network as the referrer",
          "The friend signed up from the referrer's own network: a household, or one person with two addresses.",
        ),
        sameIpAsOtherReferral: consoleMark(
          "the flag of a friend who signed up from an earlier friend's network",
          "Same network as another friend",
          "The friend signed up from the network of an earlier friend of the same referrer.",
        ),
        domainCluster: consoleMark(
          "the flag of a referrer with several friends on one private domain",
          "Many friends on one domain",
          "Several friends of this referrer use one domain that is not a public e-mail provider: a team, or a catch-all domain.",
        ),
        burst: consoleMark(
          "the flag of a referrer whose friends arrived in a burst",
          "Burst of friends",
          "This referrer's friends arrived within minutes of each other, faster than people share by hand.",
        ),
      })
      .meta({ description: "How the console names and explains each fair-play flag." }),
    holds: z
      .strictObject({
        codeLimit: consoleMark(
          "a referral held because its code brought too many signups within an hour",
          "Held: code limit",
          "This referral code brought more referred signups within an hour than its limit; the referral counts once approved.",
        ),
        domainLimit: consoleMark(
          "a referral held because its address domain brought too many signups within an hour",
          "Held: domain limit",
          "This address's domain brought more referred signups within an hour than its limit; the referral counts once approved.",
        ),
      })
      .meta({ description: "How the console names and explains each reason a referral is held for review." }),
    search: z
      .strictObject({
        heading: copy("The heading of the search for a person.", "Find a person"),
        label: copy("The label of the search box.", "Address or referral code"),
        help: copy("The hint under the search box.", "Any spelling of the address finds the person."),
        submit: copy("The search button.", "Search"),
        invalid: copy(
          "Shown when what was typed is neither an address nor a referral code (the service searches by whole ones only).",
          "Type a whole address (with its @) or a referral code.",
        ),
        ...consoleTable("people found", "People found", "Nobody matches."),
      })
      .meta({ description: "The search for a person, by address or referral code." }),
    people: z
      .strictObject({
        nameColumn: copy("The heading of a table's column of names.", "Name"),
        emailColumn: copy("The heading of a table's column of addresses.", "Address"),
        codeColumn: copy("The heading of a table's column of referral codes.", "Referral code"),
        signedUpColumn: copy("The heading of a table's column of signup times.", "Signed up"),
        stateColumn: copy("The heading of a table's column of a person's standing (confirmed, disqualified, flags).", "Standing"),
        confirmed: copy("A person's standing once they confirmed their address.", "Confirmed"),
        notConfirmed: copy("A person's standing before they confirmed their address.", "Not confirmed"),
        disqualified: copy("A disqualified person's standing.", "Disqualified"),
        open: copy("What screen readers add to a person's name link, which opens their page.", "Open"),
      })
      .meta({ description: "The columns of every table of people (search results, the review queue)." }),
    person: z
      .strictObject({
        back: copy("The link back from a person's page to where the operator came from.", "Back"),
        detailsHeading: copy("The heading of a person's details.", "Details"),
        email: copy("The label of the person's address.", "Address"),
        referralCode: copy("The label of the person's referral code.", "Referral code"),
        source: copy("The label of the page they signed up on (its custom source).", "Source"),
        properties: copy("The label of the UTM and attribution values they came with.", "UTM and attribution"),
        createdAt: copy("The label of the signup time.", "Signed up"),
        confirmedAt: copy("The label of the confirmation time.", "Confirmed"),
        disqualifiedAt: copy("The label of the disqualification time.", "Disqualified"),
        reviewedAt: copy("The label of the time they were reviewed and found fair.", "Reviewed"),
        deliveryState: copy("The label of the delivery state.", "Delivery"),
        deliveryAttempts: copy("The label of the number of delivery attempts.", "Delivery attempts"),
        deliveryError: copy("The label of the last delivery error.", "Last delivery error"),
        deliveredAt: copy("The label of the delivery time.", "Delivered"),
        position: copy("The label of the place in line.", "Place in line"),
        referrals: copy("The label of the number of counted referrals.", "Referrals"),
        entries: copy("The label of the number of giveaway entries.", "Giveaway entries"),
        referredBy: copy("The label of the person who referred them.", "Referred by"),
        flags: copy("The label of the person's fair-play flags.", "Flags"),
        hold: copy("The label of why their referral is held for review.", "Referral held"),
        referredHeading: copy("The heading of the people they referred.", "People they referred"),
        referredCaption: copyWithPlaceholder(
          "{total}",
          "how many people they referred in all",
          "The caption of the table of people they referred. {shown} becomes how many the table shows and {total} how many there are.",
          "People they referred ({shown} of {total} shown)",
        ),
        referredEmpty: copy("Shown when they referred nobody.", "They have not referred anyone."),
        counted: copy("The column of whether each referral counted for them.", "Counted"),
        countedYes: copy("A referral that counted.", "Yes"),
        countedNo: copy("A referral that did not count (yet).", "No"),
        auditHeading: copy("The heading of the console actions taken on them.", "What operators did"),
        actionsHeading: copy("The heading of the actions the operator can take on them.", "Actions"),
      })
      .meta({
        description: "A person's page: every field the service keeps on them, the people they referred and the actions taken on them.",
      }),
    review: z
      .strictObject({
        heading: copy("The heading of the review queue.", "Review queue"),
        intro: longCopy(
          "The sentence under the heading.",
          "Everyone flagged or held by the fair-play checks, oldest first. Approve the fair ones; disqualify the cheats.",
        ),
        ...consoleTable("people to review", "People to review, oldest first", "Nobody is waiting for review."),
        more: copy("The button that shows the next page of the queue.", "Show more"),
      })
      .meta({ description: "The review queue: everyone flagged or held, oldest first." }),
    audit: z
      .strictObject({
        heading: copy("The heading of the audit log.", "Audit log"),
        ...consoleTable("audit entries", "Every console action, newest first", "No action has been taken yet."),
        atColumn: copy("The heading of the column of times.", "Time"),
        operatorColumn: copy("The heading of the column of operators.", "Operator"),
        actionColumn: copy("The heading of the column of actions.", "Action"),
        personColumn: copy("The heading of the column of the person acted on.", "Person"),
        reasonColumn: copy("The heading of the column of reasons.", "Reason"),
        changeColumn: copy("The heading of the column of what changed (before and after).", "Change"),
        before: copy("The label of what a value was before the action.", "Before"),
        after: copy("The label of what a value became after the action.", "After"),
        more: copy("The button that shows older entries.", "Show older"),
        actions: z
          .strictObject({
            disqualify: copy("The audit log's name of a disqualification.", "Disqualified"),
            requalify: copy("The audit log's name of a requalification.", "Requalified"),
            approve: copy("The audit log's name of an approval.", "Approved"),
            sendAgain: copy("The audit log's name of a signup sent to Klaviyo again.", "Sent again"),
            erase: copy("The audit log's name of an erasure.", "Erased"),
            exportPerson: copy("The audit log's name of an export of a person's data.", "Exported"),
            personViewed: copy("The audit log's name of an operator opening a person's page.", "Viewed"),
            drawCommitRequest: copy(
              "The audit log's name of a request to commit the giveaway draw, with the chain, relay and rules it binds.",
              "Draw commitment requested",
            ),
            drawCommit: copy("The audit log's name of the giveaway draw's commitment.", "Draw committed"),
            drawJobFailed: copy(
              "The audit log's name of the draw's commitment job stopping for good (nothing published).",
              "Draw commitment failed",
            ),
            drawRun: copy("The audit log's name of the giveaway draw.", "Draw run"),
            drawRunRefused: copy("The audit log's name of a run of the giveaway draw that the service refused.", "Draw run refused"),
            erasureDone: copy("The audit log's name of Klaviyo accepting an erased person's deletion.", "Klaviyo deletion accepted"),
            erasureRefused: copy("The audit log's name of Klaviyo refusing an erased person's deletion.", "Klaviyo deletion refused"),
            inviteBatch: copy("The audit log's name of a batch of invitations to the next people in line.", "Invited the next in line"),
            invitePerson: copy("The audit log's name of one person invited from their page or the command line.", "Invited"),
            revokeInvitation: copy("The audit log's name of an invitation revoked.", "Invitation revoked"),
            resendInvitation: copy("The audit log's name of an invitation's e-mail sent again.", "Invitation sent again"),
            launchSchedule: copy("The audit log's name of the launch schedule set, paused or resumed.", "Launch schedule set"),
            pauseBatch: copy("The audit log's name of a batch of invitations paused.", "Batch paused"),
            resumeBatch: copy("The audit log's name of a batch of invitations resumed.", "Batch resumed"),
          })
          .meta({ description: "How the audit log names each action." }),
      })
      .meta({ description: "The audit log: every console action, newest first." }),
    actions: z
      .strictObject({
        disqualify: copy("The button that disqualifies a person (out of the giveaway and off the leaderboard).", "Disqualify"),
        requalify: copy("The button that undoes a disqualification.", "Requalify"),
        approve: copy("The button that marks a flagged or held person as reviewed and fair.", "Approve"),
        sendAgain: copy("The button that sends a refused or stuck signup to Klaviyo again.", "Send again"),
        erase: copy("The button that erases a person on their request.", "Erase"),
        export: copy("The button that downloads every stored field of a person as JSON.", "Export data"),
      })
      .meta({ description: "The actions an operator takes on one person." }),
    launch: z
      .strictObject({
        heading: copy("The heading of the Launch screen.", "Launch"),
        funnelCaption: copy("The caption of the table of people by launch state.", "People by launch state"),
        stateColumn: copy("The heading of the launch state column.", "State"),
        peopleColumn: copy("The heading of the people column.", "People"),
        states: z
          .strictObject({
            waiting: copy("People still in line.", "Waiting"),
            invited: copy("People invited who have not accepted yet.", "Invited"),
            accepted: copy("People who accepted their invitation.", "Accepted"),
            expired: copy("Invitations that expired unused.", "Expired"),
            revoked: copy("Invitations an operator withdrew.", "Revoked"),
          })
          .meta({ description: "The launch states' names." }),
        inviteHeading: copy("The heading of inviting the next N by hand.", "Invite the next in line"),
        batchesHeading: copy("The heading of the batches.", "Batches"),
        countLabel: copy("The label of the field for how many to invite next.", "How many to invite"),
        previewButton: copy("The button that shows who inviting the next N would invite.", "Preview"),
        preview: longCopy(
          "The preview's sentence: {count} becomes how many would be invited, {first} and {last} their first and last place, {disqualified}, {unconfirmed}, {flagged} and {invited} the people passed over for each reason.",
          "{count} people, places {first} to {last}. Passed over: {disqualified} disqualified, {unconfirmed} unconfirmed, {flagged} flagged and not approved, {invited} invited already.",
        ),
        previewEmpty: copy("Shown when nobody in line can be invited now.", "Nobody in line can be invited now."),
        invite: copyWithPlaceholder("{count}", "how many the preview found", "The button that invites them.", "Invite {count}"),
        batchMade: copyWithPlaceholder(
          "{invited}",
          "how many the batch invited so far",
          "Read out once a batch is made.",
          "Batch made: {invited} invited so far.",
        ),
        batchesCaption: copy("The caption of the table of batches.", "Batches, newest first"),
        batchesEmpty: copy("Shown instead of the table of batches when there is none.", "No batch yet."),
        batchColumns: z
          .strictObject({
            createdAt: copy("The column of when a batch was made.", "Made"),
            operator: copy("The column of who made it.", "By"),
            requested: copy("The column of how many were asked for.", "Asked"),
            invited: copy("The column of how many were invited.", "Invited"),
            queued: copy("The column of the invitations whose e-mail is on its way.", "Queued"),
            sent: copy("The column of the invitations Klaviyo took.", "Sent"),
            failed: copy("The column of the invitations Klaviyo refused.", "Failed"),
            state: copy("The column of the batch's state.", "State"),
          })
          .meta({ description: "The batches table's column headings." }),
        batchStates: z
          .strictObject({
            choosing: copy("A batch still choosing whom to invite.", "Choosing"),
            sending: copy("A batch whose invitations are all made, some on their way.", "Sending"),
            done: copy("A batch whose invitations were all sent or refused.", "Done"),
          })
          .meta({ description: "The batches' states." }),
        batchPaused: copy("A batch an operator paused: it invites nobody more and holds its e-mails not sent yet.", "Paused"),
        batchActionsColumn: copy("The column of a batch's buttons (pause, resume).", "Actions"),
        batchPause: copy("The button that pauses a batch.", "Pause"),
        batchResume: copy("The button that resumes a paused batch.", "Resume"),
        batchName: copyWithPlaceholder(
          "{date}",
          "when the batch was made",
          "How the pause and resume dialogs name a batch.",
          "Batch of {date}",
        ),
        days: z
          .strictObject({
            heading: copy("The heading of the launch by day.", "By day"),
            chartLabel: copy(
              "What screen readers say for the chart of the launch by day.",
              "Chart of the launch by day; the table below holds the same numbers.",
            ),
            caption: copy("The caption of the table of the launch by day.", "People per day, by what happened to them"),
            dayColumn: copy("The heading of the column of days.", "Day"),
            empty: copy("Shown instead of the chart when nothing happened in the days shown.", "Nothing happened in the last 30 days."),
            series: z
              .strictObject({
                waiting: copy("People who joined the line that day.", "Joined the line"),
                invited: copy("People invited that day.", "Invited"),
                accepted: copy("Invitations accepted that day.", "Accepted"),
                expired: copy("Invitations that expired that day.", "Expired"),
                revoked: copy("Invitations revoked that day.", "Revoked"),
              })
              .meta({ description: "The chart's and the table's series, one per launch state." }),
          })
          .meta({ description: "The launch by day: a chart of the last 30 days and its table." }),
        schedule: z
          .strictObject({
            heading: copy("The heading of the schedule.", "Schedule"),
            intro: copyWithPlaceholder(
              "{zone}",
              "the site's time zone",
              "What the schedule does, above its fields.",
              "Invite up to a number of people from the head of the line every day at a time of day ({zone}), until paused.",
            ),
            countLabel: copy("The label of the field for how many to invite a day.", "People a day"),
            timeLabel: copy("The label of the field for the time of day.", "Time of day"),
            save: copy("The button that sets the schedule and starts it.", "Save schedule"),
            pause: copy("The button that pauses the schedule.", "Pause schedule"),
            resume: copy("The button that resumes the schedule.", "Resume schedule"),
            none: copy("Shown while no schedule is set.", "No schedule: nobody is invited by the clock."),
            running: longCopy(
              "The schedule while it runs: {count} becomes how many a day, {time} the time of day, {next} the next run, {operator} and {reason} who set it and why.",
              "{count} a day at {time}; next run {next}. Set by {operator}: {reason}",
            ),
            paused: longCopy(
              "The schedule while paused: {count}, {time}, {operator} and {reason} as in running.",
              "Paused ({count} a day at {time}). Paused by {operator}: {reason}",
            ),
            saved: copy("Read out once the schedule is saved, paused or resumed.", "Schedule saved."),
          })
          .meta({ description: "The schedule: up to N a day at a time of day, until paused." }),
        invitation: z
          .strictObject({
            heading: copy("The heading of the invitation on a person's page.", "Invitation"),
            none: copy("Shown on a person's page while they have no invitation.", "Not invited: waiting in line."),
            state: copy("The label of the invitation's state.", "State"),
            place: copy("The label of their place in line when invited.", "Place when invited"),
            invitedAt: copy("The label of when they were invited.", "Invited"),
            expiresAt: copy("The label of when the invitation expires.", "Expires"),
            acceptedAt: copy("The label of when they accepted.", "Accepted"),
            expiredAt: copy("The label of when it expired.", "Expired"),
            revokedAt: copy("The label of when it was revoked.", "Revoked"),
            sendState: copy("The label of the invitation e-mail's delivery.", "E-mail"),
            sendAttempts: copy("The label of how many times Klaviyo was asked.", "Attempts"),
            sendError: copy("The label of Klaviyo's last refusal.", "Last error"),
            sentAt: copy("The label of when Klaviyo took the event.", "Sent"),
            sendStates: z
              .strictObject({
                queued: copy("An invitation e-mail on its way (or held by a paused batch).", "Queued"),
                sent: copy("An invitation Klaviyo took.", "Sent"),
                failed: copy("An invitation Klaviyo refused, or never sent.", "Failed"),
              })
              .meta({ description: "The invitation e-mail's delivery states." }),
          })
          .meta({ description: "A person's invitation on their page." }),
        personInvite: copy("The person page's button that invites them now.", "Invite now"),
        personResend: copy(
          "The person page's button that sends their open invitation again while Klaviyo has not taken it (never twice).",
          "Send invitation again",
        ),
        personRevoke: copy("The person page's button that revokes their open invitation.", "Revoke invitation"),
        personInvitation: copyWithPlaceholder(
          "{state}",
          "the invitation's state",
          "Read out after inviting or revoking from a person's page. {date} becomes its expiry.",
          "Invitation {state}, open until {date}.",
        ),
      })
      .meta({
        description:
          "The Launch screen: people by launch state and by day, inviting the next N with a preview, the schedule, the batches; and a person's invitation.",
      }),
    draw: z
      .strictObject({
        heading: copy("The heading of the screen that closes the giveaway draw.", "Close the giveaway draw"),
        intro: longCopy(
          "What committing does, above the rules.",
          "Once entries close, commit the draw by the rules the site publishes: the service lists every eligible entrant by pseudonym and publishes the list and its commitment at once, before the rules' drand round. Then run the draw here, or from the command line, once that round is out.",
        ),
        drawLabel: copy("The label of the rules' draw id.", "Draw"),
        winnersLabel: copy("The label of how many winners the rules name.", "Winners"),
        cutoffLabel: copy("The label of the rules' cut-off: who had confirmed by then takes part.", "Entries close at"),
        roundLabel: copy("The label of the rules' drand round and when it is published.", "drand round"),
        confirm: longCopy(
          "The checkbox the operator ticks before committing: a commitment can never be changed.",
          "I understand that this commitment can never be changed or made again.",
        ),
        submit: copy("The button that commits the draw.", "Commit the draw"),
        committing: copy("Shown while the service accepts the commitment.", "Committing…"),
        progress: copyWithPlaceholder(
          "{written}",
          "the lines of the list written so far",
          "Shown while the service builds the list. {written} becomes the lines written so far; {eligible} (optional) the eligible people read so far.",
          "Building the list: {eligible} eligible people read, {written} lines written…",
        ),
        failed: copyWithPlaceholder(
          "{failure}",
          "the reason the job stopped",
          "Shown when the commitment job stopped for good. {failure} becomes its reason (a code).",
          "The commitment stopped ({failure}). Nothing was published; see docs/operators.md.",
        ),
        committed: copyWithPlaceholder(
          "{draw}",
          "the draw's name",
          "Shown once the list and the commitment are published. {draw} becomes the draw's name; {entrants}, {round}, {roundAt} and {listUrl} (optional) the number of entrants, the drand round, when it is published and the list's address.",
          "Draw {draw} is committed: {entrants} entrants, drand round {round} at {roundAt}. The list is published at {listUrl}.",
        ),
        runIntro: copyWithPlaceholder(
          "{roundAt}",
          "when the rules' drand round is published",
          "Shown once the draw is committed, above the run's confirmation. {roundAt} becomes when the rules' drand round is published; {round} (optional) its number.",
          "Run the draw once drand round {round} is out, at {roundAt}: the service fetches the round, checks its signature and draws the winners from the published list.",
        ),
        runConfirm: longCopy(
          "The checkbox the operator ticks before running the draw: the winners are drawn once.",
          "I understand that the winners are drawn once and can never be drawn again.",
        ),
        runSubmit: copy("The button that runs the draw.", "Run the draw"),
        running: copy("Shown while the service draws the winners.", "Drawing…"),
        drawn: copyWithPlaceholder(
          "{winners}",
          "the winners' pseudonyms",
          "Shown once the winners are drawn. {winners} becomes the winners' pseudonyms, in the order drawn; {round} and {drawnAt} (optional) the drand round and when the draw was run.",
          "Drawn by drand round {round} at {drawnAt}. Winners, in the order drawn: {winners}.",
        ),
        runRefusals: z
          .strictObject({
            notPublished: copy("Shown when the draw is run before its list is published.", "The draw is not committed and published yet."),
            roundNotPublished: copy(
              "Shown when the draw is run before the rules' drand round is out.",
              "The rules' drand round is not out yet: run the draw after the time shown above.",
            ),
            alreadyDrawn: copy(
              "Shown when the winners were drawn before (they are drawn once).",
              "The winners are drawn already: they are never drawn again.",
            ),
            beaconRefused: copy(
              "Shown when the drand relay's round could not be fetched or did not verify: nothing was drawn.",
              "The drand round could not be fetched or did not verify: nothing was drawn. Try again in a few minutes.",
            ),
            contentChanged: copy(
              "Shown when the content names another drand chain, relay or draw rules than the draw was committed with: nothing was drawn.",
              "The content's drand chain, relay or draw rules are not the ones this draw was committed with: nothing was drawn. Deploy the content as it was at the commitment, then run the draw.",
            ),
            listChanged: copy(
              "Shown when the list in storage is not the one the draw committed to (its SHA-256 or Merkle root differ): nothing was drawn.",
              "The list in storage is not the one this draw committed to: nothing was drawn. Put back the published list (its SHA-256 is in the commitment), then run the draw.",
            ),
          })
          .meta({ description: "Why the service refused to run the draw, one message per reason." }),
        refusals: z
          .strictObject({
            drawIdInvalid: copy("Shown when the draw's id is not one the draw takes.", "The draw's id is not valid."),
            winnersInvalid: copy("Shown when the number of winners is not a whole number of 1 or more.", "Draw at least one winner."),
            cutoffInvalid: copy("Shown when the cut-off is not a date and time.", "The cut-off is not a date and time."),
            otherDraw: copy(
              "Shown when the service publishes another draw id than the console read (deploy the content first).",
              "The service publishes another draw: reload, and deploy the content first if you changed it.",
            ),
            otherCutoff: copy(
              "Shown when the service publishes another cut-off than the console read.",
              "The service publishes another cut-off: reload.",
            ),
            otherWinners: copy(
              "Shown when the service publishes another number of winners than the console read.",
              "The service publishes another number of winners: reload.",
            ),
            entriesOpen: copy("Shown when the cut-off has not passed yet.", "Entries are still open: commit after the cut-off."),
            roundPublished: copy(
              "Shown when the rules' drand round is already published: the draw can no longer be committed.",
              "The rules' drand round is already published: this draw can no longer be committed.",
            ),
            alreadyCommitted: copy(
              "Shown when this draw was committed before (a commitment is never replaced).",
              "This draw is already committed; its commitment is never replaced.",
            ),
            pseudonymClash: copy(
              "Shown in the very rare case two entrants get one pseudonym in this draw.",
              "Two entrants share a pseudonym in this draw: see docs/operators.md.",
            ),
          })
          .meta({ description: "Why the service refused a commitment, one message per reason." }),
      })
      .meta({ description: "The screen that closes the giveaway draw: commits its entrants and a future drand round." }),
    dialog: z
      .strictObject({
        title: copyWithPlaceholder(
          "{action}",
          "the action's name",
          "The title of the dialog that asks for a reason. {action} becomes the action's name and {name} the person's name.",
          "{action}: {name}",
        ),
        description: longCopy("The sentence under the title.", "Say why. The reason goes into the audit log with your name."),
        reasonLabel: copy("The label of the reason box.", "Reason"),
        reasonRequired: copy("Shown when the reason box is empty.", "Write a reason."),
        reasonTooLong: copyWithPlaceholder(
          "{max}",
          "the longest reason the service takes (characters)",
          "Shown when the reason is too long. {max} becomes the limit.",
          "Keep the reason to {max} characters.",
        ),
        reasonControlCharacter: copy(
          "Shown when the reason holds a line break or an invisible control character.",
          "Write the reason on one line, in plain words.",
        ),
        reasonNamesAddress: longCopy(
          "Shown when the reason holds an e-mail address (anyone's, or one spelled out as 'ana at example dot com'): reasons stay in the audit log for good.",
          "Leave e-mail addresses out of the reason: it stays in the audit log for good, even after an erase.",
        ),
        reasonNamesNumber: longCopy(
          "Shown when the reason holds a phone number or another run of 7 or more digits (dates such as 2026-11-29 are fine): reasons stay in the audit log for good.",
          "Leave phone numbers and other long numbers out of the reason: it stays in the audit log for good, even after an erase.",
        ),
        reasonNamesPerson: longCopy(
          "Shown when the reason holds the person's own first or last name or their referral code: reasons stay in the audit log for good.",
          "Leave this person's name and referral code out of the reason: it stays in the audit log for good, even after an erase.",
        ),
        eraseWarning: longCopy(
          "Shown in the dialog before an erase: what is deleted and that it cannot be undone.",
          "Erasing deletes this person for good: their row, their place in line, their status link and their network's hash, and asks Klaviyo to delete their profile. The people they referred stay. It cannot be undone.",
        ),
        eraseConfirm: copy("The checkbox the operator ticks to confirm an erase.", "I understand that this person is deleted for good."),
        eraseConfirmRequired: copy("Shown when the erase is sent without the checkbox ticked.", "Tick the box to confirm the erase."),
        confirm: copy("The dialog's button that carries out the action.", "Confirm"),
        cancel: copy("The dialog's button that closes it without doing anything.", "Cancel"),
        working: copy("The confirm button's text while the action is being sent.", "Working…"),
        done: copyWithPlaceholder(
          "{action}",
          "the action's name",
          "Announced once an action is done. {action} becomes the action's name.",
          "Done: {action}.",
        ),
        erased: copy("Shown in place of the person's page once they are erased.", "Erased. Only the audit entry remains."),
      })
      .meta({ description: "The dialog every action goes through, which asks for a reason." }),
  })
  .meta({
    description:
      "The operator's console (/console/): the dashboard, the search for a person, the review queue, the audit log and the actions. Only operators signed in through Cloudflare Access see it; it is never in search results.",
  });

/** The whole content file's fields, section by section (the rules across sections are added below). */
const siteContentFields = z
  .strictObject({
    site: z
      .strictObject({
        url: httpsUrl(
          "The site's public address, used for canonical links and social cards. No trailing path.",
          "https://www.pickfund.com",
        ),
        language: z
          .string()
          .trim()
          .regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, { error: "Use a language code like en or en-US." })
          .meta({
            description: "The language of the copy (BCP 47 code), for screen readers and search engines.",
            examples: ["en"],
            patternErrorMessage: "Use a language code like en or en-US.",
          }),
        brandName: copy("The firm's name, shown next to the logo.", "PickFund"),
        themeColor: z
          .string()
          .trim()
          .regex(/^#[0-9a-fA-F]{6}$/, { error: "Use a colour in the form #RRGGBB, like #0b1020." })
          .meta({
            description: "Colour of the phone's browser bar (#RRGGBB).",
            examples: ["#0b1020"],
            patternErrorMessage: "Use a colour in the form #RRGGBB, like #0b1020.",
          }),
        logo: z
          .strictObject({
            src: staticPath("Path of the logo file inside the static folder.", "/logo.svg"),
            alt: copy("What the logo shows, read aloud to blind visitors.", "PickFund logo"),
          })
          .meta({ description: "The logo at the top of every page." }),
        socialImage: z
          .strictObject({
            src: staticPath("Path of the 1200×630 picture shown when the page is shared on social media.", "/social-card.png"),
            alt: copy("What the social picture shows, for blind visitors.", "PickFund: get funded to pick sports"),
          })
          .meta({ description: "The picture shown when someone shares the page on social media or in a chat." }),
        metaDescription: longCopy(
          "The summary search engines and social posts show under the page title.",
          "Join the PickFund waitlist before launch.",
        ),
      })
      .meta({ description: "Site-wide settings: address, language, brand and logo." }),
    launch: z
      .strictObject({
        moment: launchMoment,
        invitationDays: wholeNumber(
          "Days an invitation to join stays open after it is sent, on launch day and after. Past them it expires and the link stops working.",
          DEFAULT_LAUNCH.invitationDays,
          1,
        ).default(DEFAULT_LAUNCH.invitationDays),
        productSignupUrl: developerOnly(productSignupUrl).default(""),
        reminderDaysBefore: wholeNumber(
          "Days before an invitation expires that one reminder goes to the people who have not accepted yet. 0 sends no reminder.",
          DEFAULT_LAUNCH.reminderDaysBefore,
          0,
        ).default(DEFAULT_LAUNCH.reminderDaysBefore),
        backfill: z
          .boolean({ error: "Write true or false, without quotes." })
          .default(false)
          .meta({
            description:
              "true: when an invitation expires unused, the next person in line is invited in its place. false (or left out): an expired place stays empty.",
            examples: [false],
          }),
      })
      .meta({ description: "When the site launches (the countdown's target), and how the line is let in on launch day." }),
    provider: z
      .strictObject({
        transport: z
          .enum(SIGNUP_TRANSPORTS, {
            error: (issue) =>
              `${JSON.stringify(issue.input)} is not a way of sending signups. Write waitlist-api (our own waitlist service), client-api (Klaviyo directly) or legacy-form.`,
          })
          .default(DEFAULT_SIGNUP_TRANSPORT)
          .meta({
            description: `How the page sends a signup. waitlist-api: our own waitlist service, which keeps every signup in its own database before passing it to Klaviyo, so none is lost when Klaviyo is slow or down, and which can stop robots with Cloudflare Turnstile. Use it when the site is deployed to Cloudflare with its service (npm run deploy); it needs listId, not publicApiKey. client-api (used when left out): the page sends each signup straight to Klaviyo's Client API, which answers, so a refused address or a busy Klaviyo is reported to the visitor; use it when the site is on a plain static host without the service. legacy-form: Klaviyo's old embedded-form post, whose answer cannot be read, so every signup that leaves the browser is reported as confirmed; use it only if the Client API is not available to you.`,
            examples: ["waitlist-api"],
          }),
        endpointUrl: httpsUrl(
          `The address the page sends signups to. Leave it out to use the chosen transport's own address (client-api: ${CLIENT_API_ENDPOINT_URL}, legacy-form: ${LEGACY_FORM_ENDPOINT_URL}). Not used with waitlist-api, which always sends to ${SIGNUPS_ENDPOINT} on the site's own address.`,
          CLIENT_API_ENDPOINT_URL,
        ).optional(),
        noScriptFormUrl: httpsUrl(
          `Where the form posts for visitors without JavaScript, with client-api or legacy-form: Klaviyo's legacy signup form address, which answers them with a Klaviyo confirmation page. Leave it out for the usual address (${NO_SCRIPT_FORM_URL}). Not used with waitlist-api, where those visitors post to our own service and come back to our own pages.`,
          NO_SCRIPT_FORM_URL,
        ).optional(),
        source: z
          .string({ error: "Write the source as text, like PickFund waitlist." })
          .trim()
          .min(1, { error: "The source is empty. Name where these signups come from, like PickFund waitlist, or leave the field out." })
          .max(SOURCE_TOO_LONG.chars, { error: SOURCE_TOO_LONG.message })
          .optional()
          .meta({
            description: `Klaviyo's custom source recorded on every profile that signs up here (waitlist-api and client-api), so the firm can see where each signup came from: at most ${CUSTOM_SOURCE_MAX_CHARS} characters. Visitors never see it.`,
            examples: ["PickFund waitlist"],
          }),
        publicApiKey: klaviyoId(
          "Klaviyo PUBLIC API key (site id): 6 letters or digits. Needed by client-api and legacy-form; waitlist-api does not need it (the service uses a private key kept outside this file). Never a private key (pk_…): this file is published.",
          "Pk7Fnd",
          KLAVIYO_PUBLIC_KEY_PATTERN,
          "public API key",
        ).optional(),
        listId: klaviyoId(
          "The Klaviyo list id that signups join: 6 letters or digits. Needed by every transport.",
          "WtL1st",
          KLAVIYO_LIST_ID_PATTERN,
          "list id",
        ).optional(),
        turnstileSiteKey: z
          .string({ error: "Write the site key as text, like 0x4AAAAAAADnPIDROrmt1Wwj." })
          .trim()
          .superRefine((value, ctx) => {
            if (TURNSTILE_SECRET_KEY_PATTERN.test(value)) ctx.addIssue({ code: "custom", message: TURNSTILE_SECRET_KEY_MESSAGE });
            else if (!TURNSTILE_SITE_KEY_PATTERN.test(value)) ctx.addIssue({ code: "custom", message: TURNSTILE_SITE_KEY_MESSAGE });
          })
          .optional()
          .meta({
            description:
              "Optional, waitlist-api only: the site key of Cloudflare Turnstile (Cloudflare dashboard → Turnstile → your widget → Site key), which adds Turnstile's robot check to the signup form; the service checks each answer with the matching secret key, kept outside this file. Leave it out for no check (the deployed service refuses to run without one). For trying it on your own computer, Cloudflare publishes test site keys: 1x00000000000000000000AA always passes, 2x00000000000000000000AB always blocks, 3x00000000000000000000FF always asks the visitor to click. Never the secret key: this file is published.",
            examples: ["0x4AAAAAAADnPIDROrmt1Wwj"],
            pattern: TURNSTILE_SITE_KEY_PATTERN.source,
            patternErrorMessage: TURNSTILE_SITE_KEY_MESSAGE,
          }),
        demoMode: z
          .boolean({ error: "Write true or false, without quotes." })
          .default(false)
          .meta({
            description:
              "true only for demos: signups are simulated and go nowhere. Needed when the list id (or, for client-api and legacy-form, the public API key) is left out.",
            examples: [false],
          }),
      })
      .superRefine((provider, ctx) => {
        const service = provider.transport === "waitlist-api";
        if (service) {
          for (const key of ["endpointUrl", "noScriptFormUrl"] as const) {
            if (provider[key]) ctx.addIssue({ code: "custom", path: [key], message: SERVICE_ADDRESS_MESSAGE(key) });
          }
        } else if (provider.turnstileSiteKey) {
          ctx.addIssue({ code: "custom", path: ["turnstileSiteKey"], message: TURNSTILE_WITHOUT_SERVICE_MESSAGE });
        }
        if (provider.demoMode) return;
        if (service && !provider.listId) {
          ctx.addIssue({ code: "custom", path: ["listId"], message: SERVICE_LIST_MESSAGE });
        } else if (!service && (!provider.publicApiKey || !provider.listId)) {
          ctx.addIssue({
            code: "custom",
            path: provider.publicApiKey ? ["listId"] : ["publicApiKey"],
            message:
              "Signups need both publicApiKey and listId; without them every signup would be thrown away. Add both, or set demoMode: true to publish a demo that collects nothing.",
          });
        }
      })
      .meta({
        description: "Where signups are sent.",
        // The rules of the superRefine above, for editor tooling (an emptied optional text means "none", hence maxLength 0).
        anyOf: [
          { required: ["demoMode"], properties: { demoMode: { const: true } } },
          { required: ["transport", "listId"], properties: { transport: { const: "waitlist-api" } } },
          { required: ["publicApiKey", "listId"], properties: { transport: { enum: ["client-api", "legacy-form"] } } },
        ],
        allOf: [
          {
            if: { required: ["transport"], properties: { transport: { const: "waitlist-api" } } },
            then: { properties: { endpointUrl: { type: "string", maxLength: 0 }, noScriptFormUrl: { type: "string", maxLength: 0 } } },
            else: { properties: { turnstileSiteKey: { type: "string", maxLength: 0 } } },
          },
        ],
      }),
    links: z
      .strictObject({
        discordInviteUrl: discordInvite("The Discord invite behind JOIN DISCORD on the /success page.", "https://discord.gg/pickfund"),
        inlineDiscordInviteUrl: discordInvite(
          "The (different) Discord invite behind JOIN DISCORD in the form's own success message.",
          "https://discord.gg/pickfund-waitlist",
        ),
        social: z
          .strictObject({
            url: httpsUrl("The firm's social-media profile, where funding announcements appear.", "https://x.com/pickfund"),
            label: copy("The link text for the social profile.", "Follow @PickFund for funding announcements"),
          })
          .meta({ description: "The link to the firm's social-media profile, under the form." }),
        newTabHint: copy("Read by screen readers after links that open a new tab (Discord, social profile).", "(opens in a new tab)"),
      })
      .meta({ description: "Links to the community chat and the social profile." }),
    adPixel: z
      .strictObject({
        id: z
          .string({
            error: (issue) =>
              typeof issue.input === "number"
                ? "Put the pixel id in quotes so it is read as text, not as a number."
                : "The pixel id should be digits in quotes, or null.",
          })
          .trim()
          .regex(/^\d+$/, { error: 'A pixel id is digits only, like "123456789012345".' })
          .nullable()
          .optional()
          .meta({
            description: "Meta (Facebook) pixel id, digits only. Empty, null or left out: no pixel and no consent banner.",
            examples: ["123456789012345"],
            patternErrorMessage: 'A pixel id is digits only, like "123456789012345".',
          }),
      })
      .optional()
      .meta({ description: "Optional advertising pixel; it only loads after the visitor accepts." }),
    home: z
      .strictObject({
        pageTitle: copy("The browser tab title of the signup page.", "Secure Your Spot Before Launch | PickFund"),
        title: copy("The big heading of the signup page.", "Secure Your Spot Before Launch"),
        tagline: longCopy("The sentence under the heading.", "Join thousands of sports pickers & get funded."),
        countdown: z
          .strictObject({
            label: copy(
              "What screen readers say for the countdown. {date} becomes the launch date and time.",
              "Time left until launch on {date}",
            ),
            days: copy("Caption under the days figure.", "days"),
            hours: copy("Caption under the hours figure.", "hours"),
            minutes: copy("Caption under the minutes figure.", "min"),
            seconds: copy("Caption under the seconds figure.", "sec"),
            afterLaunch: z
              .string()
              .trim()
              .default("")
              .meta({
                description:
                  "A line under the countdown once the launch moment has passed (the countdown then stays at zero). Leave it empty for none.",
                examples: ["We're live: check your inbox for your invitation."],
              }),
          })
          .meta({ description: "The launch countdown under the heading (days, hours, min, sec)." }),
        form: z
          .strictObject({
            heading: copy(
              "Heading of the signup form (read by screen readers; shown above the inputs).",
              "Join the launch waitlist and giveaway",
            ),
            email: field("email", "Email", "you@example.com"),
            firstName: field("first name", "First name", "Jordan"),
            lastName: field("last name", "Last name", "Smith"),
            honeypotLabel: copy("Label of the hidden anti-bot field (people never see it).", "Leave this field empty"),
            submit: copy("The signup button's text.", "Secure Spot & Access Discord"),
            submitting: copy("The button's text while a signup is being sent.", "Joining the Elite..."),
          })
          .meta({ description: "The signup form: its heading, three input boxes and the button." }),
        privacyNote: longCopy("The privacy sentence under the form.", "Your privacy matters."),
        badges: z
          .strictObject({
            ssl: badge("SSL", "SSL Secured", "Every signup travels over an encrypted HTTPS connection."),
            gdpr: badge("GDPR", "GDPR Compliant", "We only keep what you give us here and delete it whenever you ask."),
          })
          .meta({ description: "The two trust badges under the form." }),
        inlineSuccess: z
          .strictObject({
            heading: copy("Heading of the form's own success message.", "Welcome to the Team!"),
            text: longCopy("Text of the form's own success message.", "You're all set!"),
            button: copy("Button text of the form's own success message.", "JOIN DISCORD"),
          })
          .meta({ description: "The form's own success message. Rarely seen: after a signup the visitor is normally taken to /success." }),
      })
      .meta({ description: "The signup page (/)." }),
    toasts: z
      .strictObject({
        closeLabel: copy("What screen readers say for a pop-up message's close button.", "Dismiss notification"),
        regionLabel: copy("Screen-reader name of the pop-up area. {hotkey} becomes the keyboard shortcut.", "Notifications ({hotkey})"),
        announceLabel: copy("Spoken by screen readers before each pop-up message.", "Notification"),
        emailRequired: toast("when the email box is empty", "Email required", "Please enter your email address"),
        firstNameRequired: toast("when the first-name box is empty", "First name required", "Please enter your first name"),
        lastNameRequired: toast("when the last-name box is empty", "Last name required", "Please enter your last name"),
        invalidEmail: toast("when the email address does not look valid", "Invalid email", "Please enter a valid email address"),
        firstNameInvalid: toast(
          "when the first name holds a link, an @ or a hidden character",
          "Invalid first name",
          "Please enter your first name without links or symbols",
        ),
        lastNameInvalid: toast(
          "when the last name holds a link, an @ or a hidden character",
          "Invalid last name",
          "Please enter your last name without links or symbols",
        ),
        subscriptionFailed: z
          .strictObject({
            title: copy("Title of the pop-up when a signup could not be sent.", "Subscription failed"),
            fallbackMessage: copy("Message used when the failure has no explanation of its own.", "Please try again later"),
            networkMessage: copy(
              "Message when the visitor's browser could not reach the signup service at all (offline, connection lost).",
              "We couldn't reach the signup service. Check your connection and try again.",
            ),
            rejectedMessage: copy(
              "Message when Klaviyo or our waitlist service turned the signup away because of a setting on our side (wrong public API key or list id, or the service's own settings); the visitor cannot fix it.",
              "Signups are not working right now because of a problem on our side. Please try again later.",
            ),
            verificationMessage: copy(
              "Message when our waitlist service could not confirm that the visitor is a person (Cloudflare Turnstile's check failed, waitlist-api only). The check is run again, so the visitor can simply send the form once more.",
              "We couldn't verify that you're not a robot. Please try again.",
            ),
            missingConfigurationMessage: copy(
              "Message when the site was published without a public API key or list id.",
              "A public API key and a list id are both required.",
            ),
          })
          .meta({ description: "The pop-up shown when a signup could not be sent." }),
        success: toast("after a successful signup", "Submission confirmed", "Welcome to the team! Check your email for next steps."),
      })
      .meta({ description: "Pop-up messages." }),
    success: z
      .strictObject({
        pageTitle: copy("The browser tab title of the /success page.", "Welcome to the Team! | PickFund"),
        heading: copy("The heading of the /success page.", "Welcome to the Team!"),
        text: longCopy("The main sentence of the /success page.", "You're all set!"),
        subtext: copy("The smaller sentence of the /success page.", "Get ready for exclusive content"),
        button: copy("The Discord button's text.", "JOIN DISCORD"),
      })
      .meta({ description: "The confirmation page (/success)." }),
    referrals: z
      .strictObject({
        enabled: z
          .boolean({ error: "Write true or false, without quotes." })
          .default(false)
          .meta({
            description: `true switches the referral program on: after signing up, visitors see their place in line, a personal link to share with friends and their giveaway entries, and the pages /status/ and /leaderboard/ exist. It needs provider.transport: ${REFERRALS_TRANSPORT} (our own signup service), the only one that gives each signup a referral code and keeps count; with client-api or legacy-form signups go straight to Klaviyo, so the check refuses true there. false (or left out): no program, no referral pages.`,
            examples: [false],
          }),
        placesPerReferral: wholeNumber(
          "How many places each friend who joins with a person's link moves that person up the line (among people with no referrals of their own). Fix it before launch: changing it later reorders everyone already in line.",
          10,
          1,
        ),
        entriesPerReferral: wholeNumber(
          "How many extra giveaway entries each friend who joins with a person's link earns that person. Everyone starts with 1 entry. State the same rule in the giveaway's official rules.",
          1,
          1,
        ),
        countAfter: z
          .enum(COUNT_AFTER, {
            error: (issue) =>
              `${JSON.stringify(issue.input)} is not a moment a referral can count. Write confirmation (recommended) or signup.`,
          })
          .meta({
            description:
              "When a friend's signup counts for the person who referred them. confirmation (recommended): only once the friend has clicked the link in the confirmation e-mail Klaviyo sends (double opt-in: the list asks every new subscriber to confirm their address), so made-up or mistyped addresses never count. signup: as soon as the friend signs up, for trying the site locally only: npm run deploy and the live service refuse it, since anyone could sign up an address with their own link and learn from their own count whether it was already on the list.",
            examples: ["confirmation"],
          }),
        position: copyWithPlaceholder(
          "{position}",
          "the visitor's place in line",
          "The headline of the referral panel on /success/ and the status page. {position} becomes the visitor's place in line, written the way site.language writes numbers (1,234 in English).",
          "You're #{position} in line",
        ),
        intro: longCopy(
          "The sentence under the headline, saying what sharing the link does. {places} becomes placesPerReferral and {entries} becomes entriesPerReferral (both optional).",
          "Every friend who joins with your link moves you {places} places up and earns you {entries} more giveaway entry.",
        ),
        friendsJoined: copy("The caption under the number of friends who joined with the visitor's link.", "Friends joined"),
        giveawayEntries: copy("The caption under the visitor's number of giveaway entries.", "Giveaway entries"),
        linkLabel: copy("The label above the box that shows the visitor's referral link.", "Your referral link"),
        copyButton: copy("The button that copies the referral link.", "Copy link"),
        copied: copy("Shown on the copy button, and read by screen readers, once the link is copied.", "Copied"),
        copyManually: copy(
          "Read by screen readers and shown under the link when the browser does not let the page copy: the link is selected instead, for the visitor to copy themselves.",
          "Your link is selected: copy it with Ctrl+C (⌘C on a Mac) or your phone's Copy menu.",
        ),
        shareButton: copy(
          "The button that opens the phone's or computer's own share menu (only shown where the browser has one).",
          "Share",
        ),
        shareMessage: copyWithPlaceholder(
          "{link}",
          "the visitor's referral link",
          "The message a visitor shares, ready to send or post. {link} becomes their referral link.",
          "I just joined the PickFund waitlist. Join with my link and we both move up the line: {link}",
        ),
        shareLinks: z
          .strictObject({
            label: copy("What screen readers call the row of share links.", "Share your link on"),
            x: copy("The link that posts the share message on X (Twitter).", "X"),
            whatsapp: copy("The link that sends the share message in WhatsApp.", "WhatsApp"),
            telegram: copy("The link that sends the share message in Telegram.", "Telegram"),
            facebook: copy("The link that shares the referral link on Facebook.", "Facebook"),
            reddit: copy("The link that posts the referral link on Reddit.", "Reddit"),
          })
          .meta({ description: "The share links under the referral link; each opens the network in a new tab." }),
        leaderboardLink: copy("The link to the /leaderboard/ page of top referrers.", "See the top referrers"),
        checkInbox: z
          .strictObject({
            heading: copy(
              "The heading of the second card on /success/, sending the visitor to their inbox for their place in line.",
              "Your place in line is in your inbox",
            ),
            text: longCopy(
              "The card's sentence. The page never shows a place or a link: it cannot tell, and must not, whether the address was new or already on the list. A new person's e-mail brings their status link (their place in line and their referral link); someone already on the list is e-mailed their link again and keeps their place. Say both plainly.",
              "Check your inbox: our e-mail brings your status link, where you'll find your place in line and your personal referral link to share. Signed up before with this address? We're sending you your link again, and your place is kept.",
            ),
          })
          .meta({
            description:
              "The card on /success/ while the program runs: where the visitor finds their place in line and referral link (their e-mail), for a newcomer and someone already on the list alike.",
          }),
      })
      .meta({
        description:
          "The referral program: a place in line, a personal link to share, giveaway entries for every friend who joins, a status page and a leaderboard.",
      }),
    giveaway: z
      .strictObject({
        rulesUrl: httpsUrl(
          "The address of the giveaway's official rules (eligibility, dates, prizes, how referral entries are earned, odds, sponsor).",
          "https://www.pickfund.com/giveaway-rules",
        ),
        rulesLink: copy("The text of the link to the official rules (it opens in a new tab).", "Official giveaway rules"),
        noPurchaseNecessary: longCopy(
          "The legal line beside the rules link. Sweepstakes rules require it: entering must be free.",
          "No purchase necessary to enter or win. Void where prohibited.",
        ),
      })
      .meta({ description: "The giveaway's official rules, linked from the referral panel and the leaderboard." }),
    draw: z
      .strictObject({
        chain: developerOnly(
          z
            .strictObject({
              hash: hexText(
                "The chain hash of drand's quicknet chain, 64 hex characters (drand's documentation lists it). Only a developer changes this.",
                QUICKNET.hash,
                64,
              ),
              publicKey: hexText(
                "The public key of drand's quicknet chain, 192 hex characters: the draw trusts a round only when this key signed it. Only a developer changes this.",
                QUICKNET.publicKey,
                192,
              ),
              period: wholeNumber("Seconds between two drand rounds on this chain (quicknet: 3).", QUICKNET.period, 1),
              genesis: wholeNumber(
                "When the chain's round 1 was published, in seconds since 1 January 1970 UTC (quicknet: 1692803367).",
                QUICKNET.genesis,
                0,
              ),
            })
            .meta({
              description:
                "The drand chain whose rounds draw the winners (quicknet), shown on the draw page so that anyone can check a round themselves.",
            }),
        ),
        id: developerOnly(
          z
            .string({ error: DRAW_ID_MESSAGE })
            .trim()
            .regex(DRAW_ID_PATTERN, { error: DRAW_ID_MESSAGE })
            .meta({
              description:
                "The draw's id, fixed before entries close: part of every pseudonym and of the list's address. Lower-case letters, digits and -, starting with a letter.",
              examples: ["launch"],
              pattern: DRAW_ID_PATTERN.source,
              patternErrorMessage: DRAW_ID_MESSAGE,
            }),
        ),
        cutoff: developerOnly(drawCutoff),
        winners: developerOnly(wholeNumber("How many winners the draw names, fixed before entries close.", 3, 1)),
        roundDelayHours: developerOnly(
          wholeNumber(
            "Hours from the cut-off to the drand round that draws the winners (the first round published at or after cut-off + this delay); the operator commits the draw in between.",
            DRAW_ROUND_DELAY_HOURS_EXAMPLE,
            1,
            DRAW_ROUND_DELAY_HOURS_MAX,
          ),
        ),
        relayUrl: developerOnly(
          httpsUrl("The drand relay the draw command fetches the committed round from (drand's HTTP API).", "https://api.drand.sh"),
        ),
        pageTitle: copy("The browser tab title of the /giveaway/draw/ page.", "Giveaway draw | PickFund"),
        heading: copy("The heading of the /giveaway/draw/ page.", "The giveaway draw"),
        rulesFixed: copyWithPlaceholder(
          "{cutoff}",
          "the cut-off time in UTC",
          "The draw's rules as fixed before entries close. {cutoff} becomes the cut-off (UTC); {draw}, {winners}, {delayHours} and {roundAt} (optional) the draw's id, the number of winners, the delay and when the round is published.",
          "Draw {draw}: entries are counted until {cutoff}. {winners} winners are drawn by the first drand round published at least {delayHours} hours later, at {roundAt}. These rules are fixed before entries close and cannot change.",
        ),
        howWinnersAreSelected: longCopy(
          "How winners are selected, as the official rules say it: the list of entrants is fixed and published with its SHA-256 before a future drand round is produced, and that round's randomness picks the winners.",
          "When entries close, we publish the list of every eligible entrant (by pseudonym, never by name) with its SHA-256 fingerprint, and name a future round of drand, a public randomness beacon no one controls. When that round is produced, its randomness picks the winners by a published rule that anyone can rerun.",
        ),
        odds: longCopy(
          "That the odds depend on entries, as the official rules say it.",
          "Your odds depend on your entries: each entry is one ticket, and every friend who joins with your link adds entries. A winner is drawn once, then the next from the remaining tickets.",
        ),
        wherePublished: longCopy(
          "Where the draw is published.",
          "The commitment and the list of entrants are published here the moment entries are committed, the winners once drawn, and anyone can check them here with the Verify button.",
        ),
        notCommitted: longCopy(
          "Shown instead of the draw until the list of entrants has been committed.",
          "The draw has not been committed yet. When entries close, the list of entrants and the drand round that will draw the winners appear here.",
        ),
        commitmentHeading: copy("The heading above the commitment (the list's SHA-256 and the round).", "The commitment"),
        listHashLabel: copy("The label of the list's SHA-256.", "SHA-256 of the list of entrants"),
        roundLabel: copy("The label of the drand round that draws the winners.", "drand round"),
        roundAtLabel: copy("The label of the time that round is published (shown in UTC).", "Published by drand at"),
        chainLabel: copy("The label of the drand chain's hash.", "drand chain (quicknet)"),
        merkleRootLabel: copy("The label of the list's Merkle root (each person's proof leads to it).", "Merkle root of the list"),
        entrantsLabel: copy("The label of the number of entrants (lines of the list).", "Entrants"),
        totalEntriesLabel: copy("The label of the entries of all entrants together.", "Entries in all"),
        listLink: copy("The text of the link to the published list of entrants.", "The list of entrants (one line each)"),
        findLabel: copy("The label of the box where a visitor finds their line in the list.", "Find yourself: your ticket or pseudonym"),
        findHelp: copyWithPlaceholder(
          "{draw}",
          "the draw's name",
          "How a visitor finds their line, under the search box. {draw} becomes the draw's name.",
          "Your ticket is on your status page. Your pseudonym is the first 16 characters of the SHA-256 of {draw}, a colon and your ticket; the page computes it on your own device and looks it up in the list.",
        ),
        findButton: copy("The button that looks the ticket or pseudonym up in the list.", "Find"),
        found: copyWithPlaceholder(
          "{entries}",
          "the line's entries",
          "Shown when the line is found. {entries} becomes its entries; {pseudonym} and {line} (optional) the pseudonym and the line's number.",
          "{pseudonym} is line {line} of the list, with {entries} entries.",
        ),
        findNoMatch: copy("Shown when no entrant matches what the visitor typed.", "No entrant matches."),
        winnersHeading: copy("The heading of the list of winners.", "Winners"),
        notDrawnYet: copyWithPlaceholder(
          "{round}",
          "the committed round's number",
          "Shown instead of the winners until they are drawn. {round} becomes the round's number.",
          "The winners are drawn once drand round {round} is published.",
        ),
        verifyButton: copy("The button that checks the draw in the visitor's browser.", "Verify"),
        verifying: copy("Shown while the check runs (beside a progress bar of the list read so far).", "Checking…"),
        progressLabel: copy("The label of the progress bar: how much of the list of entrants the check has read.", "List of entrants read"),
        stopButton: copy("The button that stops a check while it runs.", "Stop"),
        stopped: copy("Shown when the visitor stopped the check before it ended.", "Stopped. Press Verify to check again."),
        verified: longCopy(
          "Shown when the whole draw checks out.",
          "Verified: the list matches its SHA-256, the round was published after the commitment and signed by drand, and its randomness draws exactly these winners.",
        ),
        verifiedCommitment: longCopy(
          "Shown when the commitment checks out before the winners are drawn.",
          "Verified: the list matches its SHA-256 and the round is published after the commitment. The winners can be checked once they are drawn.",
        ),
        notVerified: copy("The heading of the list of what does not match.", "Not verified. What does not match:"),
        checkFailed: longCopy(
          "Shown when the check cannot run (the page's checking code did not load).",
          "The check could not run. Check your connection and try again.",
        ),
        mismatches: z
          .strictObject({
            format: copy("The published draw file is not in the documented form.", "The draw file is not in the published format."),
            rules: copy("The draw's rules are not the ones this site publishes.", "The draw's rules are not the ones this site publishes."),
            list: copy(
              "A line of the list is malformed, out of order or repeated.",
              "A line of the list is malformed, out of order or repeated.",
            ),
            listBytes: copy("The list's size is not the committed one.", "The list's size is not the committed one."),
            n: copy("The number of lines is not the committed one.", "The list does not have the committed number of entrants."),
            totalEntries: copy(
              "The entries in all are not the committed number.",
              "The list's entries do not add up to the committed number.",
            ),
            merkleRoot: copy("The list's Merkle root is not the committed one.", "The list's Merkle root is not the committed one."),
            chain: copy("The draw names another drand chain than this site.", "The draw names another drand chain than this site's."),
            round: copy(
              "The round is not published after the commitment, or its time is wrong.",
              "The round was not in the future when the list was committed.",
            ),
            listHash: copy("The list's SHA-256 is not the committed one.", "The list of entrants does not match its committed SHA-256."),
            beaconRound: copy("The published round is not the committed one.", "The published round is not the committed round."),
            randomness: copy(
              "The round's randomness is not the SHA-256 of its signature.",
              "The round's randomness does not match its signature.",
            ),
            signature: copy("The round's signature is not drand's.", "The round's signature is not drand's."),
            winners: copy(
              "The winners are not the ones the round's randomness draws.",
              "The winners are not the ones this round draws from this list.",
            ),
          })
          .meta({ description: "What the check says for each thing that does not match, one line each." }),
      })
      .meta({
        description:
          "The giveaway draw and its page (/giveaway/draw/): how winners are selected, the drand chain whose randomness draws them, and the words of the commitment, the entrants, the winners and the check.",
      }),
    status: z
      .strictObject({
        pageTitle: copy(
          "The browser tab title of the status page (the personal link in the welcome e-mail).",
          "Your place in line | PickFund",
        ),
        heading: copy("The heading of the status page.", "Your place in line"),
        loading: copy("Shown while the status page looks up the visitor's place in line.", "Looking up your place in line…"),
        missingToken: longCopy(
          "Shown when the status page is opened without the personal part of the link (for example, typed in by hand).",
          "This page needs the personal link from your welcome e-mail. Open that e-mail and click the link again.",
        ),
        unknownToken: longCopy(
          "Shown when the personal link is not (or no longer) known, for example cut short when copied.",
          "We couldn't find your place in line with this link. Open your welcome e-mail and click the link again.",
        ),
        unavailable: longCopy(
          "Shown when the place in line cannot be looked up right now (no connection, or the service is busy).",
          "Your place in line can't be loaded right now. Check your connection and try again in a minute.",
        ),
        noScript: longCopy(
          "Shown on the status page when the visitor's browser runs no JavaScript (the page needs it to read the personal link).",
          "Turn on JavaScript to see your place in line, or check your latest e-mail from us.",
        ),
        invitation: z
          .strictObject({
            invited: copyWithPlaceholder(
              "{date}",
              "the date and time the invitation expires",
              "Shown on the status page once the visitor is invited. {date} becomes the moment the invitation expires, in the visitor's own time.",
              "You're invited! Accept by {date}.",
            ),
            accept: copy("The button that opens the invitation (the product's sign-up page).", "Accept your invitation"),
            joined: longCopy("Shown on the status page once the visitor accepted the invitation.", "You've joined. Welcome aboard!"),
            expired: copyWithPlaceholder(
              "{date}",
              "the date and time the invitation expired",
              "Shown on the status page when the visitor's invitation expired unused. {date} becomes the moment it expired.",
              "Your invitation expired on {date}.",
            ),
            revoked: longCopy(
              "Shown on the status page when the visitor's invitation was withdrawn.",
              "Your invitation is no longer valid. Reply to our last e-mail if you think this is a mistake.",
            ),
          })
          .meta({ description: "The status page on launch day: the visitor's invitation, in place of their place in line." }),
        drawPlace: z
          .strictObject({
            check: copy("The button that looks up and checks the visitor's place in the giveaway draw.", "Check my place in the draw"),
            checking: copy("Shown while the place is looked up and its proof checked.", "Checking your place…"),
            inDraw: copyWithPlaceholder(
              "{entries}",
              "the visitor's entries",
              "Shown once the visitor's line is found. {entries} becomes their entries; {draw} (optional) the draw's id.",
              "You are in the draw with {entries} entries.",
            ),
            proven: copyWithPlaceholder(
              "{line}",
              "the visitor's line number",
              "Shown once the proof of the line is checked on the visitor's device. {line} becomes their line; {n} and {root} (optional) the lines in the list and its Merkle root.",
              "Checked on your device: line {line} of {n} leads to the published root {root}.",
            ),
            ticket: copyWithPlaceholder(
              "{ticket}",
              "the visitor's secret ticket",
              "The visitor's secret ticket, the seed of their pseudonym. {ticket} becomes the ticket; {pseudonym} (optional) their pseudonym.",
              "Your secret ticket is {ticket} and your pseudonym {pseudonym}. Keep the ticket to yourself: it finds your line.",
            ),
            proofFailed: longCopy(
              "Shown when the proof does not lead to the published root (the list changed, or the answer was tampered with).",
              "The proof of your place does not match the published list. Please tell us.",
            ),
            notPublished: copy("Shown before the draw's list is published.", "The draw's list is not published yet."),
            notInDraw: longCopy(
              "Shown when the visitor is not in the draw's list (not confirmed by the cut-off, or disqualified).",
              "You are not in this draw's list.",
            ),
            failed: copy(
              "Shown when the place cannot be looked up right now.",
              "Your place can't be checked right now. Try again in a minute.",
            ),
          })
          .meta({ description: "The status page's check of the visitor's place in the giveaway draw." }),
        leaderboardChoice: z
          .strictObject({
            hiddenNote: longCopy(
              "Shown below the place in line while the visitor is not on the public leaderboard (everyone starts hidden).",
              "You're not on the public leaderboard. Join it to show your first name and last initial there.",
            ),
            shownNote: longCopy(
              "Shown below the place in line once the visitor chose to be on the public leaderboard.",
              "You're on the public leaderboard, shown by your first name and last initial.",
            ),
            show: copy("The button that puts the visitor on the public leaderboard.", "Show me on the leaderboard"),
            hide: copy("The button that takes the visitor off the public leaderboard again.", "Hide me from the leaderboard"),
            failed: longCopy(
              "Shown when showing or hiding the visitor could not be saved (no connection, or the service is busy).",
              "That didn't work. Check your connection and try again.",
            ),
          })
          .meta({
            description:
              "The status page's leaderboard choice: nobody is on the public leaderboard until they press its button, and the same button hides them again.",
          }),
      })
      .meta({ description: "The status page (/status/): the visitor's place in line, friends joined and entries, kept up to date." }),
    invite: z
      .strictObject({
        pageTitle: copy("The browser tab title of the /invite/ page.", "Your invitation | PickFund"),
        heading: copy("The heading of the /invite/ page.", "You're invited"),
        intro: longCopy(
          "The sentence above the button. This page stands in for the product's own sign-up page until launch.productSignupUrl names it.",
          "Your place in line came up. Accept your invitation to join.",
        ),
        accept: copy("The button that accepts the invitation.", "Accept invitation"),
        accepted: copyWithPlaceholder(
          "{firstName}",
          "the invited person's first name",
          "Shown once the invitation is accepted. {firstName} becomes the person's first name.",
          "Welcome, {firstName}! You're in.",
        ),
        used: longCopy("Shown when the invitation was accepted already.", "This invitation was accepted already."),
        expired: longCopy("Shown when the invitation expired.", "This invitation has expired."),
        revoked: longCopy("Shown when the invitation was withdrawn.", "This invitation is no longer valid."),
        unknown: longCopy(
          "Shown when the link's invitation is not known, for example cut short when copied.",
          "We couldn't find this invitation. Open the e-mail and click its button again.",
        ),
        missingToken: longCopy(
          "Shown when the page is opened without the invitation's part of the link.",
          "This page needs the link from your invitation e-mail. Open that e-mail and click its button again.",
        ),
        unavailable: longCopy(
          "Shown when the invitation cannot be accepted here (the live site leaves accepting to the product), or the service cannot be reached.",
          "Invitations can't be accepted here right now. Please try again later.",
        ),
        noScript: longCopy("Shown when the visitor's browser runs no JavaScript.", "Turn on JavaScript to accept your invitation."),
      })
      .meta({
        description:
          "The /invite/ page, where invitation links lead while launch.productSignupUrl is empty: on npm start it accepts the invitation, on the live site it accepts nothing.",
      }),
    leaderboard: z
      .strictObject({
        pageTitle: copy("The browser tab title of the /leaderboard/ page.", "Top referrers | PickFund"),
        heading: copy("The heading of the /leaderboard/ page.", "Top referrers"),
        intro: longCopy(
          "The sentence under the heading. Names are shown as first name and last initial, never an e-mail address.",
          "The people who brought the most friends to the waitlist. Names are shortened to a first name and last initial.",
        ),
        size: wholeNumber("How many people the leaderboard shows (the top N).", 10, 1, 100),
        columns: z
          .strictObject({
            rank: copy("The heading of the column with each person's place on the board.", "Rank"),
            name: copy("The heading of the column with each person's shortened name.", "Name"),
            referrals: copy("The heading of the column with how many friends each person brought.", "Friends joined"),
          })
          .meta({ description: "The leaderboard table's column headings." }),
        empty: longCopy(
          "Shown instead of the table while nobody has referred a friend yet.",
          "Nobody has brought a friend yet. Share your link and be the first on the board.",
        ),
        unavailable: longCopy(
          "Shown when the leaderboard cannot be loaded right now (no connection, or the service is busy).",
          "The leaderboard can't be loaded right now. Check your connection and try again in a minute.",
        ),
        noScript: longCopy(
          "Shown instead of the table when the visitor's browser runs no JavaScript (the page needs it to load the board).",
          "Turn on JavaScript to see the leaderboard.",
        ),
        joinLink: copy("The link to the signup page under the leaderboard.", "Join the waitlist"),
      })
      .meta({ description: "The /leaderboard/ page: the top referrers, names shortened, with how many friends each brought." }),
    transparency: z
      .strictObject({
        pageTitle: copy("The browser tab title of the /transparency/ page.", "Transparency | PickFund"),
        heading: copy("The heading of the /transparency/ page.", "Transparency"),
        intro: longCopy(
          "The sentence under the heading: what the page shows and why anyone can check it.",
          "What happens on the waitlist, week by week, every giveaway draw, and a signed record of what our operators did, so anyone can check we keep our word.",
        ),
        updated: copyWithPlaceholder(
          "{time}",
          "when the record was last written",
          "The line saying how fresh the record is.",
          "Updated {time}",
        ),
        loading: copy("Shown while the record loads.", "Loading the record…"),
        unavailable: longCopy(
          "Shown when the record cannot be loaded (not written yet, no connection, or the service is busy).",
          "The record can't be loaded right now. Try again in a few minutes.",
        ),
        noScript: longCopy(
          "Shown when the visitor's browser runs no JavaScript, above the links to the record's files.",
          "Turn on JavaScript to see the record here, or open its files:",
        ),
        reportLink: copy("The link to the whole record as a JSON file.", "The record (JSON)"),
        checkpointLink: copy("The link to the audit log's latest checkpoint file.", "The latest checkpoint"),
        weeks: z
          .strictObject({
            heading: copy("The heading of the weekly counts.", "Week by week"),
            note: longCopy(
              "The sentence under it: which time zone the weeks are in and what the counts mean.",
              "Weeks run Monday to Sunday in the launch's time zone. Signups count the people still on the list; an erased person leaves no trace here.",
            ),
            columns: z
              .strictObject({
                week: copy("The heading of the column with each week's Monday.", "Week of"),
                signups: copy("The heading of the column with the week's signups.", "Signups"),
                confirmed: copy("The heading of the column with how many of them confirmed their address.", "Confirmed"),
                disqualified: copy("The heading of the column with the operators' disqualifications.", "Disqualified"),
                erased: copy("The heading of the column with the erasures.", "Erased"),
                invited: copy("The heading of the column with the invitations sent.", "Invited"),
              })
              .meta({ description: "The weekly table's column headings." }),
            empty: copy("Shown instead of the table before the first signup.", "Nothing to count yet."),
          })
          .meta({ description: "Counts per week: signups, confirmations, disqualifications, erasures and invitations." }),
        draws: z
          .strictObject({
            heading: copy("The heading of the list of giveaway draws.", "Giveaway draws"),
            note: longCopy(
              "The sentence under it: every draw ever announced stays listed.",
              "Every draw we ever announced stays here with its state, so none can quietly disappear and be run again.",
            ),
            columns: z
              .strictObject({
                draw: copy("The heading of the column with the draw's id.", "Draw"),
                state: copy("The heading of the column with the draw's state.", "State"),
                cutoff: copy("The heading of the column with when entries closed.", "Entries closed"),
                entrants: copy("The heading of the column with how many people were in the committed list.", "Entrants"),
                listHash: copy("The heading of the column with the committed list's SHA-256.", "List fingerprint (SHA-256)"),
              })
              .meta({ description: "The draws table's column headings." }),
            states: z
              .strictObject({
                announced: copy("A draw whose rules are published and nothing committed yet.", "Announced"),
                committing: copy("A draw whose list of entrants is being built.", "Closing entries"),
                committed: copy("A draw whose list and drand round are published, not drawn yet.", "Committed"),
                drawn: copy("A draw whose winners are drawn.", "Drawn"),
                failed: copy("A draw whose commitment stopped before anything was published.", "Stopped"),
              })
              .meta({ description: "The words for each state of a draw." }),
            replacedBy: copyWithPlaceholder(
              "{draw}",
              "the id of the draw announced now",
              "Added to a draw that was never drawn and is no longer the one announced.",
              "Replaced by {draw} before it was drawn.",
            ),
            failure: copyWithPlaceholder(
              "{reason}",
              "the reason the service recorded (a short code)",
              "Added to a stopped draw: why its commitment stopped.",
              "Stopped before publishing: {reason}.",
            ),
            empty: copy("Shown instead of the table before any draw is announced.", "No draw announced yet."),
          })
          .meta({ description: "Every giveaway draw ever announced or committed, with its state." }),
        auditLog: z
          .strictObject({
            heading: copy("The heading of the audit log's checkpoint.", "The operators' audit log"),
            intro: longCopy(
              "What the audit log and its checkpoint are, in plain words.",
              "Every action our operators take is written to a log in which each entry is chained to the one before and signed with a key only our service holds. This signed checkpoint names the log's latest entry: save it, and you can later prove whether any entry up to it was changed or removed.",
            ),
            size: copyWithPlaceholder(
              "{size}",
              "the number of entries in the log at the checkpoint",
              "The line saying how many entries the checkpoint covers (the number may be 1: word it so that any number reads right).",
              "Entries in the log at this checkpoint: {size}.",
            ),
            keyLabel: copy("The label of the key that checks the checkpoint and every entry.", "Verifier key"),
            checkpointLabel: copy("The label of the checkpoint itself.", "Latest checkpoint"),
            howToCheck: longCopy(
              "How an operator or anyone with a copy of the database checks the log against a saved checkpoint.",
              "To check: save this checkpoint and the key. Later, anyone holding the database runs npm run waitlist -- audit verify --key KEY --checkpoint FILE; it names the first entry changed, removed or written without our key. Every earlier checkpoint stays at /transparency/checkpoints/SIZE.txt.",
            ),
          })
          .meta({ description: "The audit log's latest signed checkpoint and how to check it." }),
        joinLink: copy("The link to the signup page under the record.", "Join the waitlist"),
      })
      .meta({
        description:
          "The /transparency/ page: counts per week, every giveaway draw with its state, and the audit log's signed checkpoint. Its figures come from the waitlist service; these are its words.",
      }),
    console: consoleSection,
    notFound: z
      .strictObject({
        pageTitle: copy("The browser tab title of the page-not-found page.", "Page not found | PickFund"),
        code: copy("The big code shown on the page-not-found page.", "404"),
        heading: copy("The heading of the page-not-found page.", "Oops! Page not found"),
        homeLink: copy("The link back to the signup page.", "Return to Home"),
        consoleMessage: copy(
          "Logged to the browser console before the missing path (for developers).",
          "404 Error: User attempted to access non-existent route:",
        ),
      })
      .meta({ description: "The page shown for addresses that do not exist." }),
    errorScreen: z
      .strictObject({
        pageTitle: copy("The browser tab title when a page fails.", "Something went wrong | PickFund"),
        title: copy("The heading shown when a page fails unexpectedly.", "Unexpected Application Error!"),
      })
      .meta({ description: "The screen shown if a page crashes." }),
    consent: z
      .strictObject({
        message: longCopy(
          "The consent banner's question (only shown when a pixel id is set).",
          "May we use a Meta pixel to measure our ads?",
        ),
        accept: copy("The accept button's text.", "Accept"),
        decline: copy("The decline button's text.", "Decline"),
      })
      .meta({ description: "The cookie/pixel consent banner." }),
    decorations: z
      .strictObject({
        odds: z
          .array(copy("One odds-style number.", "+150"))
          .min(1, { error: "Give at least one odds number." })
          .max(12, { error: "Give at most 12 odds numbers; more would crowd the page." })
          .meta({
            description: "The odds-style numbers floating in the background (decoration only).",
            examples: [["+150", "-110", "2.50"]],
          }),
        pauseLabel: copy("The button below the page, in its footer, that stops the floating background.", "Pause background animation"),
        playLabel: copy("The same button's text once the background is stopped.", "Play background animation"),
      })
      .meta({ description: "Background decoration." }),
  })
  .meta({
    title: "Site content",
    description:
      "Everything a visitor reads on the site, and the settings behind it. Editing guide: CONTENT.md (what each field changes, how to preview, how to check). Check your edits before publishing: npm run check-content.",
  });

const REFERRALS_NEED_SERVICE_MESSAGE = `The referral program runs on our own signup service, so it needs provider.transport: ${REFERRALS_TRANSPORT}. With client-api or legacy-form, signups go straight to Klaviyo, which gives nobody a referral link or a place in line. Set enabled: false, or switch provider.transport to ${REFERRALS_TRANSPORT}.`;

/** The whole content file: its fields, and the rules that join two sections. */
export const siteContentSchema = siteContentFields
  .superRefine((content, ctx) => {
    if (content.referrals.enabled && !runsReferralProgram(content.provider.transport)) {
      ctx.addIssue({ code: "custom", path: ["referrals", "enabled"], message: REFERRALS_NEED_SERVICE_MESSAGE });
    }
  })
  .meta({
    ...siteContentFields.meta(),
    // The rule of the superRefine above, for editor tooling: referrals.enabled: true needs the waitlist service's transport.
    if: { required: ["referrals"], properties: { referrals: { required: ["enabled"], properties: { enabled: { const: true } } } } },
    then: {
      required: ["provider"],
      properties: { provider: { required: ["transport"], properties: { transport: { const: REFERRALS_TRANSPORT } } } },
    },
  });

/** The content as written in the YAML file (before defaults). */
export type SiteContentInput = z.input<typeof siteContentSchema>;
/** The validated content (trimmed strings, defaults applied). */
export type SiteContent = z.output<typeof siteContentSchema>;

/**
 * Campaign landing pages: each `campaigns/<slug>.yaml` next to the site file becomes
 * the signup page at `/<slug>/`, with the copy it changes merged over the site file's.
 */

/** The section only campaign files have: where their signups come from, and their own search summary. */
export const campaignSectionSchema = z
  .strictObject({
    source: copy(
      `Where this campaign's signups come from, recorded with each signup as its custom source (free text, like the ad campaign's name, at most ${CUSTOM_SOURCE_MAX_CHARS} characters).`,
      "nba-ads",
      SOURCE_TOO_LONG,
    ),
    metaDescription: copy(
      "This page's own summary for search engines and shared links. Left out: the site's site.metaDescription.",
      "Join the PickFund waitlist from our NBA ads: get funded to pick basketball.",
    ).optional(),
  })
  .meta({ description: "What makes this campaign page its own: the source its signups are recorded under, and its search summary." });

/**
 * Fields a campaign file may not set, and why (the plain-English reason the check
 * gives). Settings that decide where signups go, when the site launches and what the
 * site is stay in one place; the pages every campaign shares keep one set of words.
 */
export const SITE_WIDE_FIELDS: Readonly<Record<string, string>> = {
  site: "is site-wide: every page has the same address, brand and logo.",
  launch: "is site-wide: every page counts down to the same launch.",
  provider: "is site-wide: every page sends its signups to the same list.",
  adPixel: "is site-wide: one pixel and one consent answer cover every page.",
  success: "is the /success/ page, which every campaign leads to and shares.",
  notFound: "is the page-not-found page, which every address shares.",
  "links.discordInviteUrl": "is the invite on the /success/ page, which every campaign leads to and shares.",
  referrals:
    "is the referral program: one set of rules for everyone in line, and its words are on the /success/ and status pages every campaign shares.",
  giveaway: "is the one giveaway every signup enters, with one set of official rules.",
  draw: "is the giveaway's one draw and its page, /giveaway/draw/.",
  status: "is the status page, which every signup's personal link leads to.",
  invite: "is the /invite/ page, where every invitation link leads while the product has no sign-up page.",
  leaderboard: "is the /leaderboard/ page: one board of every referrer, whichever page they signed up on.",
  console: "is the operator's console, /console/, which no visitor sees.",
  transparency: "is the /transparency/ page: one public record of the whole waitlist.",
};

/** A copy of an object schema in which every field, at every depth, may be left out (lists stay whole). */
function everyFieldOptional(schema: z.ZodType): z.ZodType {
  if (!(schema instanceof z.ZodObject)) return schema;
  const shape = Object.fromEntries(
    Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, child]) => [key, everyFieldOptional(child).optional()]),
  );
  const result = z.strictObject(shape);
  const meta = schema.meta();
  return meta ? result.meta(meta) : result;
}

const { links } = siteContentFields.shape;
/** The sections a campaign file may set: all but the whole sections of SITE_WIDE_FIELDS, and `links`, which it sets in part. */
const pageCopy = Object.fromEntries(
  Object.entries(siteContentFields.shape).filter(([key]) => key !== "links" && !(key in SITE_WIDE_FIELDS)),
) as Record<string, z.ZodType>;

/**
 * What an editor writes in a campaign file: a `campaign` section (its `source`
 * required), and any part of the page copy, every field optional. A list replaces
 * the site file's whole list. The fields of SITE_WIDE_FIELDS are not part of it.
 */
export const campaignFileSchema = z
  .strictObject({
    campaign: campaignSectionSchema,
    links: everyFieldOptional(links.omit({ discordInviteUrl: true }).meta(links.meta() ?? {})).optional(),
    ...Object.fromEntries(Object.entries(pageCopy).map(([key, section]) => [key, everyFieldOptional(section).optional()])),
  })
  .meta({
    title: "Campaign page",
    description:
      "A campaign landing page at /<file name>/: its source, and the copy it changes from content/site.yaml. Everything left out comes from content/site.yaml. See CONTENT.md, section Campaign pages.",
  });

/** A campaign page's full content: the site file with the campaign file merged over it, plus its `campaign` section. */
export const campaignPageSchema = siteContentSchema.extend({ campaign: campaignSectionSchema });

/**
 * The content of any page node (the site's own, or a campaign's): what the GraphQL
 * type `SiteContent` is declared from. `campaign` is null on the site's own pages.
 */
export const pageContentSchema = siteContentSchema.extend({ campaign: campaignSectionSchema.optional() });

/** The `campaign` section, validated. */
export type CampaignSection = z.output<typeof campaignSectionSchema>;
/** A campaign page's merged, validated content. */
export type CampaignContent = z.output<typeof campaignPageSchema>;
