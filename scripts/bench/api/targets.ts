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
