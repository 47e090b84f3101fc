/**
 * Each Playwright worker's own waitlist service: `wrangler dev` serving the waitlist build (globalSetup's), with a
 * D1 and a log of its own. Tests read that D1 through a second process (`wrangler d1 execute`), which SQLite makes
 * wait on the service's writes; one service per worker keeps a file's reads from racing another file's signups.
 */
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations, startWranglerDev } from "../../../scripts/lib/wrangler";
import {
  WAITLIST_OUTPUT_FILE_VAR,
  WAITLIST_SITE_ORIGIN_VAR,
  WAITLIST_STATE_DIR_VAR,
  WAITLIST_WEBHOOK_SECRET,
  waitlistAssetsDir,
} from "./run-env";

/**
 * The service's secrets, all empty but the webhook's: `--var` wins over a developer's `.dev.vars`. Empty means
 * demo delivery and no Turnstile check; the webhook secret lets a test confirm a friend as Klaviyo's flow would. The
 * console's local operator (as `npm start` has one) lets a test invite people and measure the console's screens.
 */
const SERVICE_VARS = {
  KLAVIYO_PRIVATE_API_KEY: "",
  TURNSTILE_SECRET_KEY: "",
  IP_HASH_SALT: "",
  KLAVIYO_WEBHOOK_SECRET: WAITLIST_WEBHOOK_SECRET,
  CONSOLE_LOCAL_OPERATOR: "browser-tests@localhost",
};

/**
 * Migrate a fresh D1 and start this worker's service; its origin, state folder and output file are then in this
 * process's environment, where `waitlistSite()` (run-env.ts) reads them.
 * @returns stop(): stops wrangler and deletes the state folder
 * @throws Error quoting wrangler's output when the service does not start
 */
export async function startWorkerService(): Promise<{ stop: () => Promise<void> }> {
  const scratch = await mkdtemp(path.join(tmpdir(), "browser-tests-service-"));
  const stateDir = path.join(scratch, "state");
  await mkdir(stateDir);
  // wrangler's output as `npm start` prints it, for the tests to read the local run's log lines (demo_status_link).
  const outputFile = path.join(scratch, "output.log");
  const output = createWriteStream(outputFile);
  const closeOutput = () => new Promise<void>((resolve) => output.end(resolve));
  try {
    await applyMigrations(stateDir);
    const service = await startWranglerDev({ assetsDir: waitlistAssetsDir(), persistTo: stateDir, vars: SERVICE_VARS, log: output });
    process.env[WAITLIST_SITE_ORIGIN_VAR] = service.origin;
    process.env[WAITLIST_STATE_DIR_VAR] = stateDir;
    process.env[WAITLIST_OUTPUT_FILE_VAR] = outputFile;
    return {
      stop: async () => {
        await service.stop();
        await closeOutput();
        await rm(scratch, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await closeOutput();
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
}
