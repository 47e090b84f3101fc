/**
 * @jest-environment node
 *
 * `npm run develop` reloads content when an editor saves: the site file, and any
 * campaign file added to, changed in or deleted from its campaigns folder.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FSWatcher } from "chokidar";
import { watchContentFiles } from "../../src/content/watch";

let folder: string;
let watcher: FSWatcher | null = null;
let seen: string[];

beforeEach(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), "content-watch-"));
  writeFileSync(path.join(folder, "site.yaml"), "site: {}\n");
  mkdirSync(path.join(folder, "campaigns"));
  seen = [];
  watcher = watchContentFiles(path.join(folder, "site.yaml"), (file) => seen.push(path.relative(folder, file)));
  await new Promise<void>((resolve) => watcher?.once("ready", () => resolve()));
});
afterEach(async () => {
  await watcher?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Wait until `expected` has been reported (chokidar waits for the file to settle first). */
async function waitFor(expected: string[]) {
  const until = Date.now() + 10_000;
  while (Date.now() < until && seen.length < expected.length) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(seen).toEqual(expected);
}

it("reports a saved site file", async () => {
  writeFileSync(path.join(folder, "site.yaml"), "site: { changed: true }\n");
  await waitFor(["site.yaml"]);
});

it("reports a campaign file when it is added, saved and deleted, and ignores other files", async () => {
  const campaign = path.join(folder, "campaigns", "nba-ads.yaml");
  writeFileSync(path.join(folder, "campaigns", "notes.txt"), "not content\n");
  writeFileSync(campaign, "campaign:\n  source: nba\n");
  await waitFor(["campaigns/nba-ads.yaml"]);
  writeFileSync(campaign, "campaign:\n  source: nba-ads\n");
  await waitFor(["campaigns/nba-ads.yaml", "campaigns/nba-ads.yaml"]);
  unlinkSync(campaign);
  await waitFor(["campaigns/nba-ads.yaml", "campaigns/nba-ads.yaml", "campaigns/nba-ads.yaml"]);
});
