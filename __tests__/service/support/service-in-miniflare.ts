/**
 * The service's Worker in Miniflare (workerd, driven from the test process), for what `wrangler dev` cannot reach: its
 * `scheduled` handler. wrangler 4.86's dev server answers `/cdn-cgi/handler/scheduled` with an exception for a Worker
 * with static assets (its assets proxy does not pass scheduled events on; later Miniflare releases do), so this
 * runs the same Worker, bundled as a deploy bundles it, with the bindings the repository's wrangler.jsonc declares,
 * and fires the cron through Miniflare's `scheduled()`. The static assets are replaced
 * by an ASSETS binding that serves the build's service-settings.json only: the handlers read nothing else there.
 */
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { D1Database } from "@cloudflare/workers-types";
import type { Readable } from "node:stream";
import { Miniflare } from "miniflare";
import ts from "typescript";
import { SERVICE_SETTINGS_PATH, type ServiceSettings } from "../../../shared/service-settings";
import { applyMigrations, PROJECT_DIR, runWrangler } from "../../../scripts/lib/wrangler";
import { TEST_SETTINGS } from "./waitlist-service";

/** What this module reads of wrangler.jsonc. */
interface WranglerConfig {
  compatibility_date: string;
  compatibility_flags?: string[];
  vars?: Record<string, string>;
  d1_databases: { binding: string; database_id: string }[];
  queues: {
    producers: { binding: string; queue: string }[];
    consumers: { queue: string; max_batch_size?: number; max_batch_timeout?: number; max_retries?: number; dead_letter_queue?: string }[];
  };
  ratelimits?: { name: string; simple: { limit: number; period: number } }[];
}

/**
 * wrangler.jsonc, parsed (JSON with comments: TypeScript's own reader of tsconfig files takes the same dialect).
 * @throws Error when it is not JSONC
 */
async function readWranglerConfig(): Promise<WranglerConfig> {
  const file = path.join(PROJECT_DIR, "wrangler.jsonc");
  const parsed: { config?: unknown; error?: ts.Diagnostic } = ts.parseConfigFileTextToJson(file, await readFile(file, "utf8"));
  if (parsed.error) throw new Error(`${file}: ${ts.flattenDiagnosticMessageText(parsed.error.messageText, "\n")}`);
  return parsed.config as WranglerConfig;
}

/** The origin requests to the Worker come from (the Worker allows its own origin, whatever host it runs on). */
const SITE_ORIGIN = "http://localhost";

/** The Worker's secrets, empty unless a test sets them: a developer's .dev.vars must not change a test. */
const UNSET_SECRETS = { KLAVIYO_PRIVATE_API_KEY: "", TURNSTILE_SECRET_KEY: "", IP_HASH_SALT: "" };

/** A running Worker. */
export interface ServiceInMiniflare {
  /** Fire the Worker's cron trigger, as Cloudflare does on schedule; resolves with the handler's outcome ("ok"). */
  scheduled(cron: string): Promise<string>;
  /** A request to the Worker, as a browser on the site's own origin (`http://localhost`) would send it. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Put a message on the dead-letter queue, as Cloudflare does with one that ran out of retries. */
  deadLetter(body: unknown): Promise<void>;
  /** Rows of a SQL query against the Worker's D1, with bound parameters (writes too: test fixtures). */
  query<Row = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<Row[]>;
  /** Everything the Worker logged so far. */
  output(): string;
  /** Stop workerd and delete the temporary directories. */
  stop(): Promise<void>;
}

/**
 * Bundle and start the Worker with an empty, migrated D1.
 * @param options.vars Worker vars and secrets, over wrangler.jsonc's (`ENVIRONMENT` is `development` unless given)
 * @param options.settings the build's service-settings.json (default TEST_SETTINGS)
 * @throws Error with wrangler's output when the bundle or a migration fails
 */
export async function startServiceInMiniflare({
  vars = {},
  settings = TEST_SETTINGS,
}: { vars?: Record<string, string>; settings?: ServiceSettings } = {}): Promise<ServiceInMiniflare> {
  const directory = await mkdtemp(path.join(tmpdir(), "service-in-miniflare-"));
  const assetsDir = path.join(directory, "public");
  const bundleDir = path.join(directory, "bundle");
  const persistTo = path.join(directory, "state");
  await mkdir(assetsDir);
  // The bundle as `wrangler deploy` makes it (--dry-run writes it and stops; --assets: a build need not exist).
  await runWrangler(["deploy", "--dry-run", "--outdir", bundleDir, "--assets", assetsDir]);
  await applyMigrations(persistTo);

  const config = await readWranglerConfig();
  let output = "";
  const settingsJson = JSON.stringify(settings);
  const miniflare = new Miniflare({
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    modules: true,
    scriptPath: path.join(bundleDir, "index.js"),
    modulesRoot: bundleDir,
    bindings: { ...config.vars, ENVIRONMENT: "development", ...UNSET_SECRETS, ...vars },
    d1Databases: Object.fromEntries(config.d1_databases.map((database) => [database.binding, database.database_id])),
    queueProducers: Object.fromEntries(
      (config.queues.producers ?? []).map((producer) => [producer.binding, { queueName: producer.queue }]),
    ),
    queueConsumers: Object.fromEntries(
      config.queues.consumers.map((consumer) => [
        consumer.queue,
        {
          maxBatchSize: consumer.max_batch_size,
          maxBatchTimeout: consumer.max_batch_timeout,
          maxRetries: consumer.max_retries,
          deadLetterQueue: consumer.dead_letter_queue,
        },
      ]),
    ),
    ratelimits: Object.fromEntries((config.ratelimits ?? []).map((limiter) => [limiter.name, { simple: limiter.simple }])),
    serviceBindings: {
      ASSETS: (request: Request) =>
        new URL(request.url).pathname === SERVICE_SETTINGS_PATH
          ? new Response(settingsJson, { headers: { "content-type": "application/json" } })
          : new Response("Not found", { status: 404 }),
    },
    d1Persist: path.join(persistTo, "v3", "d1"),
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    },
  });
  await miniflare.ready;
  const deadLetterQueue = config.queues.consumers.find((consumer) => consumer.dead_letter_queue)?.dead_letter_queue;
  const db: D1Database = await miniflare.getD1Database("DB");

  return {
    scheduled: async (cron) => (await (await miniflare.getWorker()).scheduled({ cron })).outcome,
    fetch: async (requestPath, init) =>
      (await miniflare.dispatchFetch(`${SITE_ORIGIN}${requestPath}`, init as never)) as unknown as Response,
    deadLetter: async (body) => {
      const binding = config.queues.producers.find((producer) => producer.queue === deadLetterQueue)?.binding;
      if (!binding) throw new Error(`wrangler.jsonc has no producer binding for the dead-letter queue ${deadLetterQueue}`);
      await (await miniflare.getQueueProducer(binding)).send(body);
    },
    query: async <Row>(sql: string, ...params: unknown[]) =>
      (
        await db
          .prepare(sql)
          .bind(...params)
          .all<Row>()
      ).results,
    output: () => output,
    stop: async () => {
      await miniflare.dispose();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
