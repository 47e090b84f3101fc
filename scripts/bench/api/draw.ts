/**
 * Scenario G of the API bench: the giveaway draw's commitment at 10,000 / 100,000 / 1,000,000 seeded signups (seed.ts;
 * every UNCONFIRMED_EVERY-th never confirmed, so left out). Per size, the content's draw with its cut-off moved to the
 * moment after seeding (so that entries are closed and the round is still ahead), committed through the console's API
 * as the console's button does, the job (worker/src/draw/job.ts, one queue step per message) followed to its published
 * list. Reported: the commit's wall time, the rows D1 read (the request's Server-Timing and each step's `draw_step` log
 * line), each step's wall time (wrangler's QUEUE line: workerd does not report CPU time locally), the list's bytes, the
 * draw page's HTML bytes, scripts/giveaway/verify.ts's time against the downloaded list, and one person's proof
 * (GET /api/status/draw). Then the list drawn by a recorded round and checked in full (verify-drawn.ts): by verify.ts,
 * and by the draw page's Verify in Chromium with its CPU slowed VERIFY_PAGE_CPU_THROTTLE times.
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { gzipSync } from "node:zlib";
import type { Commitment, DrawPlace, DrawState } from "../../../shared/api/draw";
import { DRAW_COMMIT_ENDPOINT, DRAW_STATE_ENDPOINT, STATUS_DRAW_ENDPOINT } from "../../../shared/giveaway/commit";
import { commitmentPath, listPath } from "../../../shared/giveaway/list";
import { SERVICE_SETTINGS_PATH, type ServiceSettings } from "../../../shared/service-settings";
import { logLines } from "../../lib/wrangler";
import { callConsole, OPERATOR_VARS } from "./console-call";
import { percentile } from "./load";
import { fmtCount, fmtMs, fmtS, info, type Check, type ScenarioReport } from "./report";
import { seedLocalD1 } from "./seed";
import { startBenchService, type BenchAssets, type BenchService } from "./service";
import {
  DRAW_PAGE_HTML_MAX_KB_GZIP,
  UNCONFIRMED_EVERY,
  VERIFY_PAGE_CPU_THROTTLE,
  VERIFY_PAGE_MAX_S,
  VERIFY_SCRIPT_MAX_S,
  VERIFY_TARGET_SIZE,
  VERIFY_WAIT_MS,
} from "./targets";
import {
  buildDrawnSite,
  drawnCommitment,
  pageVerifiesDrawn,
  runVerify,
  scriptVerifiesDrawn,
  type DrawnSite,
  type PageRun,
  type ScriptRun,
} from "./verify-drawn";

/** The seed of the seeded referral graph (C's, so the same lists). */
const SEED = 1;

/** Pause between reads of the job's progress (ms). */
const PROGRESS_POLL_MS = 250;

/** How long one commitment may take before the bench gives up on it (ms): far beyond a million's. */
const COMMIT_WAIT_MS = 60 * 60_000;

/** The draw job's queue (wrangler.jsonc), as wrangler names it in its QUEUE lines. */
const DRAW_QUEUE = "waitlist-draw-job";

/** A `draw_step` log line (worker/src/draw/job.ts). */
interface DrawStepLine {
  step: number;
  state: string;
  rowsRead: number;
}

/** The steps of one phase of the job. */
interface PhaseFigures {
  state: string;
  steps: number;
  rowsRead: number;
  wallMsMedian: number;
  wallMsMax: number;
}

/** One size's figures. */
interface SizeFigures {
  size: number;
  seedMs: number;
  entrants: number;
  totalEntries: number;
  commitMs: number;
  requestRowsRead: number | null;
  stepsRowsRead: number;
  phases: PhaseFigures[];
  listBytes: number;
  downloadMs: number;
  verifyMs: number;
  verified: boolean;
  verifyOutput: string;
  /** verify.ts on the list drawn by the recorded round, in full. */
  drawnScript: ScriptRun;
  /** The draw page's Verify on it, the CPU slowed VERIFY_PAGE_CPU_THROTTLE times. */
  drawnPage: PageRun;
  proofBytes: number | null;
  proofHashes: number | null;
}

/**
 * Each draw_step line with the wall time wrangler printed for its queue batch (the QUEUE line that follows it: the
 * draw queue's batches hold one message).
 */
function stepsOf(output: string): (DrawStepLine & { wallMs: number | null })[] {
  // eslint-disable-next-line no-control-regex -- wrangler colours its QUEUE lines with ANSI escapes
  const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
  const steps: (DrawStepLine & { wallMs: number | null })[] = [];
  let pending: (DrawStepLine & { wallMs: number | null }) | null = null;
  for (const line of plain.split("\n")) {
    const [step] = logLines<DrawStepLine>(line, "draw_step");
    if (step) {
      pending = { ...step, wallMs: null };
      steps.push(pending);
      continue;
    }
    const queue = new RegExp(`QUEUE ${DRAW_QUEUE} \\d+/\\d+ \\((\\d+)ms\\)`).exec(line);
    if (queue && pending) {
      pending.wallMs = Number(queue[1]);
      pending = null;
    }
  }
  return steps;
}

/** The steps grouped by the job's phase, in the job's order. */
function phasesOf(steps: ReturnType<typeof stepsOf>): PhaseFigures[] {
  return ["listing", "writing", "publishing"].map((state) => {
    const of = steps.filter((step) => step.state === state);
    const walls = of.flatMap((step) => (step.wallMs === null ? [] : [step.wallMs]));
    return {
      state,
      steps: of.length,
      rowsRead: of.reduce((sum, step) => sum + step.rowsRead, 0),
      wallMsMedian: percentile(walls, 50),
      wallMsMax: walls.length ? Math.max(...walls) : Number.NaN,
    };
  });
}

/** The first lines of a run's output, on one line (what a failed check shows). */
const firstLines = (output: string) => output.trim().split("\n").slice(0, 3).join(" ");

/**
 * One size: seed, commit, follow the job, download and verify the list, read one proof; then the list drawn in the
 * drawn site, checked by the script and the page.
 */
async function commitAt(assets: BenchAssets, size: number, logDir: string, site: DrawnSite): Promise<SizeFigures> {
  const persistTo = await mkdtemp(path.join(os.tmpdir(), "bench-api-draw-"));
  const settingsFile = path.join(assets.dir, SERVICE_SETTINGS_PATH);
  const original = await readFile(settingsFile, "utf8");
  let service: BenchService | null = null;
  try {
    console.log(`  seeding ${fmtCount(size)} signups (every ${UNCONFIRMED_EVERY}th unconfirmed)…`);
    const seeded = await seedLocalD1(persistTo, {
      signups: size,
      placesPerReferral: assets.settings.referrals.placesPerReferral,
      seed: SEED,
      confirmation: { unconfirmedEvery: UNCONFIRMED_EVERY },
    });
    // Entries close now: every seeded confirmation is before it, and the round (roundDelayHours later) is ahead.
    const cutoff = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace(".000Z", "Z");
    const settings: ServiceSettings = { ...assets.settings, draw: { ...assets.settings.draw, cutoff } };
    await writeFile(settingsFile, JSON.stringify(settings));
    service = await startBenchService({ assets, persistTo, logFile: path.join(logDir, `G-${size}.log`), vars: OPERATOR_VARS });
    // The console's API on its own host; the published draw and a person's proof on the site's.
    const { origin, consoleOrigin } = service;
    const { id, winners } = settings.draw;

    console.log(`  committing draw ${id} of ${fmtCount(size)} signups…`);
    const started = performance.now();
    const request = await callConsole<DrawState>(consoleOrigin, DRAW_COMMIT_ENDPOINT, {
      body: { draw: id, winners, cutoff },
      expected: 202,
    });
    let commitment: Commitment | null = null;
    while (commitment === null) {
      const { answer } = await callConsole<DrawState>(consoleOrigin, DRAW_STATE_ENDPOINT);
      if (answer.job?.state === "failed") throw new Error(`The draw's job failed: ${answer.job.failure ?? "no reason given"}.`);
      commitment = answer.job?.commitment ?? null;
      if (commitment === null) {
        if (performance.now() - started > COMMIT_WAIT_MS) throw new Error(`The draw was not published within ${fmtS(COMMIT_WAIT_MS)}.`);
        await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
      }
    }
    const commitMs = performance.now() - started;
    const steps = stepsOf(service.output());

    const dir = await mkdtemp(path.join(os.tmpdir(), "bench-api-draw-files-"));
    try {
      const listFile = path.join(dir, "entrants.txt");
      const commitmentFile = path.join(dir, "draw.json");
      const downloadStarted = performance.now();
      const list = await fetch(`${origin}${listPath(id)}`);
      if (!list.ok || !list.body) throw new Error(`GET ${listPath(id)} answered ${list.status}`);
      await pipeline(Readable.fromWeb(list.body as WebReadableStream), createWriteStream(listFile));
      const downloadMs = performance.now() - downloadStarted;
      await writeFile(commitmentFile, await (await fetch(`${origin}${commitmentPath(id)}`)).text());
      console.log(`  verifying ${fmtCount(commitment.n)} lines with scripts/giveaway/verify.ts…`);
      // Against the rules the bench's site publishes (its cut-off moved), as a visitor's run reads them.
      const verify = await runVerify([commitmentFile, "--list", listFile, "--settings", settingsFile], VERIFY_WAIT_MS);

      console.log(`  drawing the list by a recorded drand round, then verifying it with the script and the page…`);
      const published = JSON.parse(await readFile(commitmentFile, "utf8")) as Commitment;
      const drawn = await drawnCommitment(published, listFile, settings.draw.chain, site.rules);
      await site.publish(drawn, listFile);
      const drawnScript = await scriptVerifiesDrawn(site, drawn, VERIFY_WAIT_MS);
      const drawnPage = await pageVerifiesDrawn(site, VERIFY_PAGE_CPU_THROTTLE, VERIFY_WAIT_MS);

      const sampled = JSON.parse(await readFile(path.join(persistTo, "seed-sample.json"), "utf8")) as {
        seq: number;
        statusToken: string;
      }[];
      const entrant = sampled.find((person) => person.seq % UNCONFIRMED_EVERY !== 0);
      let proofBytes: number | null = null;
      let proofHashes: number | null = null;
      if (entrant) {
        const proof = await fetch(`${origin}${STATUS_DRAW_ENDPOINT}`, {
          headers: { origin, authorization: `Bearer ${entrant.statusToken}` },
        });
        const text = await proof.text();
        if (proof.status !== 200) throw new Error(`GET ${STATUS_DRAW_ENDPOINT} answered ${proof.status}: ${text.slice(0, 300)}`);
        proofBytes = Buffer.byteLength(text);
        proofHashes = (JSON.parse(text) as DrawPlace).path.length;
      }
      return {
        size,
        seedMs: seeded.elapsedMs,
        entrants: commitment.n,
        totalEntries: commitment.totalEntries,
        commitMs,
        requestRowsRead: request.rowsRead,
        stepsRowsRead: steps.reduce((sum, step) => sum + step.rowsRead, 0),
        phases: phasesOf(steps),
        listBytes: (await stat(listFile)).size,
        downloadMs,
        verifyMs: verify.ms,
        verified: verify.code === 0,
        verifyOutput: firstLines(verify.output),
        drawnScript,
        drawnPage,
        proofBytes,
        proofHashes,
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    await service?.stop();
    await writeFile(settingsFile, original);
    await rm(persistTo, { recursive: true, force: true });
  }
}

/**
 * A check of a drawn draw's verification: "verified" at every size, and within `maxS` at VERIFY_TARGET_SIZE too.
 * @param ms the verification's wall time
 * @param outcome whether it said verified, and what it said
 */
function drawnCheck(figure: string, size: number, ms: number, maxS: number, outcome: { verified: boolean; said: string }): Check {
  const held = size === VERIFY_TARGET_SIZE;
  return {
    figure,
    value: `${fmtS(ms)}: ${outcome.verified ? "verified" : outcome.said}`,
    target: held ? `verified, ≤ ${maxS} s` : "verified",
    pass: outcome.verified && (!held || ms <= maxS * 1000),
  };
}

/**
 * G: the draw's commitment at each size.
 * @param logDir where each size's wrangler output goes (G-<size>.log)
 */
export async function scenarioG(assets: BenchAssets, sizes: number[], logDir: string): Promise<ScenarioReport> {
  const page = await readFile(path.join(assets.dir, "giveaway", "draw", "index.html"));
  const pageGzipKb = gzipSync(page).length / 1024;
  const perSize: SizeFigures[] = [];
  console.log("  building the site with its draw's rules naming a recorded drand round (for the page's Verify)…");
  const { chain, id, cutoff, winners, roundDelayHours } = assets.settings.draw;
  const site = await buildDrawnSite(
    chain,
    { id, cutoff, winners, roundDelayHours },
    createWriteStream(path.join(logDir, "G-drawn-build.log")),
  );
  try {
    for (const size of [...sizes].sort((a, b) => a - b)) perSize.push(await commitAt(assets, size, logDir, site));
  } finally {
    await site.remove();
  }

  const checks: Check[] = [
    {
      figure: "the draw page's HTML (/giveaway/draw/, the same at any size)",
      value: `${fmtCount(page.length)} B (${pageGzipKb.toFixed(1)} KB gzip)`,
      target: `≤ ${DRAW_PAGE_HTML_MAX_KB_GZIP} KB gzip`,
      pass: pageGzipKb <= DRAW_PAGE_HTML_MAX_KB_GZIP,
    },
  ];
  for (const figures of perSize) {
    const at = `@ ${fmtCount(figures.size)}`;
    checks.push(
      info(`entrants (entries) ${at}`, `${fmtCount(figures.entrants)} (${fmtCount(figures.totalEntries)})`),
      info(`commit's wall time, request to published ${at}`, fmtS(figures.commitMs)),
      info(
        `rows read ${at}: request + steps`,
        `${fmtCount(figures.requestRowsRead ?? Number.NaN)} + ${fmtCount(figures.stepsRowsRead)} = ` +
          fmtCount((figures.requestRowsRead ?? 0) + figures.stepsRowsRead),
      ),
      ...figures.phases.map((phase) =>
        info(
          `  ${phase.state} ${at}: steps, rows read, wall per step`,
          `${phase.steps}, ${fmtCount(phase.rowsRead)}, median ${fmtMs(phase.wallMsMedian)} / max ${fmtMs(phase.wallMsMax)}`,
        ),
      ),
      info(`list ${at}`, `${fmtCount(figures.listBytes)} B (downloaded in ${fmtS(figures.downloadMs)})`),
      {
        figure: `verify.ts against the list ${at}`,
        value: `${fmtS(figures.verifyMs)}: ${figures.verified ? "verified" : figures.verifyOutput}`,
        target: "verified",
        pass: figures.verified,
      },
      drawnCheck(`verify.ts on it drawn, in full ${at}`, figures.size, figures.drawnScript.ms, VERIFY_SCRIPT_MAX_S, {
        verified: figures.drawnScript.code === 0,
        said: figures.drawnScript.code === null ? "stopped waiting" : firstLines(figures.drawnScript.output),
      }),
      drawnCheck(
        `the page's Verify on it drawn, CPU ${VERIFY_PAGE_CPU_THROTTLE}× slower ${at}`,
        figures.size,
        figures.drawnPage.ms,
        VERIFY_PAGE_MAX_S,
        {
          verified: figures.drawnPage.result === "verified",
          said: figures.drawnPage.result,
        },
      ),
      info(
        `  the page's main-thread tasks ≥ 50 ms meanwhile ${at}: count, longest`,
        `${figures.drawnPage.longTasks}, ${fmtMs(figures.drawnPage.longestTaskMs)}`,
      ),
      info(
        `a proof (GET ${STATUS_DRAW_ENDPOINT}) ${at}`,
        figures.proofBytes === null ? "no confirmed sampled person" : `${fmtCount(figures.proofBytes)} B, ${figures.proofHashes} hashes`,
      ),
    );
  }
  return {
    id: "G",
    title: `Giveaway draw committed at ${sizes.map(fmtCount).join(" / ")} signups: wall time, rows read, steps, list, verify (drawn: script and page), proof`,
    checks,
    notes: [
      `Each size seeded by seed.ts (seed ${SEED}; ${perSize.map((s) => `${fmtCount(s.size)} in ${fmtS(s.seedMs)}`).join(", ")}), the content's draw with`,
      "its cut-off moved to just after seeding; committed by POST /api/console/draw/commit and followed on GET /api/console/draw.",
      "Wall per step: wrangler's QUEUE line for the step's message. CPU time per step is not observable in wrangler dev (workerd",
      "reports none locally), so the wall time, which includes D1 and R2, is its upper bound. verify.ts runs from a file the bench",
      "downloaded (checks listHash, merkleRoot, n, totalEntries and the rules; not drawn, so no round to check).",
      "Drawn: the same list drawn by a recorded quicknet round (the rules' cut-off moved to name it), checked in full (hashes, count,",
      "entries, rules, BLS signature, winners) by verify.ts from files and by the draw page's Verify (a build of the site naming that",
      `round, served statically; Chromium, CPU throttled ${VERIFY_PAGE_CPU_THROTTLE}× once the page has loaded; click to result). Targets at ${fmtCount(VERIFY_TARGET_SIZE)} signups.`,
    ],
    figures: { pageBytes: page.length, pageGzipKb, perSize },
  };
}
