/**
 * Every number the API bench (`npm run bench:api`) loads the waitlist service with, and every target it holds the
 * figures to, with the reason for each. Counts are requests or signups, times ms or s as their names say.
 */

/** Signups per load run of scenarios A and B: a launch-day burst, far more than the rate limit lets one client send. */
export const LOAD_SIGNUPS = 2_000;

/** Connections kept busy at once in A, B and D: fifty visitors pressing "Join" at the same moment, again and again. */
export const LOAD_CONNECTIONS = 50;

/**
 * How long one request may wait for its answer before it counts as a timeout (s): the page's own patience with the
 * service is about this long, so an answer later than this is a failed signup for the visitor.
 */
export const REQUEST_TIMEOUT_S = 10;

/**
 * How long A waits for every signup to reach the Klaviyo stand-in (ms): the queue's batches of 10 with a 1 s batch
 * wait drain 2,000 messages in well under a minute when nothing fails, so three minutes is a bound, not a target.
 */
export const DELIVERY_WAIT_MS = 180_000;

/** How long B's Klaviyo stand-in answers 500 to every request, from the moment the load starts (s). */
export const OUTAGE_S = 30;

/**
 * How long B waits for every signup to reach the stand-in after the load (ms). The consumer backs off 5 s doubling
 * (worker/src/delivery/queue.ts: backoffDelayS), and wrangler dev's local queue (Miniflare's broker) honours
 * `retry({ delaySeconds })` with a timer, so a signup that first fails at the outage's start is retried at 5, 15 and
 * 35 s and one that fails just before its end waits at most one more doubling: everything is due within about
 * 2 × OUTAGE_S + the load's own length. Five minutes leaves room for a busy machine; a slower recovery is reported
 * as it is, never waited out.
 */
export const OUTAGE_DELIVERY_WAIT_MS = 300_000;

/** Pause between reads of the stand-in and D1 while waiting for deliveries (ms). */
export const DELIVERY_POLL_MS = 500;

/** List sizes scenario C seeds (seed.ts), unless `--sizes` names others. */
export const REFERRAL_SIZES = [10_000, 100_000, 1_000_000];

/** Requests per operation and size in C: the p99 of 1,000 answers rests on the 10 slowest, enough to be steady. */
export const LOOKUP_REQUESTS = 1_000;

/** Signups with a referral code per size in C (each one stored: the seeded list grows by this much). */
export const REFERRED_SIGNUP_REQUESTS = 500;

/**
 * Connections at once in C: a steady stream of visitors opening their status page, low enough that the figures
 * show the cost of one request at each size rather than the queueing of 2 shared cores.
 */
export const LOOKUP_CONNECTIONS = 10;

/**
 * Rows D1 may read for one position lookup (GET /api/status) at 1,000,000 signups, on every request: the rank tree
 * (worker/src/store/rank.ts) reads a few dozen rows at any size, where counting the people ahead would read up to a
 * million; D1 bills by rows read.
 */
export const STATUS_ROWS_READ_MAX = 100;

/** The list size the rows-read target is held at. */
export const STATUS_ROWS_READ_AT = 1_000_000;

/**
 * A position lookup's p99 at 1,000,000 signups ÷ its p99 at 10,000: at most 2, i.e. the lookup's cost does not grow
 * with the list (a logarithmic walk), beyond the noise of a shared machine.
 */
export const STATUS_P99_GROWTH_MAX = 2;

/** The small and the large size the growth target compares. */
export const STATUS_P99_BASE_SIZE = 10_000;
export const STATUS_P99_LARGE_SIZE = 1_000_000;

/** Signups scenario D sends at once (after the referrer's own). */
export const RACE_SIGNUPS = 1_000;

/** Of them, referred by the one referrer (every other request, so referred and unreferred signups interleave). */
export const RACE_REFERRED = 500;

/**
 * The referral rules of the bench's build: the content's, with the program on and a referral counted at signup (so
 * that C and D credit referrals without a confirmation step the bench cannot take).
 */
export const BENCH_COUNT_AFTER = "signup";

/** List sizes scenario E seeds (seed.ts), unless `--sizes` names others: the same as C's. */
export const DASHBOARD_SIZES = REFERRAL_SIZES;

/**
 * The days E's seeded signups spread over, from three signup pages: a year-long waitlist, so that "all" reads a year
 * of days (the most a dashboard load reads grows with days × sources, never with signups).
 */
export const DASHBOARD_SPAN_DAYS = 365;

/** Dashboard loads per range and size in E: the p99 of 200 answers rests on the 2 slowest. */
export const DASHBOARD_LOADS = 200;

/** Dashboard loads at once in E: a few operators with the console open, not a crowd. */
export const DASHBOARD_CONNECTIONS = 4;

/** Rows D1 may read for one dashboard load at 1,000,000 signups (every range, every load): D1 bills by rows read. */
export const DASHBOARD_ROWS_READ_MAX = 10_000;

/** A dashboard load's p99 at 1,000,000 signups (ms), locally: an operator's page that answers at once. */
export const DASHBOARD_P99_MAX_MS = 500;

/** The list size the dashboard's targets are held at. */
export const DASHBOARD_TARGET_SIZE = 1_000_000;

/**
 * Every this-many-th seeded person (by seq) never confirmed their address in F and G (seed.ts: confirmation), so an
 * invitation batch has people to skip and a draw people to leave out; 17 leaves most of the bench's sampled people
 * (every signups/1,000-th) confirmed.
 */
export const UNCONFIRMED_EVERY = 17;

/** Signups on the list when scenario F invites, unless `--launch-signups`: the million the service is benched for. */
export const LAUNCH_SIGNUPS = 1_000_000;

/** Invitations F's one batch asks for, unless `--launch-invitations`: about 3 minutes at Klaviyo's steady limit. */
export const LAUNCH_INVITATIONS = 10_000;

/** Klaviyo's rate limits on Create Event (per account, fixed windows), which F's stand-in enforces with 429 and Retry-After. */
export const KLAVIYO_EVENTS_BURST_PER_S = 350;
export const KLAVIYO_EVENTS_STEADY_PER_MIN = 3_500;

/** How long F's stand-in answers 500 to everything, from the moment half the invitations are sent (s), unless `--launch-outage-s`. */
export const LAUNCH_OUTAGE_S = 60;

/**
 * F's send rate (invitations taken by the stand-in per minute of sending, the outage left out) as a share of the steady
 * limit: at least 0.9, i.e. the batch runs at Klaviyo's limit instead of storming it or idling behind its own backoff.
 */
export const LAUNCH_RATE_SHARE_MIN = 0.9;

/** Rows choosing a batch may read per invitation made, plus one per person skipped (D1 bills by rows read). */
export const CHOOSING_ROWS_PER_INVITATION_MAX = 2;

/** Rows sending one invitation's event may read (one queue message's share of its batch's reads). */
export const SEND_ROWS_READ_MAX = 10;

/** Rows one load of the console's Launch screen (GET /api/console/launch) may read, at any size. */
export const LAUNCH_SCREEN_ROWS_READ_MAX = 10_000;

/** How long F waits for every invitation after the batch starts, beyond their time at the steady limit and the outage (ms). */
export const LAUNCH_WAIT_SLACK_MS = 300_000;

/** Entrants scenario G commits a draw of, unless `--sizes` names others: the same lists as C and E. */
export const DRAW_SIZES = REFERRAL_SIZES;

/** The draw page's HTML (the built /giveaway/draw/), gzip, at any size: a phone opens it. */
export const DRAW_PAGE_HTML_MAX_KB_GZIP = 30;

/**
 * The size (signups, G's) at which the verification targets hold: the million the draw is benched for, whose list holds
 * every confirmed entrant (1 in UNCONFIRMED_EVERY is not).
 */
export const VERIFY_TARGET_SIZE = 1_000_000;

/**
 * scripts/giveaway/verify.ts checking a drawn draw in full at VERIFY_TARGET_SIZE (s), from its files: an operator, a
 * journalist or an entrant checks a million-entrant draw while they wait, not over a coffee.
 */
export const VERIFY_SCRIPT_MAX_S = 10;

/**
 * The draw page's Verify checking the same draw in full (s), with the CPU slowed VERIFY_PAGE_CPU_THROTTLE times: a
 * visitor on a mid-range phone keeps the page open for it, and Stop is there for whoever does not.
 */
export const VERIFY_PAGE_MAX_S = 30;

/** The CPU slowdown of the page's Verify run (CDP Emulation.setCPUThrottlingRate): Lighthouse's mobile slowdown. */
export const VERIFY_PAGE_CPU_THROTTLE = 4;

/** How long G waits for one verification before it stops waiting and reports it (ms): a bound far beyond the targets. */
export const VERIFY_WAIT_MS = 10 * 60_000;
