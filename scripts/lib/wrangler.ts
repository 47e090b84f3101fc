/**
 * The one way our tools run wrangler: `wrangler dev` for the service tests, the API bench and `npm start`,
 * and the local D1 commands (migrations, queries) for tests and `npm run waitlist`. Always the project's own
 * install (never npx), metrics off, loopback only, free ports, and `wrangler dev` in a process group of its own:
 * it leaves workerd children behind that keep the port unless the whole group is stopped.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFile, rename, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import pRetry from "p-retry";

/** The repository root (this file is scripts/lib/wrangler.ts). */
export const PROJECT_DIR = path.resolve(__dirname, "..", "..");

/** The project's wrangler (node_modules/.bin), so every tool runs the version package-lock.json pins. */
export const WRANGLER_BIN = path.join(PROJECT_DIR, "node_modules", ".bin", "wrangler");

/** The D1 binding in wrangler.jsonc; wrangler's d1 commands accept a binding name for the database. */
const D1_BINDING = "DB";

/** How long `wrangler dev` may take to answer its first request (ms): bundling plus starting workerd, on a busy machine. */
const READY_TIMEOUT_MS = 90_000;

/** How often logLinesOnceThere looks at the output again (ms). */
const LOG_POLL_MS = 200;

/** Pause between readiness probes (ms). */
const READY_POLL_MS = 250;

/** How long stop() waits for the process group to end after SIGTERM before it sends SIGKILL (ms). */
const STOP_GRACE_MS = 5_000;

/** How much of wrangler's output a failure message quotes (characters, from the end). */
const OUTPUT_TAIL_CHARS = 4_000;

/**
 * The console's host on a local run: the site is served on 127.0.0.1, the console on localhost, at the same port
 * (worker/src/hosts.ts decides by the host the request came to).
 */
export const LOCAL_CONSOLE_HOST = "localhost";

/**
 * `wrangler dev`'s configuration: wrangler.jsonc without its routes, written beside it (git-ignored). With routes,
 * wrangler hands the Worker the first route's host in place of the one the request came to, so the Worker could
 * not tell the site's host from the console's, nor a loopback host from a foreign one (DNS rebinding).
 */
const LOCAL_CONFIG_FILE = path.join(PROJECT_DIR, ".wrangler.local.json");

/**
 * Write LOCAL_CONFIG_FILE from wrangler.jsonc: every binding and var as it is, no `routes`. Left alone when it
 * already says the same: every running `wrangler dev` watches its config and reloads when the file is replaced,
 * and a reload drops the requests it is serving, so one test starting a service must not reload another's.
 * Otherwise written to a temporary name and renamed, so that wrangler processes started at once never read half a file.
 * @returns the file's path
 */
async function writeLocalConfig(): Promise<string> {
  // Imported here: wrangler's module is large, and most users of this file never start `wrangler dev`.
  const { experimental_readRawConfig: readRawConfig } = await import("wrangler");
  const { rawConfig } = readRawConfig({ config: path.join(PROJECT_DIR, "wrangler.jsonc") });
  const local = { ...rawConfig };
  delete local.routes;
  const text = `${JSON.stringify(local, null, 2)}\n`;
  const current = await readFile(LOCAL_CONFIG_FILE, "utf8").catch(() => null);
  if (current === text) return LOCAL_CONFIG_FILE;
  const partial = `${LOCAL_CONFIG_FILE}.${process.pid}.${Date.now()}`;
  await writeFile(partial, text);
  await rename(partial, LOCAL_CONFIG_FILE);
  return LOCAL_CONFIG_FILE;
}

/**
 * The Worker's vars as `wrangler dev` of this project has them before any `--var`: wrangler.jsonc's `vars` with the
 * values of a `.dev.vars` beside it over them (without one, of `.env` files), by wrangler's own rule
 * (`unstable_getVarsForDev`), so that what a local run reports is what its Worker gets.
 * @param configPath a wrangler configuration (default: the repository's wrangler.jsonc); the files are read beside it
 * @returns each var by name, as text (a JSON var as its JSON text)
 * @throws Error when the configuration or a vars file cannot be read
 */
export async function localWorkerVars(configPath = path.join(PROJECT_DIR, "wrangler.jsonc")): Promise<Record<string, string>> {
  const { experimental_readRawConfig: readRawConfig, unstable_getVarsForDev: getVarsForDev } = await import("wrangler");
  const { rawConfig } = readRawConfig({ config: configPath });
  const bindings = getVarsForDev(configPath, undefined, rawConfig.vars ?? {}, undefined, true, rawConfig.secrets);
  return Object.fromEntries(
    Object.entries(bindings).map(([name, { value }]) => [name, typeof value === "string" ? value : JSON.stringify(value)]),
  );
}

/** What wrangler's own processes get in their environment: no metrics, no update prompts, no colour codes. */
function wranglerEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1", FORCE_COLOR: "0", NO_COLOR: "1", ...extra };
}

/**
 * A TCP port that was free a moment ago on 127.0.0.1: the system's choice for a listener on port 0.
 * @throws Error when no listener can be opened at all
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** How to start `wrangler dev`. */
export interface WranglerDevOptions {
  /** Static assets to serve instead of wrangler.jsonc's `./public` (`--assets`), e.g. a test's temp dir with service-settings.json. */
  assetsDir?: string;
  /** Port to listen on (default: a free one). */
  port?: number;
  /**
   * Worker vars and secrets (`--var KEY:VALUE`); `ENVIRONMENT` is `development`, `SITE_ORIGIN` the origin it serves
   * (so the links the Worker writes lead back to it: worker/src/site-origin.ts) and `CONSOLE_HOST` localhost
   * (LOCAL_CONSOLE_HOST) unless given here.
   */
  vars?: Record<string, string>;
  /** Local state directory (`--persist-to`; default wrangler's `.wrangler/state`). Tests give each wrangler its own temp dir. */
  persistTo?: string;
  /** Variables added to wrangler's own environment. */
  env?: NodeJS.ProcessEnv;
  /** Also copy wrangler's output (the Worker's log lines among it) here as it comes; the stream is left open. */
  log?: NodeJS.WritableStream;
  /**
   * Run wrangler.jsonc's cron triggers every CRON_PERIOD_MS, as Cloudflare does (`wrangler dev` alone never does):
   * through `--test-scheduled`'s loopback-only handler, once at start and then on the period.
   */
  crons?: boolean;
}

/** How often `crons` fires the triggers (ms): the period of wrangler.jsonc's `*\/5 * * * *`. */
export const CRON_PERIOD_MS = 5 * 60 * 1000;

/**
 * Where `wrangler dev --test-scheduled` runs the scheduled handler. Its newer path, /cdn-cgi/handler/scheduled, reaches
 * the static assets' router in front of this Worker (`assets` in wrangler.jsonc), which has no scheduled handler.
 */
const SCHEDULED_HANDLER_PATH = "/__scheduled";

/** A running `wrangler dev`. */
export interface WranglerDev {
  /** The site's, e.g. http://127.0.0.1:40124 */
  origin: string;
  /** The console's, at the same port: e.g. http://localhost:40124 */
  consoleOrigin: string;
  /** Everything wrangler and the Worker printed so far (stdout and stderr interleaved), e.g. to check log lines. */
  output(): string;
  /** Stop wrangler and its workerd children (the whole process group) and wait until they are gone. Safe to call twice. */
  stop(): Promise<void>;
  /** Resolves when wrangler exits, by stop() or on its own, with how it ended (e.g. "wrangler dev exited (code 1)"). */
  exited: Promise<string>;
}

/** Process groups started here and not stopped yet, killed if this process ends first (a failed test, Ctrl-C, a timeout's kill). */
const runningGroups = new Set<number>();
const killRunningGroups = () => {
  for (const pid of runningGroups) signalGroup(pid, "SIGKILL");
};
process.once("exit", killRunningGroups);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    // A program that handles the signal itself (npm start) stops its wrangler on its own; otherwise the signal would
    // end this process without an "exit" event: kill the groups, then end as the signal would have.
    if (process.listenerCount(signal) > 0) return;
    killRunningGroups();
    process.kill(process.pid, signal);
  });
}

/** Send a signal to a process group; false when the group no longer exists. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Stop a process group: SIGTERM, then SIGKILL after STOP_GRACE_MS; resolves once no process of the group is left. */
async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  signalGroup(pid, "SIGTERM");
  const deadline = Date.now() + STOP_GRACE_MS;
  while (signalGroup(pid, 0) && Date.now() < deadline) await sleep(100);
  if (signalGroup(pid, "SIGKILL")) {
    // Bounded: a killed process lingers as a zombie until it is reaped, which is not ours to wait for.
    const killDeadline = Date.now() + STOP_GRACE_MS;
    while (signalGroup(pid, 0) && Date.now() < killDeadline) await sleep(50);
  }
  runningGroups.delete(pid);
}

/**
 * Start `wrangler dev` for the repository's wrangler.jsonc (without its routes: writeLocalConfig) on 127.0.0.1, the
 * console on localhost at the same port, and wait until the Worker answers
 * (a request to `/api/` reaches it: workerd is up and the script is loaded).
 * @param options assets, port, vars, state directory; see WranglerDevOptions
 * @returns the origin and stop(); call stop() in every case (tests: afterAll)
 * @throws Error quoting wrangler's output when it exits or does not answer within READY_TIMEOUT_MS
 */
export async function startWranglerDev(options: WranglerDevOptions = {}): Promise<WranglerDev> {
  const port = options.port ?? (await freePort());
  const inspectorPort = await freePort();
  const vars = {
    ENVIRONMENT: "development",
    SITE_ORIGIN: `http://127.0.0.1:${port}`,
    CONSOLE_HOST: LOCAL_CONSOLE_HOST,
    ...options.vars,
  };
  const args = ["dev", "--config", await writeLocalConfig(), "--ip", "127.0.0.1", "--port", String(port)];
  args.push("--inspector-port", String(inspectorPort), "--show-interactive-dev-session=false", "--log-level", "log");
  if (options.persistTo) args.push("--persist-to", options.persistTo);
  if (options.assetsDir) args.push("--assets", options.assetsDir);
  if (options.crons) args.push("--test-scheduled");
  for (const [key, value] of Object.entries(vars)) args.push("--var", `${key}:${value}`);

  const child = spawn(WRANGLER_BIN, args, {
    cwd: PROJECT_DIR,
    env: wranglerEnvironment(options.env),
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so that stop() reaches the workerd children too.
    detached: true,
  });
  if (child.pid !== undefined) runningGroups.add(child.pid);
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    options.log?.write(chunk);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  let exited: string | null = null;
  const exitedPromise = new Promise<string>((resolve) => {
    child.once("exit", (code, signal) => resolve((exited = `wrangler dev exited (${signal ?? `code ${code}`})`)));
    child.once("error", (error) => resolve((exited = `wrangler dev could not start: ${error.message}`)));
  });

  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exited) break;
    try {
      await fetch(`${origin}/api/`, { signal: AbortSignal.timeout(5_000) });
      let stopped: Promise<void> | null = null;
      const ticker = options.crons ? runCrons(origin, options.log) : null;
      return {
        origin,
        consoleOrigin: `http://${LOCAL_CONSOLE_HOST}:${port}`,
        output: () => output,
        stop: () => {
          if (ticker) clearInterval(ticker);
          return (stopped ??= stopGroup(child));
        },
        exited: exitedPromise,
      };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) break;
    await sleep(READY_POLL_MS);
  }
  await stopGroup(child);
  throw new Error(
    `${exited ?? `wrangler dev did not answer on ${origin} within ${READY_TIMEOUT_MS} ms`}:\n${output.slice(-OUTPUT_TAIL_CHARS)}`,
  );
}

/**
 * Fire the Worker's cron triggers now and every CRON_PERIOD_MS (the handler ignores which expression fired). A tick
 * that fails is said on `log` and the next one tries again.
 * @returns the interval, for stop() to clear
 */
function runCrons(origin: string, log: NodeJS.WritableStream | undefined): NodeJS.Timeout {
  const tick = () =>
    fetch(`${origin}${SCHEDULED_HANDLER_PATH}?cron=${encodeURIComponent("*/5 * * * *")}`, { signal: AbortSignal.timeout(60_000) }).then(
      (response) => (response.ok ? undefined : log?.write(`The cron triggers answered ${response.status}.\n`)),
      (error: unknown) => log?.write(`The cron triggers could not run: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  void tick();
  const ticker = setInterval(() => void tick(), CRON_PERIOD_MS);
  ticker.unref();
  return ticker;
}

/**
 * The Worker's log lines of one event in wrangler's output (WranglerDev.output()), parsed: worker/src/log.ts writes
 * one JSON object a line, `{"event":"<event>",…}`; a line cut short is left out.
 */
export function logLines<Fields>(output: string, event: string): Fields[] {
  const marker = `{"event":"${event}"`;
  return output.split("\n").flatMap((line) => {
    const start = line.indexOf(marker);
    if (start < 0) return [];
    try {
      return [JSON.parse(line.slice(start).trim()) as Fields];
    } catch {
      return [];
    }
  });
}

/**
 * Wait until the Worker has logged `count` lines of `event` (logLines). Tests wait on the log rather than on D1: each
 * look at D1 is a wrangler process of its own (seconds), contending with the queue consumer for the database's lock.
 * @param timeoutMs wall time, however long each look takes
 * @returns the first `count` lines, parsed
 * @throws Error saying how many there are when fewer than `count` are there after `timeoutMs`
 */
export async function logLinesOnceThere<Fields>(
  dev: Pick<WranglerDev, "output">,
  event: string,
  count: number,
  timeoutMs: number,
): Promise<Fields[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = logLines<Fields>(dev.output(), event);
    if (lines.length >= count) return lines.slice(0, count);
    if (Date.now() > deadline) throw new Error(`wrangler's output holds ${lines.length} of ${count} ${event} lines after ${timeoutMs} ms`);
    await sleep(LOG_POLL_MS);
  }
}

/** Where a D1 command runs. */
export interface D1Target {
  /** The local state directory (`--persist-to`; default wrangler's `.wrangler/state`). Ignored with `remote`. */
  persistTo?: string;
  /** The production database on Cloudflare (`--remote`) instead of the local one. */
  remote?: boolean;
}

function d1TargetArgs({ persistTo, remote }: D1Target): string[] {
  if (remote) return ["--remote"];
  return persistTo ? ["--local", "--persist-to", persistTo] : ["--local"];
}

/** How to run one wrangler command. */
export interface WranglerRunOptions {
  /** Variables added to wrangler's environment. */
  env?: NodeJS.ProcessEnv;
  /** Also copy its output here as it comes (a terminal: the operator sees wrangler's progress and prompts' answers). */
  log?: NodeJS.WritableStream;
}

/**
 * Run a wrangler command to its end.
 * @returns its standard output
 * @throws Error quoting the command's output when it fails
 */
export function runWrangler(args: string[], { env, log }: WranglerRunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(WRANGLER_BIN, args, { cwd: PROJECT_DIR, env: wranglerEnvironment(env), stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const all: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => {
      stdout.push(chunk);
      all.push(chunk);
      log?.write(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      all.push(chunk);
      log?.write(chunk);
    });
    child.once("error", reject);
    child.once("close", (code) => {
      if (code === 0) resolve(Buffer.concat(stdout).toString("utf8"));
      else {
        const output = Buffer.concat(all).toString("utf8").trim().slice(-OUTPUT_TAIL_CHARS);
        reject(new Error(`wrangler ${args.slice(0, 3).join(" ")} failed (code ${code}):\n${output}`));
      }
    });
  });
}

/**
 * Apply migrations/*.sql to the D1 database that has not had them yet (`wrangler d1 migrations apply DB`).
 * @param target `{ persistTo }` for a local state directory (a string is taken as one), `{ remote: true }` for production
 * @throws Error with wrangler's output when a migration fails (wrangler rolls that migration back)
 */
export async function applyMigrations(target: string | D1Target = {}, options: WranglerRunOptions = {}): Promise<void> {
  const where = typeof target === "string" ? { persistTo: target } : target;
  await runWrangler(["d1", "migrations", "apply", D1_BINDING, ...d1TargetArgs(where)], options);
}

/**
 * Run SQL against the D1 database (`wrangler d1 execute DB --json --command`). For tests and the operator's CLI:
 * the statement text is sent as it is, so never build it from untrusted input.
 * @param target a local state directory (a string), or `{ persistTo }` / `{ remote: true }`
 * @param sql one statement, or several separated by `;`
 * @returns the rows of the last statement
 * @throws Error with wrangler's output when the SQL fails, the local database stays locked by a running service for
 *   about 15 s, or the output is not wrangler's JSON
 */
export async function d1Query<Row = Record<string, unknown>>(target: string | D1Target | undefined, sql: string): Promise<Row[]> {
  const where = typeof target === "string" ? { persistTo: target } : (target ?? {});
  const args = ["d1", "execute", D1_BINDING, ...d1TargetArgs(where), "--json", "--command", sql];
  // A local database may be in use by `wrangler dev` (the tests, or an operator's `npm start`).
  const stdout = await (where.remote ? runWrangler(args) : retryWhileLocked(() => runWrangler(args)));
  // wrangler prints the results as one JSON array (one entry per statement); anything before it is a notice.
  const start = stdout.indexOf("[");
  const results = JSON.parse(start >= 0 ? stdout.slice(start) : stdout) as { results?: Row[] }[];
  return results.at(-1)?.results ?? [];
}

/**
 * How often a read of a local D1 that found the database locked is tried again, and its pauses (ms, doubling from
 * the first up to the longest): about 15 s in all, far longer than any one write of the running service holds the lock.
 */
const LOCKED_RETRIES = 10;
const LOCKED_FIRST_PAUSE_MS = 200;
const LOCKED_LONGEST_PAUSE_MS = 2_000;

/**
 * What a second process reading a local D1 meets while a running `wrangler dev` writes to the same SQLite file:
 * SQLITE_BUSY in workerd's words, or "internal error" when Miniflare's proxy passes it on.
 */
const LOCKED_PATTERN = /SQLITE_BUSY|database is locked|internal error/i;

/**
 * Run a command on a local D1 from a second process (wrangler d1 execute, or Miniflare opened on the same files),
 * trying again after a pause while it meets the running service's write lock. Meant for reads and for single D1
 * batches: a batch is one transaction, so one the lock refused changed nothing and is safe to run again.
 * @param command the read; its error message decides whether it met the lock
 * @returns what the command resolved to
 * @throws the command's error at once when it is not the lock, or once about 15 s of retries are used up
 */
export function retryWhileLocked<T>(command: () => Promise<T>): Promise<T> {
  return pRetry(command, {
    retries: LOCKED_RETRIES,
    minTimeout: LOCKED_FIRST_PAUSE_MS,
    maxTimeout: LOCKED_LONGEST_PAUSE_MS,
    shouldRetry: ({ error }) => LOCKED_PATTERN.test(error.message),
  });
}
