/**
 * The waitlist service as the API bench runs it: the way `npm start` runs it (scripts/service/start.ts: the built site
 * and the Worker in workerd through `wrangler dev`, ENVIRONMENT=development, the local D1 migrated first), but with its
 * own temporary `--persist-to` directory, free ports, and delivery to a loopback Klaviyo stand-in (scripts/lib/
 * klaviyo-stand-in.ts) with a dummy private API key, so that every signup really goes through the queue to an HTTP
 * server that answers as Klaviyo does. Only loopback traffic.
 */
import { createWriteStream } from "node:fs";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SERVICE_SETTINGS_PATH, type ServiceSettings } from "../../../shared/service-settings";
import { startKlaviyoStandIn, type KlaviyoStandIn } from "../../lib/klaviyo-stand-in";
import { applyMigrations, startWranglerDev } from "../../lib/wrangler";
import { openLocalD1, type LocalD1 } from "./local-d1";
import { BENCH_COUNT_AFTER } from "./targets";

/** The bench's copy of the built site, with its own service settings. */
export interface BenchAssets {
  /** The directory wrangler dev serves (`--assets`). */
  dir: string;
  /** The settings the Worker reads from it. */
  settings: ServiceSettings;
  /** Delete the copy. */
  remove(): Promise<void>;
}

/**
 * Copy the built site to a temporary directory and write its service-settings.json with the referral program on and
 * a referral counted at signup (targets.ts: BENCH_COUNT_AFTER); everything else as the build wrote it.
 * @param publicDir the build's output (public/)
 * @throws Error when the build has no service-settings.json (content/site.yaml does not use the waitlist-api transport)
 */
export async function prepareAssets(publicDir: string): Promise<BenchAssets> {
  const settingsFile = path.join(publicDir, SERVICE_SETTINGS_PATH);
  let built: ServiceSettings;
  try {
    built = JSON.parse(await readFile(settingsFile, "utf8")) as ServiceSettings;
  } catch (error) {
    throw new Error(
      `${settingsFile} could not be read (${(error as Error).message}): build the site with provider.transport "waitlist-api" ` +
        "(npm run build), or run without --skip-build.",
    );
  }
  const settings: ServiceSettings = { ...built, referrals: { ...built.referrals, enabled: true, countAfter: BENCH_COUNT_AFTER } };
  const scratch = await mkdtemp(path.join(os.tmpdir(), "bench-api-assets-"));
  const dir = path.join(scratch, "public");
  await cp(publicDir, dir, { recursive: true });
  await writeFile(path.join(dir, SERVICE_SETTINGS_PATH), JSON.stringify(settings));
  return { dir, settings, remove: () => rm(scratch, { recursive: true, force: true }) };
}

/** A running service under load. */
export interface BenchService {
  /** e.g. http://127.0.0.1:40124: the address requests go to, and the `Origin` the page would send. */
  origin: string;
  /** e.g. http://localhost:40124: the operator's console, on its own host at the same port (worker/src/hosts.ts). */
  consoleOrigin: string;
  /** The Klaviyo stand-in deliveries go to. */
  klaviyo: KlaviyoStandIn;
  /** The service's local D1, read from the bench's process. */
  d1: LocalD1;
  /** Everything wrangler and the Worker printed so far. */
  output(): string;
  /** Stop wrangler (its whole process group), the stand-in and the reader; delete the state unless it was given. */
  stop(): Promise<void>;
}

/** The fair-play limits per hour the bench's service runs with: above any scenario's referrals. */
const BENCH_REFERRAL_LIMIT = 1_000_000;

/** How to start it. */
export interface BenchServiceOptions {
  /** The bench's copy of the site (prepareAssets). */
  assets: BenchAssets;
  /** A --persist-to directory already migrated and seeded (seed.ts); default a new temporary one, migrated here. */
  persistTo?: string;
  /** Where wrangler's output is copied (the Worker's log lines among it), e.g. artifacts/bench-api/A.log. */
  logFile: string;
  /** More Worker vars (`--var`), e.g. the console's local operator. */
  vars?: Record<string, string>;
}

/**
 * Start the Klaviyo stand-in, then `wrangler dev` on a free port with delivery pointed at it.
 * @throws Error with wrangler's output when a migration fails or wrangler does not come up
 */
export async function startBenchService({ assets, persistTo, logFile, vars = {} }: BenchServiceOptions): Promise<BenchService> {
  const ownState = persistTo === undefined;
  const state = persistTo ?? (await mkdtemp(path.join(os.tmpdir(), "bench-api-state-")));
  const log = createWriteStream(logFile);
  const klaviyo = await startKlaviyoStandIn();
  const registry = await mkdtemp(path.join(os.tmpdir(), "bench-api-registry-"));
  try {
    if (ownState) await applyMigrations(state);
    const dev = await startWranglerDev({
      assetsDir: assets.dir,
      persistTo: state,
      log,
      // A dev registry of its own: wrangler dev sessions register by the Worker's name in one shared folder, and every
      // other `wrangler dev` of this project (tests, npm start) has the same name; the bench's service talks to no one.
      env: { WRANGLER_REGISTRY_PATH: registry },
      // Every secret given: `--var` wins over a developer's .dev.vars, which must not change the figures. No Turnstile
      // secret (the bench cannot solve a challenge; npm start without one runs the same way) and the development salt.
      vars: {
        ENVIRONMENT: "development",
        KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey,
        KLAVIYO_API_URL: klaviyo.apiUrl,
        TURNSTILE_SECRET_KEY: "",
        IP_HASH_SALT: "",
        KLAVIYO_WEBHOOK_SECRET: "",
        // The fair-play limits out of the way: the bench sends hundreds of referrals of one code from one domain on purpose.
        REFERRALS_PER_CODE_PER_HOUR: String(BENCH_REFERRAL_LIMIT),
        REFERRALS_PER_DOMAIN_PER_HOUR: String(BENCH_REFERRAL_LIMIT),
        ...vars,
      },
    });
    const d1 = await openLocalD1(state);
    return {
      origin: dev.origin,
      consoleOrigin: dev.consoleOrigin,
      klaviyo,
      d1,
      output: dev.output,
      stop: async () => {
        await d1.dispose();
        await dev.stop();
        await klaviyo.close();
        log.end();
        await rm(registry, { recursive: true, force: true });
        if (ownState) await rm(state, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await klaviyo.close();
    log.end();
    await rm(registry, { recursive: true, force: true });
    if (ownState) await rm(state, { recursive: true, force: true });
    throw error;
  }
}
