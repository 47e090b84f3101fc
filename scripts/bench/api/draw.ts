/**
 * Scenario G of the API bench: the giveaway draw's commitment at 10,000 / 100,000 / 1,000,000 seeded signups (seed.ts;
 * every UNCONFIRMED_EVERY-th never confirmed, so left out). Per size, the content's draw with its cut-off moved to the
 * moment after seeding (so that entries are closed and the round is still ahead), committed through the console's API
 * as the console's button does, the job (worker/src/draw/job.ts, one queue step per message) followed to its published
 * list. Reported: the commit's wall time, the rows D1 read (the request's Server-Timing and each step's `draw_step` log
 * line), each step's wall time (wrangler's QUEUE line: workerd does not report CPU time locally), the list's bytes, the
 * draw page's HTML bytes, scripts/giveaway/verify.ts's time against the downloaded list, and one person's proof
 * (GET /api/status/draw).
 */
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { gzipSync } from "node:zlib";
import { parseDocument } from "yaml";
import type { Commitment, DrawPlace, DrawState } from "../../../shared/api/draw";
import { DRAW_COMMIT_ENDPOINT, DRAW_STATE_ENDPOINT, STATUS_DRAW_ENDPOINT } from "../../../shared/giveaway/commit";
import { commitmentPath, listPath } from "../../../shared/giveaway/list";
import { SERVICE_SETTINGS_PATH, type ServiceSettings } from "../../../shared/service-settings";
import { DEFAULT_CONTENT_FILE } from "../../../src/content/derive";
import { logLines, PROJECT_DIR } from "../../lib/wrangler";
import { callConsole, OPERATOR_VARS } from "./console-call";
import { percentile } from "./load";
import { fmtCount, fmtMs, fmtS, info, type Check, type ScenarioReport } from "./report";
import { seedLocalD1 } from "./seed";
import { startBenchService, type BenchAssets, type BenchService } from "./service";
import { DRAW_PAGE_HTML_MAX_KB_GZIP, UNCONFIRMED_EVERY } from "./targets";

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

/** The content file with the draw's cut-off moved (for verify.ts, which checks a draw against the content's rules). */
async function contentWithCutoff(dir: string, cutoff: string): Promise<string> {
  const document = parseDocument(await readFile(path.join(PROJECT_DIR, DEFAULT_CONTENT_FILE), "utf8"));
  document.setIn(["draw", "cutoff"], cutoff);
  const file = path.join(dir, "site.yaml");
  await writeFile(file, document.toString());
  return file;
}

/** Run verify.ts on a commitment and its list; its time, exit code and output. */
function runVerify(args: string[]): Promise<{ ms: number; code: number | null; output: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_DIR, "scripts/giveaway/verify.ts"), ...args], {
      cwd: PROJECT_DIR,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: performance.now() - started, code, output }));
  });
}

/** One size: seed, commit, follow the job, download and verify the list, read one proof. */
async function commitAt(assets: BenchAssets, size: number, logDir: string): Promise<SizeFigures> {
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
    const origin = service.consoleOrigin;
    const { id, winners } = settings.draw;

    console.log(`  committing draw ${id} of ${fmtCount(size)} signups…`);
    const started = performance.now();
    const request = await callConsole<DrawState>(origin, DRAW_COMMIT_ENDPOINT, { body: { draw: id, winners, cutoff }, expected: 202 });
    let commitment: Commitment | null = null;
    while (commitment === null) {
      const { answer } = await callConsole<DrawState>(origin, DRAW_STATE_ENDPOINT);
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
      const content = await contentWithCutoff(dir, cutoff);
      console.log(`  verifying ${fmtCount(commitment.n)} lines with scripts/giveaway/verify.ts…`);
      const verify = await runVerify([commitmentFile, "--list", listFile, "--content", content]);

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
        verifyOutput: verify.output.trim().split("\n").slice(0, 3).join(" "),
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
 * G: the draw's commitment at each size.
 * @param logDir where each size's wrangler output goes (G-<size>.log)
 */
export async function scenarioG(assets: BenchAssets, sizes: number[], logDir: string): Promise<ScenarioReport> {
  const page = await readFile(path.join(assets.dir, "giveaway", "draw", "index.html"));
  const pageGzipKb = gzipSync(page).length / 1024;
  const perSize: SizeFigures[] = [];
  for (const size of [...sizes].sort((a, b) => a - b)) perSize.push(await commitAt(assets, size, logDir));

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
      info(
        `a proof (GET ${STATUS_DRAW_ENDPOINT}) ${at}`,
        figures.proofBytes === null ? "no confirmed sampled person" : `${fmtCount(figures.proofBytes)} B, ${figures.proofHashes} hashes`,
      ),
    );
  }
  return {
    id: "G",
    title: `Giveaway draw committed at ${sizes.map(fmtCount).join(" / ")} signups: wall time, rows read, steps, list, verify, proof`,
    checks,
    notes: [
      `Each size seeded by seed.ts (seed ${SEED}; ${perSize.map((s) => `${fmtCount(s.size)} in ${fmtS(s.seedMs)}`).join(", ")}), the content's draw with`,
      "its cut-off moved to just after seeding; committed by POST /api/console/draw/commit and followed on GET /api/console/draw.",
      "Wall per step: wrangler's QUEUE line for the step's message. CPU time per step is not observable in wrangler dev (workerd",
      "reports none locally), so the wall time, which includes D1 and R2, is its upper bound. verify.ts runs from a file the bench",
      "downloaded (checks listHash, merkleRoot, n, totalEntries and the rules; not drawn, so no round to check).",
    ],
    figures: { pageBytes: page.length, pageGzipKb, perSize },
  };
}
