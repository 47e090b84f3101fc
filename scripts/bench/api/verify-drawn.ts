/**
 * The giveaway draw's verification at scale, as anyone meets it (scenario G, draw.ts): a list the Worker published,
 * drawn by a round drand did publish (a recorded quicknet round: the bench cannot wait for one, and only drand can
 * sign one), then checked in full (the list's SHA-256 and Merkle root, its count and entries, the rules, the round's
 * BLS signature and the winners) by scripts/giveaway/verify.ts, and by the draw page's Verify in Chromium with its CPU
 * slowed (CDP Emulation.setCPUThrottlingRate), on a build of the site whose content names that round.
 */
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { parseDocument } from "yaml";
import vectors from "../../../__tests__/fixtures/giveaway/drand-vectors.json";
import type { Commitment } from "../../../shared/api/draw";
import type { Beacon } from "../../../shared/giveaway/beacon";
import { QUICKNET, type DrandChain } from "../../../shared/giveaway/chains";
import { bytesSource, readBlockFrom, serialiseCommitment } from "../../../shared/giveaway/commitment";
import { digestList } from "../../../shared/giveaway/digest";
import { commitmentPath } from "../../../shared/giveaway/list";
import { roundTimeMs } from "../../../shared/giveaway/rounds";
import { roundOfRules, type DrawRules } from "../../../shared/giveaway/rules";
import { streamWinners } from "../../../shared/giveaway/stream-winners";
import { SERVICE_SETTINGS_PATH } from "../../../shared/service-settings";
import { GIVEAWAY_DRAW_PATH } from "../../../shared/routes";
import { DEFAULT_CONTENT_FILE } from "../../../src/content/derive";
import { nodeSha256 } from "../../giveaway/node-sha256";
import { CHROMIUM_ARGS, findChromium } from "../../lib/chromium";
import { buildAside, PROJECT_DIR } from "../../lib/gatsby-build";
import { HYDRATION_TIMEOUT_MS, waitForHydration } from "../../lib/hydration";
import { startStaticServer } from "../../lib/static-server";

/** The latest quicknet round the tests recorded (as drand served it): the round every bench draw is drawn by. */
const RECORDED_ROUND = vectors.quicknet.rounds[vectors.quicknet.rounds.length - 1] as Beacon;

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * The site's rules with the cut-off moved so that they name RECORDED_ROUND: roundDelayHours before it is published.
 * @throws Error when the site names another chain than quicknet (the recorded round's)
 */
export function recordedRoundRules(chain: DrandChain, rules: DrawRules): DrawRules {
  if (chain.hash !== QUICKNET.hash)
    throw new Error(`The content's draw names chain ${chain.hash}: the bench's recorded round is quicknet's.`);
  const cutoff = new Date(roundTimeMs(chain, RECORDED_ROUND.round) - rules.roundDelayHours * HOUR_MS).toISOString();
  return { ...rules, cutoff };
}

/**
 * A published commitment drawn by RECORDED_ROUND under `rules`, as `draw run` draws one: the list's figures as
 * published, the rules, round and times restated for the round, and the winners it draws from the list.
 * @param listFile the published list
 */
export async function drawnCommitment(published: Commitment, listFile: string, chain: DrandChain, rules: DrawRules): Promise<Commitment> {
  const { round, roundAt } = roundOfRules(chain, rules);
  const list = new Uint8Array(await readFile(listFile));
  const { sums } = await digestList(bytesSource(list).chunks(), { sha256: nodeSha256 });
  const source = bytesSource(list);
  const winners = await streamWinners(RECORDED_ROUND.randomness, sums, (block) => readBlockFrom(source, block), rules.winners);
  return {
    ...published,
    rules: { cutoff: rules.cutoff, winners: rules.winners, roundDelayHours: rules.roundDelayHours },
    committedAt: new Date(Date.parse(rules.cutoff) + HOUR_MS).toISOString(),
    round,
    roundAt,
    result: {
      beacon: { round: RECORDED_ROUND.round, randomness: RECORDED_ROUND.randomness, signature: RECORDED_ROUND.signature },
      winners,
      drawnAt: new Date(Date.parse(roundAt) + MINUTE_MS).toISOString(),
    },
  };
}

/** A build of the site whose content names the recorded round's rules. */
export interface DrawnSite {
  /** The built site (a `public/` of its own). */
  dir: string;
  /** The rules its content and service-settings.json publish. */
  rules: DrawRules;
  /** The Verify button's name, from its content. */
  verifyButton: string;
  /** Publish a drawn draw where its page reads it (its commitment and list). */
  publish(commitment: Commitment, listFile: string): Promise<void>;
  /** Delete the build. */
  remove(): Promise<void>;
}

/**
 * Build the site with the content's draw named by recordedRoundRules into a temporary folder (buildAside: the
 * project's own `public/` is left as it was).
 * @param log where the build's output goes
 * @throws Error when the build fails
 */
export async function buildDrawnSite(chain: DrandChain, rules: DrawRules, log: NodeJS.WritableStream): Promise<DrawnSite> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "bench-api-drawn-"));
  try {
    const drawn = recordedRoundRules(chain, rules);
    const content = parseDocument(await readFile(path.join(PROJECT_DIR, DEFAULT_CONTENT_FILE), "utf8"));
    content.setIn(["draw", "cutoff"], drawn.cutoff);
    const siteFile = path.join(scratch, "site.yaml");
    await writeFile(siteFile, content.toString());
    const dir = path.join(scratch, "public");
    await buildAside(dir, { env: { SITE_CONTENT_FILE: siteFile }, log });
    return {
      dir,
      rules: drawn,
      verifyButton: String(content.getIn(["draw", "verifyButton"])),
      async publish(commitment, listFile) {
        const file = path.join(dir, commitmentPath(commitment.draw));
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, serialiseCommitment(commitment));
        await copyFile(listFile, path.join(dir, commitment.listUrl));
      },
      remove: () => rm(scratch, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
}

/** One run of scripts/giveaway/verify.ts: its wall time, exit code (null when killed) and output. */
export interface ScriptRun {
  ms: number;
  code: number | null;
  output: string;
}

/**
 * Run verify.ts to its end, or until `timeoutMs` (then killed, code null).
 * @param args its command line
 */
export function runVerify(args: string[], timeoutMs: number): Promise<ScriptRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_DIR, "scripts/giveaway/verify.ts"), ...args], {
      cwd: PROJECT_DIR,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const timer = setTimeout(() => child.kill(), timeoutMs);
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - started, code, output });
    });
  });
}

/** verify.ts on a drawn draw in the drawn site, from files, against the rules the site publishes. */
export async function scriptVerifiesDrawn(site: DrawnSite, commitment: Commitment, timeoutMs: number): Promise<ScriptRun> {
  return runVerify(
    [
      path.join(site.dir, commitmentPath(commitment.draw)),
      "--list",
      path.join(site.dir, commitment.listUrl),
      "--settings",
      path.join(site.dir, SERVICE_SETTINGS_PATH),
    ],
    timeoutMs,
  );
}

/** The page's Verify, once. */
export interface PageRun {
  /** From the click to the result on the page (ms); the timeout when there was none. */
  ms: number;
  /** The result's `data-result` (verified, mismatch, failed), or "timeout". */
  result: string;
  /** Tasks of 50 ms or more on the page's main thread from the click to the result. */
  longTasks: number;
  /** The longest of them (ms; 0 when none). */
  longestTaskMs: number;
}

/** The page's window with the long tasks the bench keeps (watchLongTasks). */
type WatchedWindow = Window & { benchLongTasksMs?: number[] };

/** Start keeping the page's long tasks (PerformanceObserver "longtask": every task of 50 ms or more), in ms. */
async function watchLongTasks(page: Page): Promise<void> {
  // No named functions inside: under tsx, esbuild would wrap them in a `__name` helper the page does not have.
  await page.evaluate(() => {
    const kept: number[] = [];
    (window as WatchedWindow).benchLongTasksMs = kept;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) kept.push(entry.duration);
    }).observe({ type: "longtask" });
  });
}

/**
 * Open the drawn site's draw page in Chromium, slow its CPU by `cpuThrottle` (after it has loaded and hydrated: only
 * the check is slowed), press Verify and time it to its result.
 * @param timeoutMs how long the result may take before the run counts as "timeout"
 */
export async function pageVerifiesDrawn(site: DrawnSite, cpuThrottle: number, timeoutMs: number): Promise<PageRun> {
  const server = await startStaticServer(site.dir);
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.origin}${GIVEAWAY_DRAW_PATH}`);
    await waitForHydration(page, HYDRATION_TIMEOUT_MS);
    const verify = page.getByRole("button", { name: site.verifyButton });
    await verify.waitFor({ timeout: HYDRATION_TIMEOUT_MS });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuThrottle });
    await watchLongTasks(page);
    const started = performance.now();
    await verify.click();
    const result = page.locator('[role="status"]:is([data-result="verified"], [data-result="mismatch"], [data-result="failed"])');
    const ended = await result.waitFor({ timeout: timeoutMs }).then(
      () => true,
      () => false,
    );
    const ms = performance.now() - started;
    const longTasksMs = await page.evaluate(() => (window as WatchedWindow).benchLongTasksMs ?? []);
    return {
      ms: ended ? ms : timeoutMs,
      result: ended ? ((await result.getAttribute("data-result")) ?? "") : "timeout",
      longTasks: longTasksMs.length,
      longestTaskMs: Math.max(0, ...longTasksMs),
    };
  } finally {
    await browser.close();
    await server.close();
  }
}
