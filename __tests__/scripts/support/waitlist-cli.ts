/**
 * `npm run waitlist` as the scripts tests run it: a child process to its end, its exit code and what it printed; and
 * the running service it talks to, as `npm start` runs it with its local operator.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations, PROJECT_DIR, startWranglerDev, type WranglerDev } from "../../../scripts/lib/wrangler";

/** The service tests' build: a service-settings.json and nothing else. */
const ASSETS_DIR = path.join(PROJECT_DIR, "__tests__", "service", "fixtures", "public");

/** The local operator the command line acts as (CONSOLE_LOCAL_OPERATOR). */
export const CLI_OPERATOR = "cli-operator@localhost";

/** A running service for the command line, and its local D1's state folder (for d1Query). */
export interface CliService {
  dev: WranglerDev;
  stateDir: string;
  /** Stop wrangler and delete the state. */
  stop(): Promise<void>;
}

/**
 * Start `wrangler dev` over the service tests' build with a freshly migrated D1 in a temp folder named after `name`,
 * no provider secrets (demo delivery) and CLI_OPERATOR signed in on loopback.
 * @throws Error with wrangler's output when it does not come up
 */
export async function startCliService(name: string): Promise<CliService> {
  const directory = await mkdtemp(path.join(tmpdir(), `${name}-`));
  const stateDir = path.join(directory, "state");
  await applyMigrations(stateDir);
  const dev = await startWranglerDev({
    assetsDir: ASSETS_DIR,
    persistTo: stateDir,
    vars: { KLAVIYO_PRIVATE_API_KEY: "", TURNSTILE_SECRET_KEY: "", IP_HASH_SALT: "", CONSOLE_LOCAL_OPERATOR: CLI_OPERATOR },
  });
  return {
    dev,
    stateDir,
    stop: async () => {
      await dev.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** What one run came to: the exit code, the standard output, and both streams together. */
export interface CliRun {
  code: number | null;
  stdout: string;
  output: string;
}

/** Run `scripts/service/waitlist.ts` with `args` (and more shell variables) to its end. */
export function runWaitlistCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(PROJECT_DIR, "node_modules", ".bin", "tsx"), ["scripts/service/waitlist.ts", ...args], {
      cwd: PROJECT_DIR,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => ((stdout += chunk.toString()), (output += chunk.toString())));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, output }));
  });
}
