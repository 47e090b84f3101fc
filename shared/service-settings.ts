/**
 * What the waitlist service reads from the build: `public/service-settings.json`, written by the Gatsby build when
 * `provider.transport` is `waitlist-api` and read by the Worker through its ASSETS binding. Everything in it is public
 * already (it is on the page); secrets are Worker secrets, never here. The schema is the file's one description:
 * the build's type and the Worker's check.
 */
import { z } from "zod";
import { COUNT_AFTER } from "./referral-program";

/** Launch day's defaults, where the content names none. */
export const DEFAULT_LAUNCH = {
  invitationDays: 7,
  reminderDaysBefore: 2,
  invitationMetric: "Waitlist invitation",
  reminderMetric: "Waitlist invitation reminder",
} as const;

/** The file's path in the build output (`public/`), which is also its URL path. */
export const SERVICE_SETTINGS_PATH = "/service-settings.json";

const count = (name: string, min: number) =>
  z
    .number({ error: `${name} must be a whole number of at least ${min}.` })
    .int({ error: `${name} must be a whole number of at least ${min}.` })
    .min(min, {
      error: `${name} must be a whole number of at least ${min}.`,
    });

/** The largest UTC offset a time zone has (+14:00, Kiribati), in minutes, either way. */
const MAX_UTC_OFFSET_MINUTES = 14 * 60;

/** One signup page of the build: its path, and the custom source its signups record ("" for the build's default). */
const SignupPageSchema = z.object({ path: z.string(), source: z.string() }, { error: "signupPages holds { path, source } objects." });

/** One signup page of the build. */
export type SignupPage = z.infer<typeof SignupPageSchema>;

/** The settings the Worker takes from content/site.yaml; each message names the member at fault. */
export const ServiceSettingsSchema = z.object({
  /** The site's public address, e.g. `https://example.com` (no trailing slash). */
  siteUrl: z.string({ error: "siteUrl must be text (rebuild the site)." }),
  /** The Klaviyo list id signups are subscribed to. */
  listId: z.string({ error: "listId must be text (rebuild the site)." }),
  /** Klaviyo "custom source" of a signup that names none (the page's default). */
  source: z.string({ error: "source must be text (rebuild the site)." }),
  /** Turnstile site key the page renders the widget with; null when the page has no widget. */
  turnstileSiteKey: z.string({ error: "turnstileSiteKey must be a string or null." }).nullable(),
  /** The referral program's rules (`referrals` of content/site.yaml). */
  referrals: z.object(
    {
      /** false: no codes are handed out, no `ref` is credited, /api/status and /api/leaderboard answer 404. */
      enabled: z.boolean({ error: "referrals.enabled must be true or false." }),
      /** Places one counted referral moves a person up (score = signup order − placesPerReferral × counted referrals). */
      placesPerReferral: count("referrals.placesPerReferral", 0),
      /** Giveaway entries one counted referral adds (entries = 1 + entriesPerReferral × counted referrals). */
      entriesPerReferral: count("referrals.entriesPerReferral", 0),
      /** When a referral counts: when the friend is stored, or once they confirm their address (double opt-in). */
      countAfter: z.enum(COUNT_AFTER, { error: `referrals.countAfter must be one of ${COUNT_AFTER.join(", ")}.` }),
    },
    { error: "referrals is missing (rebuild the site)." },
  ),
  draw: z.object(
    {
      /** The drand chain a giveaway draw commits to (content: `draw.chain`): its hash, public key, period (s) and genesis (s). */
      chain: z.object(
        {
          hash: z.string({ error: "draw.chain.hash must be text (rebuild the site)." }),
          publicKey: z.string({ error: "draw.chain.publicKey must be text (rebuild the site)." }),
          period: count("draw.chain.period", 1),
          genesis: count("draw.chain.genesis", 0),
        },
        { error: "draw.chain is missing (rebuild the site)." },
      ),
      /** The rules fixed before entries close (content: `draw.id`, `draw.cutoff`, `draw.winners`, `draw.roundDelayHours`). */
      id: z.string({ error: "draw.id must be text (rebuild the site)." }),
      /** ISO 8601 with its offset, as the content writes it. */
      cutoff: z.string({ error: "draw.cutoff must be text (rebuild the site)." }),
      winners: count("draw.winners", 1),
      roundDelayHours: count("draw.roundDelayHours", 1),
      /** The drand relay the Worker fetches the committed round from (content: `draw.relayUrl`). */
      relayUrl: z.string({ error: "draw.relayUrl must be text (rebuild the site)." }),
    },
    { error: "draw is missing (rebuild the site)." },
  ),
  /** Launch day (`launch` of content/site.yaml); a build from before it gets the defaults. */
  launch: z
    .object(
      {
        /** Days an invitation stays open. */
        invitationDays: count("launch.invitationDays", 1).default(DEFAULT_LAUNCH.invitationDays),
        /** Where the product takes new members (`<url>?invite=<token>`); "" while there is none: our own /invite/ page. */
        productSignupUrl: z.string({ error: "launch.productSignupUrl must be text (rebuild the site)." }).default(""),
        /** Days before expiry the one reminder event is sent; 0: none. */
        reminderDaysBefore: count("launch.reminderDaysBefore", 0).default(DEFAULT_LAUNCH.reminderDaysBefore),
        /** true: an expired invitation's place goes to the next person in line (the cron invites them). */
        backfill: z.boolean({ error: "launch.backfill must be true or false." }).default(false),
        /** The Klaviyo metric of the invitation event and of its reminder (a metric-triggered flow sends each). */
        invitationMetric: z.string({ error: "launch.invitationMetric must be text." }).default(DEFAULT_LAUNCH.invitationMetric),
        reminderMetric: z.string({ error: "launch.reminderMetric must be text." }).default(DEFAULT_LAUNCH.reminderMetric),
      },
      { error: "launch must be an object (rebuild the site)." },
    )
    .prefault({}),
  leaderboard: z.object(
    {
      /** Rows `GET /api/leaderboard` answers (the top N). */
      size: count("leaderboard.size", 1),
    },
    { error: "leaderboard is missing (rebuild the site)." },
  ),
  /**
   * The signup pages (the site's and each campaign's): a form's visitor is sent back only to one of these, and a
   * signup may name only their sources, so a stranger cannot write any other custom source into Klaviyo.
   */
  /**
   * The site's time zone as minutes east of UTC: the offset of the content's launch moment (shared/local-days.ts). The
   * operator's dashboard counts days in it. 0 (UTC) for a build from before it was written.
   */
  utcOffsetMinutes: z
    .number({ error: "utcOffsetMinutes must be a whole number of minutes (rebuild the site)." })
    .int({ error: "utcOffsetMinutes must be a whole number of minutes (rebuild the site)." })
    .min(-MAX_UTC_OFFSET_MINUTES, { error: "utcOffsetMinutes is not a UTC offset (rebuild the site)." })
    .max(MAX_UTC_OFFSET_MINUTES, { error: "utcOffsetMinutes is not a UTC offset (rebuild the site)." })
    .default(0),
  signupPages: z.array(SignupPageSchema, { error: "signupPages is missing (rebuild the site)." }).min(1, {
    error: "signupPages is empty (rebuild the site).",
  }),
});

/** The settings file's contents. */
export type ServiceSettings = z.infer<typeof ServiceSettingsSchema>;
