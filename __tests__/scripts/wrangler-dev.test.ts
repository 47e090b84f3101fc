/**
 * `startWranglerDev` (scripts/lib/wrangler.ts) beside services already running, as the test suites start them: each
 * test file starts its own while others serve pages. A running `wrangler dev` reloads when its config file is
 * replaced, and a reload drops the requests it is serving.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PROJECT_DIR, startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler";

/** The service tests' build: a service-settings.json and nothing else. */
const ASSETS_DIR = path.join(PROJECT_DIR, "__tests__", "service", "fixtures", "public");
/** How long the first service is watched after the second started (ms): wrangler's file watcher reacts within one. */
const WATCH_MS = 3_000;

let directory: string;
const services: WranglerDev[] = [];

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "wrangler-dev-"));
});

afterAll(async () => {
  await Promise.all(services.map((service) => service.stop()));
  await rm(directory, { recursive: true, force: true });
});

it("starting a second service leaves the first one serving, never reloaded under its requests", async () => {
  const first = await startWranglerDev({ assetsDir: ASSETS_DIR, persistTo: path.join(directory, "first") });
  services.push(first);
  services.push(await startWranglerDev({ assetsDir: ASSETS_DIR, persistTo: path.join(directory, "second") }));
  await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
  expect(first.output()).not.toContain("Reloading local server");
  expect((await fetch(`${first.origin}/service-settings.json`)).status).toBe(200);
}, 120_000);
