/**
 * Scenario F of the API bench: launch day. A list of LAUNCH_SIGNUPS seeded signups (seed.ts; every UNCONFIRMED_EVERY-th
 * never confirmed, so the batch skips some), one "invite the next LAUNCH_INVITATIONS" from the console's API, and its
 * invitations followed to a Klaviyo stand-in that holds Create Event to Klaviyo's limits (burst and steady, 429 with
 * Retry-After) and answers 500 to everything for LAUNCH_OUTAGE_S once half are sent. Reported: the send rate as a
 * share of the steady limit, invitations lost and sent twice (distinct unique_ids at the stand-in = invitations, and no
 * person with two), and the rows D1 read choosing the batch, sending one invitation and loading the Launch screen.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BatchAnswer, LaunchAnswer, LaunchPreview } from "../../../shared/api/launch";
import { LAUNCH_BATCHES_ENDPOINT, LAUNCH_ENDPOINT, LAUNCH_PREVIEW_ENDPOINT } from "../../../shared/launch";
import { logLines } from "../../lib/wrangler";
import { callConsole, OPERATOR_VARS } from "./console-call";
import { percentile } from "./load";
import { fmtCount, fmtS, info, type Check, type ScenarioReport } from "./report";
import { seedLocalD1 } from "./seed";
import { startBenchService, type BenchAssets, type BenchService } from "./service";
import {
  CHOOSING_ROWS_PER_INVITATION_MAX,
  DELIVERY_POLL_MS,
  KLAVIYO_EVENTS_BURST_PER_S,
  KLAVIYO_EVENTS_STEADY_PER_MIN,
  LAUNCH_RATE_SHARE_MIN,
  LAUNCH_SCREEN_ROWS_READ_MAX,
  LAUNCH_WAIT_SLACK_MS,
  SEND_ROWS_READ_MAX,
  UNCONFIRMED_EVERY,
} from "./targets";

/** The seed of the seeded referral graph (C's, so the same lists). */
const SEED = 1;

/** What F is run with (targets.ts: the defaults; run.ts: the flags). */
export interface LaunchOptions {
  signups: number;
  invitations: number;
  outageS: number;
}

/** A `launch_messages` log line (worker/src/launch/send.ts): one queue batch's launch messages and the rows it read. */
interface LaunchMessagesLine {
  events: number;
  runs: number;
  rowsRead: number;
}

/** What the stand-in took of the batch's invitations. */
interface Taken {
  /** The first time each unique_id was taken (ms since the epoch). */
  firstAt: Map<string, number>;
  /** Events taken again with a unique_id already taken (Klaviyo records those once). */
  repeats: number;
  /** People (by address) with events of more than one unique_id: e-mailed twice. */
  peopleTwice: number;
}

/** The invitation events the stand-in took, by unique_id, for the invitation metric. */
function taken(service: BenchService, metric: string): Taken {
  const firstAt = new Map<string, number>();
  const idsByPerson = new Map<string, Set<string>>();
  let repeats = 0;
  for (const event of service.klaviyo.events) {
    if (event.metric !== metric || event.uniqueId === null) continue;
    if (firstAt.has(event.uniqueId)) repeats += 1;
    else firstAt.set(event.uniqueId, event.at);
    const person = (event.email ?? "").toLowerCase();
    idsByPerson.set(person, (idsByPerson.get(person) ?? new Set()).add(event.uniqueId));
  }
  return { firstAt, repeats, peopleTwice: [...idsByPerson.values()].filter((ids) => ids.size > 1).length };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * F: seed, invite the next `invitations`, follow them to the stand-in through its limits and an outage in the middle.
 * @param logDir where wrangler's output goes (F.log)
 */
export async function scenarioF(assets: BenchAssets, options: LaunchOptions, logDir: string): Promise<ScenarioReport> {
  const { signups, invitations, outageS } = options;
  const metric = assets.settings.launch.invitationMetric;
  const title =
    `Launch: ${fmtCount(invitations)} invitations at ${fmtCount(signups)} signups, Klaviyo's limits ` +
    `(${KLAVIYO_EVENTS_BURST_PER_S}/s, ${fmtCount(KLAVIYO_EVENTS_STEADY_PER_MIN)}/min), 500 for ${outageS} s halfway`;
  const persistTo = await mkdtemp(path.join(os.tmpdir(), "bench-api-launch-"));
  let service: BenchService | null = null;
  try {
    console.log(`  seeding ${fmtCount(signups)} signups (every ${UNCONFIRMED_EVERY}th unconfirmed)…`);
    const seeded = await seedLocalD1(persistTo, {
      signups,
      placesPerReferral: assets.settings.referrals.placesPerReferral,
      seed: SEED,
      confirmation: { unconfirmedEvery: UNCONFIRMED_EVERY },
    });
    service = await startBenchService({ assets, persistTo, logFile: path.join(logDir, "F.log"), vars: OPERATOR_VARS });
    service.klaviyo.rateLimit("create_event", {
      burstPerSecond: KLAVIYO_EVENTS_BURST_PER_S,
      steadyPerMinute: KLAVIYO_EVENTS_STEADY_PER_MIN,
    });
    const origin = service.consoleOrigin;
    const screenBefore = await callConsole<LaunchAnswer>(origin, LAUNCH_ENDPOINT);
    const preview = await callConsole<LaunchPreview>(origin, `${LAUNCH_PREVIEW_ENDPOINT}?count=${invitations}`);

    console.log(`  inviting the next ${fmtCount(invitations)}…`);
    const startedAt = Date.now();
    const batch = await callConsole<BatchAnswer>(origin, LAUNCH_BATCHES_ENDPOINT, {
      body: { count: invitations, reason: "Launch day (bench)", idempotencyKey: preview.answer.idempotencyKey },
      expected: 201,
    });
    const batchId = batch.answer.batch.id;

    // Followed at the stand-in, in this process; the outage starts once half the invitations are taken.
    const waitMs = (invitations / KLAVIYO_EVENTS_STEADY_PER_MIN) * 60_000 + outageS * 1000 + LAUNCH_WAIT_SLACK_MS;
    let outageAt: number | null = null;
    let screenDuring: Awaited<ReturnType<typeof callConsole<LaunchAnswer>>> | null = null;
    let seen = taken(service, metric);
    while (seen.firstAt.size < invitations && Date.now() - startedAt < waitMs) {
      if (outageAt === null && seen.firstAt.size >= invitations / 2) {
        service.klaviyo.failFor({ seconds: outageS });
        outageAt = Date.now();
        console.log(`  ${fmtCount(seen.firstAt.size)} taken after ${fmtS(outageAt - startedAt)}: Klaviyo answers 500 for ${outageS} s…`);
        screenDuring = await callConsole<LaunchAnswer>(origin, LAUNCH_ENDPOINT);
      }
      await sleep(DELIVERY_POLL_MS);
      seen = taken(service, metric);
    }
    const waitedMs = Date.now() - startedAt;
    const screenAfter = await callConsole<LaunchAnswer>(origin, LAUNCH_ENDPOINT);

    // D1 once the run is over: the bench's reader is a second process on the service's database file.
    const made = await service.d1.query<{ id: string; person_id: string; send_state: string; send_attempts: number }>(
      "SELECT id, person_id, send_state, send_attempts FROM invitations WHERE batch_id = ?1",
      batchId,
    );
    const lost = made.filter(({ id }) => !seen.firstAt.has(id)).length;
    const madeIds = new Set(made.map(({ id }) => id));
    const strangers = [...seen.firstAt.keys()].filter((id) => !madeIds.has(id)).length;
    const peopleInvitedTwice = made.length - new Set(made.map(({ person_id }) => person_id)).size;
    const states = made.reduce<Record<string, number>>(
      (counts, { send_state }) => ({ ...counts, [send_state]: (counts[send_state] ?? 0) + 1 }),
      {},
    );
    const attempts = made.reduce((sum, row) => sum + row.send_attempts, 0);

    const takenAt = [...seen.firstAt.values()];
    const lastAt = takenAt.length > 0 ? Math.max(...takenAt) : Number.NaN;
    const sendingMs = lastAt - startedAt - (outageAt === null ? 0 : outageS * 1000);
    const perMinute = (seen.firstAt.size / sendingMs) * 60_000;
    const share = perMinute / KLAVIYO_EVENTS_STEADY_PER_MIN;
    // Invitations taken in each 10 s from the request: where the batch idles (behind Retry-After, or its backoff after the outage).
    const takenPer10S = Array.from(
      { length: Math.ceil((lastAt - startedAt) / 10_000) || 0 },
      (_, slot) => takenAt.filter((at) => at - startedAt >= slot * 10_000 && at - startedAt < (slot + 1) * 10_000).length,
    );
    const received = service.klaviyo.received.filter((request) => request.operation === "create_event");
    const throttled = received.filter((request) => request.status === 429).length;
    const failed = received.filter((request) => request.status === 500).length;

    const lines = logLines<LaunchMessagesLine>(service.output(), "launch_messages");
    const perEvent = lines.filter((line) => line.runs === 0 && line.events > 0).map((line) => line.rowsRead / line.events);
    const runRows = lines.filter((line) => line.runs > 0).reduce((sum, line) => sum + line.rowsRead, 0);
    const firstRun = batch.answer.batch;
    const skippedInRequest = Object.values(firstRun.skipped).reduce((sum, n) => sum + n, 0);
    const choosingBound = CHOOSING_ROWS_PER_INVITATION_MAX * firstRun.invited + skippedInRequest;
    const screens = [screenBefore, screenDuring, screenAfter].flatMap((call) => (call?.rowsRead == null ? [] : [call.rowsRead]));
    const finalBatch = screenAfter.answer.batches.find((entry) => entry.id === batchId);

    const checks: Check[] = [
      info(
        "preview",
        `${fmtCount(preview.answer.count)}, places ${preview.answer.firstPlace}–${preview.answer.lastPlace}, skipped ` +
          `${Object.entries(preview.answer.skipped)
            .map(([reason, n]) => `${reason} ${n}`)
            .join(", ")}; rows read ${fmtCount(preview.rowsRead ?? Number.NaN)}`,
      ),
      info(
        "invitations made (D1)",
        `${fmtCount(made.length)}; send_state ${Object.entries(states)
          .map(([state, n]) => `${state} ${n}`)
          .join(", ")}`,
      ),
      {
        figure: "send rate, outage left out (share of the steady limit)",
        value: `${fmtCount(Math.round(perMinute))}/min (${Math.round(share * 100)} %)`,
        target: `≥ ${LAUNCH_RATE_SHARE_MIN * 100} % of ${fmtCount(KLAVIYO_EVENTS_STEADY_PER_MIN)}/min`,
        pass: share >= LAUNCH_RATE_SHARE_MIN,
      },
      info("Create Event requests throttled (429)", `${fmtCount(throttled)} of ${fmtCount(received.length)}`),
      info("taken per 10 s from the request", takenPer10S.join(" ")),
      info("time to the last invitation", `${fmtS(lastAt - startedAt)} (waited ${fmtS(waitedMs)})`),
      {
        figure: "distinct unique_ids taken = invitations",
        value: `${fmtCount(seen.firstAt.size)} = ${fmtCount(made.length)}`,
        target: `= ${fmtCount(invitations)}`,
        pass: seen.firstAt.size === invitations && made.length === invitations && strangers === 0,
      },
      { figure: "invitations lost", value: fmtCount(lost), target: "0", pass: lost === 0 && made.length === invitations },
      {
        figure: "sent twice (people with two unique_ids; two invitations in D1)",
        value: `${fmtCount(seen.peopleTwice)}; ${fmtCount(peopleInvitedTwice)}`,
        target: "0; 0",
        pass: seen.peopleTwice === 0 && peopleInvitedTwice === 0,
      },
      info("events repeated with a taken unique_id (recorded once)", fmtCount(seen.repeats)),
      info("Create Event requests answered 500", fmtCount(failed)),
      info("attempts in D1", fmtCount(attempts)),
      {
        figure: `rows read choosing, in the request (${fmtCount(firstRun.invited)} invited, ${fmtCount(skippedInRequest)} skipped)`,
        value: fmtCount(batch.rowsRead ?? Number.NaN),
        target: `≤ ${CHOOSING_ROWS_PER_INVITATION_MAX} × invited + skipped (${fmtCount(choosingBound)})`,
        pass: batch.rowsRead !== null && batch.rowsRead <= choosingBound,
      },
      info("rows read by the queued batch runs (with their queue batch's events)", fmtCount(runRows)),
      {
        figure: `rows read sending one (median ${(percentile(perEvent, 50) || 0).toFixed(1)}, of ${fmtCount(perEvent.length)} queue batches)`,
        value: perEvent.length ? `max ${Math.max(...perEvent).toFixed(1)}` : "no launch_messages lines",
        target: `≤ ${SEND_ROWS_READ_MAX}`,
        pass: perEvent.length > 0 && Math.max(...perEvent) <= SEND_ROWS_READ_MAX,
      },
      {
        figure: "rows read by the Launch screen (before, during, after)",
        value: screens.map(fmtCount).join(", ") || "no Server-Timing",
        target: `≤ ${fmtCount(LAUNCH_SCREEN_ROWS_READ_MAX)}`,
        pass: screens.length === 3 && Math.max(...screens) <= LAUNCH_SCREEN_ROWS_READ_MAX,
      },
      info(
        "the batch on the Launch screen after",
        finalBatch
          ? `${finalBatch.state}: sent ${fmtCount(finalBatch.sent)}, failed ${finalBatch.failed}, queued ${finalBatch.queued}`
          : "not listed",
      ),
      {
        figure: "stand-in answers off Klaviyo's description",
        value: fmtCount(service.klaviyo.problems.length),
        target: "0",
        pass: service.klaviyo.problems.length === 0,
      },
    ];
    return {
      id: "F",
      title,
      checks,
      notes: [
        `Seeded by seed.ts (seed ${SEED}) in ${fmtS(seeded.elapsedMs)}; the batch made by POST ${LAUNCH_BATCHES_ENDPOINT} (its first pages in the request, the rest`,
        "by the delivery queue), its events sent by the same queue (batches of 10) to the stand-in, which takes Create Event in fixed windows",
        `of a second and a minute and answers 429 with Retry-After past them. The outage began ${outageAt === null ? "never (not half taken)" : `after ${fmtS(outageAt - startedAt)}`}.`,
        "Send rate: unique_ids taken ÷ (time from the request to the last one taken − the outage), against 3,500/min. Klaviyo's windows",
        "are clock minutes, so a batch of a few minutes can pass 100 % (the rest of one minute and the whole next); a long batch cannot.",
        "Rows read: Server-Timing for the requests; the Worker's launch_messages log line (D1's meta.rows_read per queue batch) for",
        "the queue.",
      ],
      figures: {
        signups,
        invitations,
        outageS,
        seedMs: seeded.elapsedMs,
        batchId,
        preview: { ...preview.answer, rowsRead: preview.rowsRead, ms: preview.ms },
        request: { ms: batch.ms, rowsRead: batch.rowsRead, batch: firstRun },
        taken: seen.firstAt.size,
        made: made.length,
        states,
        lost,
        strangers,
        peopleTwice: seen.peopleTwice,
        peopleInvitedTwice,
        repeats: seen.repeats,
        createEventRequests: received.length,
        throttled,
        failed,
        attempts,
        startedAt,
        outageAt,
        lastAt,
        waitedMs,
        perMinute,
        share,
        takenPer10S,
        rowsReadPerEvent: {
          median: percentile(perEvent, 50),
          max: perEvent.length ? Math.max(...perEvent) : null,
          batches: perEvent.length,
        },
        runRows,
        launchScreenRowsRead: screens,
      },
    };
  } finally {
    await service?.stop();
    await rm(persistTo, { recursive: true, force: true });
  }
}
