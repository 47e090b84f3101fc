/**
 * The broken-content corpus, generated: each case is the test fixture with one
 * small patch (a line changed, added or left out) and the exact error an editor
 * must see for it. The fixture is the only whole content file, so a new required
 * field is added to the fixture alone and every case keeps testing its one mistake.
 *
 * Lines are not written down: the expected line is the first line the patch
 * changes, or the line named by `reportedAt`, found in the patched text.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FIXTURE_FILE } from "../support/content";

/**
 * One change to the fixture. `line` (and `through`, the last line of a range) are
 * whole lines of the fixture, looked for from the line `below` on; each must be
 * found, or the corpus fails loudly rather than testing the wrong place.
 */
export type Patch = { line: string; to: string[]; through?: string; below?: string } | { after: string; add: string[]; below?: string };

/** A broken file and the one error it must give. */
export interface BrokenCase {
  name: string;
  /** The mistake, in words; written at the top of the generated file. */
  mistake: string;
  patches: Patch[];
  /** The reported line, when it is not the first changed line: a whole line of the patched file. */
  reportedAt?: string;
  column: number;
  field: string;
  message: string;
}

const DISCORD_INVITE =
  "This is not a Discord invite link. Invite links look like https://discord.gg/CODE or https://discord.com/invite/CODE (Discord: Server → Invite People → Copy).";
const EMPTY_TEXT = "This text is empty. Every text shown on the page needs words.";
const NOT_TEXT = "This should be text. Put it in quotes.";
const BAD_INDENT =
  "This line's indentation does not match the lines around it. Line it up with the other fields at the same level, using spaces.";
const UNCLOSED_QUOTE = "A quote that opens here is never closed. Add the matching closing quote at the end of the text.";

const MOMENT = '  moment: "2030-06-01T12:00:00-07:00"';
const SUBTEXT = "  subtext: Get ready for exclusive content";
const TAGLINE = "  tagline: Join thousand's of profitable sports pickers & get funded without risking your own bankroll.";
const TITLE = '  title: "Fixture title: secure your spot"';
const SOCIAL_URL = "    url: https://x.com/pickfund";
const PUBLIC_KEY = "  publicApiKey: Pk7Fnd";
const TRANSPORT = "  transport: client-api";
const TURNSTILE = '  turnstileSiteKey: ""';
const SERVICE_ENDPOINT = "  endpointUrl: https://a.klaviyo.com/client/subscriptions/";
const REFERRALS_NEED_SERVICE =
  "The referral program runs on our own signup service, so it needs provider.transport: waitlist-api. With client-api or legacy-form, signups go straight to Klaviyo, which gives nobody a referral link or a place in line. Set enabled: false, or switch provider.transport to waitlist-api.";
const ODDS = '  odds: ["+150", "-110", "2.50", "+320", "-145", "1.91", "+200", "3.75"]';

/** One line of the fixture replaced by another. */
const swap = (line: string, to: string): Patch => ({ line, to: [to] });

export const BROKEN_CASES: BrokenCase[] = [
  {
    name: "date-bare",
    mistake: "launch.moment is a date without a time (and unquoted).",
    patches: [swap(MOMENT, "  moment: 2030-06-01")],
    column: 11,
    field: "launch.moment",
    message: "This is a date without a time. Add the time and the time-zone offset, like 2025-10-13T15:00:00-08:00.",
  },
  {
    name: "date-impossible",
    mistake: "launch.moment is 30 February, a day that does not exist.",
    patches: [swap(MOMENT, '  moment: "2025-02-30T15:00:00-08:00"')],
    column: 11,
    field: "launch.moment",
    message: "This date or time does not exist in the calendar (check the month, day and hour).",
  },
  {
    name: "date-space-instead-of-t",
    mistake: "launch.moment has a space instead of T between date and time, and no offset.",
    patches: [swap(MOMENT, '  moment: "2030-06-01 12:00"')],
    column: 11,
    field: "launch.moment",
    message: "Write a T between the date and the time, with no space, and end with the time-zone offset, like 2025-10-13T15:00:00-08:00.",
  },
  {
    name: "date-without-offset",
    mistake: "launch.moment has a time but no time-zone offset.",
    patches: [swap(MOMENT, '  moment: "2030-06-01T12:00:00"')],
    column: 11,
    field: "launch.moment",
    message:
      "This time has no time-zone offset, so the countdown would be wrong for visitors in other time zones. Add the offset at the end, like -08:00 for Pacific time or Z for UTC.",
  },
  {
    name: "date-words",
    mistake: "launch.moment is written in words.",
    patches: [swap(MOMENT, '  moment: "June 1st 2030, noon Pacific"')],
    column: 11,
    field: "launch.moment",
    message: "This is not a date and time in the expected form YYYY-MM-DDTHH:MM:SS±HH:MM.",
  },
  {
    name: "empty-string",
    mistake: "success.subtext is an empty text.",
    patches: [swap(SUBTEXT, '  subtext: ""')],
    column: 12,
    field: "success.subtext",
    message: EMPTY_TEXT,
  },
  {
    name: "invite-discord-channel",
    mistake: "links.discordInviteUrl is a Discord channel link, not an invite.",
    patches: [swap("  discordInviteUrl: https://discord.gg/pickfund", "  discordInviteUrl: https://discord.com/channels/1234567890")],
    column: 21,
    field: "links.discordInviteUrl",
    message: DISCORD_INVITE,
  },
  {
    name: "invite-not-discord",
    mistake: "links.inlineDiscordInviteUrl points to Telegram, not to a Discord invite.",
    patches: [swap("  inlineDiscordInviteUrl: https://discord.gg/pickfund-waitlist", "  inlineDiscordInviteUrl: https://t.me/pickfund")],
    column: 27,
    field: "links.inlineDiscordInviteUrl",
    message: DISCORD_INVITE,
  },
  {
    name: "language-code",
    mistake: "site.language is a word, not a language code.",
    patches: [swap("  language: en", "  language: English")],
    column: 13,
    field: "site.language",
    message: "Use a language code like en or en-US.",
  },
  {
    name: "list-id-format",
    mistake: "provider.listId has only 5 characters.",
    patches: [swap("  listId: WtL1st", "  listId: WtL1s")],
    column: 11,
    field: "provider.listId",
    message: "A Klaviyo list id is exactly 6 letters or digits, with no spaces.",
  },
  {
    name: "service-without-list-id",
    mistake: "provider.transport is waitlist-api, and listId is left out while demoMode is false.",
    patches: [swap(TRANSPORT, "  transport: waitlist-api"), { line: "  listId: WtL1st", to: [] }],
    reportedAt: "provider:",
    column: 1,
    field: "provider.listId",
    message:
      "The waitlist service needs listId: it subscribes every signup to that Klaviyo list. Add it, or set demoMode: true to publish a demo that collects nothing.",
  },
  {
    name: "service-with-klaviyo-endpoint",
    mistake: "provider.transport is waitlist-api, and endpointUrl names Klaviyo's Client API.",
    patches: [swap(TRANSPORT, "  transport: waitlist-api"), { after: "  source: Fixture Fund waitlist", add: [SERVICE_ENDPOINT] }],
    reportedAt: SERVICE_ENDPOINT,
    column: 16,
    field: "provider.endpointUrl",
    message:
      "With transport: waitlist-api the form always sends signups to our own service at /api/signups on the site's own address, with and without JavaScript, so endpointUrl is not used. Remove it.",
  },
  {
    name: "turnstile-without-service",
    mistake: "provider.turnstileSiteKey is set while the transport is client-api.",
    patches: [swap(TURNSTILE, "  turnstileSiteKey: 1x00000000000000000000AA")],
    column: 21,
    field: "provider.turnstileSiteKey",
    message:
      "Turnstile works only with transport: waitlist-api, because our waitlist service is what checks each visitor's Turnstile answer; Klaviyo does not. Remove turnstileSiteKey, or set transport: waitlist-api.",
  },
  {
    name: "turnstile-secret-key",
    mistake: "provider.turnstileSiteKey holds Cloudflare's (test) Turnstile SECRET key.",
    patches: [swap(TRANSPORT, "  transport: waitlist-api"), swap(TURNSTILE, "  turnstileSiteKey: 1x0000000000000000000000000000000AA")],
    reportedAt: "  turnstileSiteKey: 1x0000000000000000000000000000000AA",
    column: 21,
    field: "provider.turnstileSiteKey",
    message:
      "This looks like the Turnstile SECRET key (it is longer than a site key). Everything in this file is published to every visitor, so anyone could use it. Use the SITE key (Cloudflare dashboard → Turnstile → your widget → Site key), and rotate this secret key in Cloudflare.",
  },
  {
    name: "turnstile-site-key-format",
    mistake: "provider.turnstileSiteKey is a made-up word, not a Turnstile site key.",
    patches: [swap(TRANSPORT, "  transport: waitlist-api"), swap(TURNSTILE, "  turnstileSiteKey: my-turnstile-key")],
    reportedAt: "  turnstileSiteKey: my-turnstile-key",
    column: 21,
    field: "provider.turnstileSiteKey",
    message:
      "A Turnstile site key looks like 0x4AAAAAAADnPIDROrmt1Wwj: a digit, an x, then about 22 letters or digits, with no spaces (Cloudflare dashboard → Turnstile → your widget → Site key).",
  },
  {
    name: "logo-path",
    mistake: "site.logo.src does not start with a slash.",
    patches: [swap("    src: /logo.svg", "    src: logo.svg")],
    column: 10,
    field: "site.logo.src",
    message: "This must be the path of a file in the static folder, starting with a slash, like /logo.svg.",
  },
  {
    name: "missing-field",
    mistake: "home.tagline is left out.",
    patches: [{ line: TAGLINE, to: [] }],
    reportedAt: "home:",
    column: 1,
    field: "home.tagline",
    message: "The field `tagline` is missing from `home`. Add it on its own line in that section.",
  },
  {
    name: "missing-key-and-list-without-demo",
    mistake: "provider has no publicApiKey and no listId while demoMode is false.",
    patches: [{ line: PUBLIC_KEY, through: "  listId: WtL1st", to: [] }],
    reportedAt: "provider:",
    column: 1,
    field: "provider.publicApiKey",
    message:
      "Signups need both publicApiKey and listId; without them every signup would be thrown away. Add both, or set demoMode: true to publish a demo that collects nothing.",
  },
  {
    name: "missing-section",
    mistake: "the whole consent section is left out.",
    patches: [{ line: "consent:", through: "  decline: Decline", to: [] }],
    reportedAt: "site:",
    column: 1,
    field: "consent",
    message: "The section `consent` is missing. Add it back with its fields: message, accept, decline.",
  },
  {
    name: "missing-value",
    mistake: "success.button has no value after its colon.",
    patches: [{ below: "success:", line: "  button: JOIN DISCORD", to: ["  button:"] }],
    column: 10,
    field: "success.button",
    message: "This field has no text after its colon. Write the text, or put it in quotes.",
  },
  {
    name: "odds-empty",
    mistake: "decorations.odds is an empty list.",
    patches: [swap(ODDS, "  odds: []")],
    column: 9,
    field: "decorations.odds",
    message: "Give at least one odds number.",
  },
  {
    name: "referrals-count-after-typo",
    mistake: "referrals.countAfter is confirmed instead of confirmation.",
    patches: [swap("  countAfter: confirmation", "  countAfter: confirmed")],
    column: 15,
    field: "referrals.countAfter",
    message: '"confirmed" is not a moment a referral can count. Write confirmation (recommended) or signup.',
  },
  {
    name: "referrals-entries-fraction",
    mistake: "referrals.entriesPerReferral is 1.5, not a whole number.",
    patches: [swap("  entriesPerReferral: 1", "  entriesPerReferral: 1.5")],
    column: 23,
    field: "referrals.entriesPerReferral",
    message: "Write a whole number of 1 or more, without quotes, like 1.",
  },
  {
    name: "referrals-places-quoted",
    mistake: "referrals.placesPerReferral is a number in quotes.",
    patches: [swap("  placesPerReferral: 10", '  placesPerReferral: "10"')],
    column: 22,
    field: "referrals.placesPerReferral",
    message: "Write the number without quotes, like 10.",
  },
  {
    name: "referrals-places-zero",
    mistake: "referrals.placesPerReferral is 0: a referral would move nobody up.",
    patches: [swap("  placesPerReferral: 10", "  placesPerReferral: 0")],
    column: 22,
    field: "referrals.placesPerReferral",
    message: "Write a whole number of 1 or more, without quotes, like 10.",
  },
  {
    name: "referrals-position-without-placeholder",
    mistake: "referrals.position has lost its {position} placeholder.",
    patches: [swap(`  position: "Fixture: you're #{position} in line"`, `  position: "Fixture: you're in line"`)],
    column: 13,
    field: "referrals.position",
    message: "Keep {position} in this text: it is replaced by the visitor's place in line.",
  },
  {
    name: "referrals-share-message-without-link",
    mistake: "referrals.shareMessage has no {link} placeholder, so the shared message would carry no link.",
    patches: [
      swap(
        '  shareMessage: "I just joined the Fixture Fund waitlist. Join with my link and we both move up the line: {link}"',
        "  shareMessage: I just joined the Fixture Fund waitlist. Join me!",
      ),
    ],
    column: 17,
    field: "referrals.shareMessage",
    message: "Keep {link} in this text: it is replaced by the visitor's referral link.",
  },
  {
    name: "referrals-without-service",
    mistake: "referrals.enabled is true while provider.transport is client-api, which runs no referral program.",
    patches: [swap("  enabled: false", "  enabled: true")],
    column: 12,
    field: "referrals.enabled",
    message: REFERRALS_NEED_SERVICE,
  },
  {
    name: "giveaway-rules-http",
    mistake: "giveaway.rulesUrl uses plain http://.",
    patches: [swap("  rulesUrl: https://www.pickfund.example/giveaway-rules", "  rulesUrl: http://www.pickfund.example/giveaway-rules")],
    column: 13,
    field: "giveaway.rulesUrl",
    message: "This address starts with http://, which is not encrypted. Use https:// instead.",
  },
  {
    name: "leaderboard-size-too-big",
    mistake: "leaderboard.size is 500, more than the board shows.",
    patches: [swap("  size: 10", "  size: 500")],
    column: 9,
    field: "leaderboard.size",
    message: "Write a whole number from 1 to 100, without quotes, like 10.",
  },
  {
    name: "pixel-letters",
    mistake: "adPixel.id contains letters.",
    patches: [swap("  id: null", '  id: "12345abc678"')],
    column: 7,
    field: "adPixel.id",
    message: 'A pixel id is digits only, like "123456789012345".',
  },
  {
    name: "pixel-unquoted-number",
    mistake: "adPixel.id is an unquoted number.",
    patches: [swap("  id: null", "  id: 123456789012345")],
    column: 7,
    field: "adPixel.id",
    message: "Put the pixel id in quotes so it is read as text, not as a number.",
  },
  {
    name: "private-key",
    mistake: "provider.publicApiKey is a Klaviyo PRIVATE key (pk_...).",
    patches: [swap(PUBLIC_KEY, "  publicApiKey: pk_4f0c2d9e8b7a6f5e4d3c2b1a0f9e8d7c6b")],
    column: 17,
    field: "provider.publicApiKey",
    message:
      "This looks like a Klaviyo PRIVATE API key (it starts with pk_). Everything in this file is published to every visitor, so a private key here would let anyone control your Klaviyo account. Use the 6-character PUBLIC API key (Klaviyo: Settings → API keys → Public API key / Site ID), and revoke this private key in Klaviyo.",
  },
  {
    name: "public-key-format",
    mistake: "provider.publicApiKey has a dash and 7 characters.",
    patches: [swap(PUBLIC_KEY, "  publicApiKey: Pk7-Fnd")],
    column: 17,
    field: "provider.publicApiKey",
    message: "A Klaviyo public API key is exactly 6 letters or digits, with no spaces.",
  },
  {
    name: "source-too-long",
    mistake: "provider.source is longer than the 100 characters a custom source may have.",
    patches: [swap("  source: Fixture Fund waitlist", `  source: ${"Fixture Fund waitlist, ".repeat(5)}spring`)],
    column: 11,
    field: "provider.source",
    message:
      "A source has at most 100 characters; the waitlist service would refuse every signup with a longer one. Use a short name, like the ad campaign's.",
  },
  {
    name: "syntax-bad-indent",
    mistake: "success.subtext is indented by 3 spaces while its neighbours use 2.",
    patches: [swap(SUBTEXT, ` ${SUBTEXT}`)],
    column: 4,
    field: "",
    message:
      "This line is indented differently from the field above it, so it is read as part of the value above. Start it in the same column as the other fields of its section (2 spaces per level).",
  },
  {
    name: "syntax-dedent",
    mistake: "success.subtext is indented by 1 space instead of 2.",
    patches: [swap(SUBTEXT, SUBTEXT.slice(1))],
    column: 2,
    field: "",
    message: BAD_INDENT,
  },
  {
    name: "syntax-duplicate-key",
    mistake: "home.title is written twice in the same section.",
    patches: [{ after: TITLE, add: ["  title: Secure your spot now"] }],
    column: 3,
    field: "",
    message: "`title` appears twice in the same section. Keep only one of them (YAML would silently use just one).",
  },
  {
    name: "syntax-missing-space-after-colon",
    mistake: "success.subtext has no space after its colon.",
    patches: [swap(SUBTEXT, "  subtext:Get ready for exclusive content")],
    column: 3,
    field: "",
    message: "There is no space after the colon. Write the field name, a colon, a space, then the value, like `subtext: Get ready`.",
  },
  {
    name: "syntax-over-indent",
    mistake: "home.countdown.days is indented by 6 spaces instead of 4.",
    patches: [swap("    days: days", "      days: days")],
    column: 7,
    field: "",
    message: BAD_INDENT,
  },
  {
    name: "syntax-tab-indent",
    mistake: "home.tagline is indented with a tab character instead of spaces.",
    patches: [swap(TAGLINE, `\t${TAGLINE.trimStart()}`)],
    column: 1,
    field: "",
    message:
      "A tab character is used to indent this line. YAML only allows spaces for indentation: replace the tab with spaces (2 per level).",
  },
  {
    name: "syntax-unclosed-quote",
    mistake: "the double quote that opens home.title is never closed.",
    patches: [swap(TITLE, TITLE.slice(0, -1))],
    column: 10,
    field: "",
    message: UNCLOSED_QUOTE,
  },
  {
    name: "syntax-unclosed-list",
    mistake: "the list in decorations.odds has no closing ].",
    patches: [swap(ODDS, ODDS.slice(0, -1))],
    column: 9,
    field: "",
    message: "This list opens with [ but is never closed. Add ] at the end of it, on the same line.",
  },
  {
    name: "syntax-unquoted-colon",
    mistake: "the value of home.tagline contains ': ' without quotes.",
    patches: [swap(TAGLINE, TAGLINE.replace("Join ", "Join now: "))],
    column: 12,
    field: "",
    message:
      'This value contains a colon followed by a space, which YAML reads as the start of another field. Put the whole value in double quotes, like "Join now: get funded".',
  },
  {
    name: "theme-colour",
    mistake: "site.themeColor is a colour name, not #RRGGBB.",
    patches: [swap('  themeColor: "#0b1020"', "  themeColor: navy")],
    column: 15,
    field: "site.themeColor",
    message: "Use a colour in the form #RRGGBB, like #0b1020.",
  },
  {
    name: "unknown-key-extra",
    mistake: "home has an extra field subtitle that the site does not use.",
    patches: [{ after: TITLE, add: ["  subtitle: Get funded"] }],
    column: 3,
    field: "home.subtitle",
    message:
      "`subtitle` is not a field in `home`. Remove it, or use one of: pageTitle, title, tagline, countdown, form, privacyNote, badges, inlineSuccess.",
  },
  {
    name: "unknown-key-near-miss",
    mistake: "home.title is misspelled as titel.",
    patches: [swap(TITLE, TITLE.replace("title:", "titel:"))],
    column: 3,
    field: "home.titel",
    message: "`titel` is not a field in `home`. Did you mean `title`?",
  },
  {
    name: "unknown-section-near-miss",
    mistake: "the section toasts is misspelled as toast.",
    patches: [swap("toasts:", "toast:")],
    column: 1,
    field: "toast",
    message: "`toast` is not a section of this file. Did you mean `toasts`?",
  },
  {
    name: "unknown-section",
    mistake: "a whole section footer that the site does not know.",
    patches: [{ after: "  decline: Decline", add: ["", "footer:", "  text: Made in 2025"] }],
    reportedAt: "footer:",
    column: 1,
    field: "footer",
    message:
      "`footer` is not a section of this file. Remove it, or use one of: site, launch, provider, links, adPixel, home, toasts, success, referrals, giveaway, draw, status, invite, leaderboard, transparency, console, notFound, errorScreen, consent, decorations.",
  },
  {
    name: "transport-typo",
    mistake: "provider.transport has a typo (client-apy).",
    patches: [swap(TRANSPORT, "  transport: client-apy")],
    column: 14,
    field: "provider.transport",
    message:
      '"client-apy" is not a way of sending signups. Write waitlist-api (our own waitlist service), client-api (Klaviyo directly) or legacy-form.',
  },
  {
    name: "url-http",
    mistake: "links.social.url uses plain http://.",
    patches: [swap(SOCIAL_URL, "    url: http://x.com/pickfund")],
    column: 10,
    field: "links.social.url",
    message: "This address starts with http://, which is not encrypted. Use https:// instead.",
  },
  {
    name: "url-javascript",
    mistake: "links.social.url is a javascript: link.",
    patches: [swap(SOCIAL_URL, '    url: "javascript:alert(document.cookie)"')],
    column: 10,
    field: "links.social.url",
    message: "A javascript: link runs code instead of opening a page, so it is never allowed. Use a web address starting with https://.",
  },
  {
    name: "url-relative",
    mistake: "site.url has no https:// at the start.",
    patches: [swap("  url: https://www.pickfund.example", "  url: www.pickfund.example")],
    column: 8,
    field: "site.url",
    message: "This is not a complete web address. It must start with https:// followed by the site name.",
  },
  {
    name: "whitespace-only-string",
    mistake: "home.form.submit contains only spaces.",
    patches: [swap("    submit: Secure Spot & Access Discord", '    submit: "   "')],
    column: 13,
    field: "home.form.submit",
    message: EMPTY_TEXT,
  },
  {
    name: "wrong-type-boolean-in-quotes",
    mistake: 'provider.demoMode is written as text "false" instead of false.',
    patches: [swap("  demoMode: false", '  demoMode: "false"')],
    column: 13,
    field: "provider.demoMode",
    message: "Write true or false, without quotes.",
  },
  {
    name: "wrong-type-list-for-text",
    mistake: "home.countdown.days is a list instead of a text.",
    patches: [swap("    days: days", "    days: [days]")],
    column: 11,
    field: "home.countdown.days",
    message: NOT_TEXT,
  },
  {
    name: "wrong-type-number-for-text",
    mistake: "notFound.code is an unquoted number instead of text.",
    patches: [swap('  code: "404"', "  code: 404")],
    column: 9,
    field: "notFound.code",
    message: NOT_TEXT,
  },
  {
    name: "wrong-type-text-for-section",
    mistake: "site.logo is a text instead of a section with src and alt.",
    patches: [{ line: "  logo:", through: "    alt: PickFund logo", to: ["  logo: /logo.svg"] }],
    column: 9,
    field: "site.logo",
    message: "This should be a section: nothing after the colon, and its fields on the lines below, indented by 2 more spaces.",
  },
];

/** Files with several mistakes, all reported in one run: each patch's first changed line is one error's line. */
export const MULTIPLE_CASES = {
  "three-schema-mistakes": {
    mistake: "private key in provider.publicApiKey, http:// in links.social.url, empty success.subtext.",
    patches: [
      swap(PUBLIC_KEY, "  publicApiKey: pk_live_0123456789abcdef"),
      swap(SOCIAL_URL, "    url: http://x.com/pickfund"),
      swap(SUBTEXT, '  subtext: ""'),
    ],
  },
  "two-syntax-mistakes": {
    mistake: "success.button written twice; the quote opening notFound.code is never closed.",
    patches: [{ below: "success:", after: "  button: JOIN DISCORD", add: ["  button: Join"] }, swap('  code: "404"', "  code: '404")],
  },
} satisfies Record<string, { mistake: string; patches: Patch[] }>;

export type MultipleCaseName = keyof typeof MULTIPLE_CASES;

/** A patched fixture: its text and the 1-based line where each patch's first change landed. */
export interface PatchedFile {
  text: string;
  changedLines: number[];
}

const fixtureLines = (): string[] => readFileSync(FIXTURE_FILE, "utf8").replace(/\n$/, "").split("\n");

/**
 * Apply `patches` to the fixture, with a first line saying what is broken.
 * @throws Error when a patch's line is not in the fixture (the fixture changed under it)
 */
export function patchFixture(mistake: string, patches: Patch[]): PatchedFile {
  const lines = [`# Broken on purpose (generated by __tests__/content/corpus.ts): ${mistake}`, ...fixtureLines()];
  const find = (text: string, from: number) => {
    const index = lines.indexOf(text, from);
    if (index < 0) throw new Error(`corpus patch for "${mistake}": the fixture has no line ${JSON.stringify(text)}`);
    return index;
  };
  const changed: number[] = [];
  for (const patch of patches) {
    const from = Math.max(patch.below === undefined ? 0 : find(patch.below, 0), (changed.at(-1) ?? -1) + 1);
    if ("after" in patch) {
      const at = find(patch.after, from) + 1;
      lines.splice(at, 0, ...patch.add);
      changed.push(at);
    } else {
      const start = find(patch.line, from);
      const end = patch.through === undefined ? start : find(patch.through, start);
      lines.splice(start, end - start + 1, ...patch.to);
      changed.push(start);
    }
  }
  // Each patch is looked for below the previous one (patches are listed in file order), so a line recorded
  // above is never moved by a later patch adding or removing lines.
  return { text: `${lines.join("\n")}\n`, changedLines: changed.map((index) => index + 1) };
}

/** The 1-based number of the first line of `text` equal to `line`. */
export function lineOf(text: string, line: string): number {
  const index = text.split("\n").indexOf(line);
  if (index < 0) throw new Error(`no line ${JSON.stringify(line)} in the patched file`);
  return index + 1;
}

/** A single-mistake case's file text and the line its error must be reported on. */
export function brokenFile(testCase: BrokenCase): { text: string; line: number } {
  const { text, changedLines } = patchFixture(testCase.mistake, testCase.patches);
  return { text, line: testCase.reportedAt === undefined ? changedLines[0] : lineOf(text, testCase.reportedAt) };
}

/** A case by name. @throws Error for an unknown name */
export function brokenCase(name: string): BrokenCase {
  const found = BROKEN_CASES.find((testCase) => testCase.name === name);
  if (!found) throw new Error(`no corpus case ${name}`);
  return found;
}

/** A several-mistakes file: its text and its patches' lines, in file order. */
export function multipleFile(name: MultipleCaseName): PatchedFile {
  return patchFixture(MULTIPLE_CASES[name].mistake, MULTIPLE_CASES[name].patches);
}

/**
 * Write corpus files for tools that read from disk (the build, check-content).
 * @param folder created if missing
 * @param files file name (without .yaml) → text
 * @returns file name → path written
 */
export function writeCorpus(folder: string, files: Record<string, string>): Record<string, string> {
  mkdirSync(folder, { recursive: true });
  return Object.fromEntries(
    Object.entries(files).map(([name, text]) => {
      const file = path.join(folder, `${name}.yaml`);
      writeFileSync(file, text);
      return [name, file];
    }),
  );
}
