/**
 * The build stops on every file of the broken-content corpus with the same report
 * `npm run check-content` prints: gatsby-node's sourceNodes is called as
 * Gatsby calls it, with SITE_CONTENT_FILE naming the file, and must panic with the
 * formatted errors and create no content node. (build.test.ts runs real builds, so
 * only for a few files; this covers them all.)
 * @jest-environment node
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { NodePluginArgs, SourceNodesArgs } from "gatsby";
import { sourceNodes } from "../../gatsby-node";
import { allErrors, loadAllContent } from "../../src/content/campaigns";
import { formatContentErrors, loadContentFile } from "../../src/content/load";
import { BROKEN_CASES, brokenFile, writeCorpus } from "./corpus";

const BROKEN_CAMPAIGNS = path.join(__dirname, "broken-campaigns");
const FIXTURE = path.join(__dirname, "..", "fixtures", "site.yaml");
const ORIGINAL = process.env.SITE_CONTENT_FILE;

afterAll(() => {
  if (ORIGINAL === undefined) delete process.env.SITE_CONTENT_FILE;
  else process.env.SITE_CONTENT_FILE = ORIGINAL;
});

/** Run sourceNodes on `file` with a recording reporter. */
function source(file: string) {
  process.env.SITE_CONTENT_FILE = file;
  const panics: unknown[] = [];
  // What sourceNodes passes to createNode: the fields these tests read.
  const createNode = jest.fn<void, [{ id: string; derived: { pagePath: string } }]>();
  const deleteNode = jest.fn();
  const args = {
    actions: { createNode, deleteNode },
    getNode: (id: string) => ({ id }),
    createNodeId: (seed: string) => `id-${seed}`,
    createContentDigest: () => "digest",
    reporter: {
      info: jest.fn(),
      warn: jest.fn(),
      setErrorMap: jest.fn(),
      panicOnBuild: (error: unknown) => panics.push(error),
    },
  } as unknown as SourceNodesArgs & NodePluginArgs;
  (sourceNodes as (args: SourceNodesArgs) => void)(args);
  return { panics, createNode, deleteNode };
}

// The build reads the file named by SITE_CONTENT_FILE, so the corpus is written out once.
const CORPUS_FOLDER = mkdtempSync(path.join(os.tmpdir(), "broken-content-"));
const written = writeCorpus(CORPUS_FOLDER, Object.fromEntries(BROKEN_CASES.map((testCase) => [testCase.name, brokenFile(testCase).text])));
const files = Object.keys(written);
afterAll(() => rmSync(CORPUS_FOLDER, { recursive: true, force: true }));

it.each(files)("%s stops the build with check-content's report and creates no node", (file) => {
  const full = written[file];
  const checked = loadContentFile(full);
  if (checked.ok) throw new Error(`${file} was accepted`);
  const { panics, createNode } = source(full);
  expect(panics).toEqual([{ id: "CONTENT", context: { sourceMessage: formatContentErrors(checked.errors) } }]);
  expect(createNode).not.toHaveBeenCalled();
});

it("builds the fixture: one SiteContent node for / and one for its campaign page, and no panic", () => {
  const { panics, createNode } = source(FIXTURE);
  expect(panics).toEqual([]);
  expect(createNode).toHaveBeenCalledTimes(2);
  expect(createNode.mock.calls[0][0]).toMatchObject({
    internal: { type: "SiteContent" },
    home: { title: "Fixture title: secure your spot" },
    campaign: null,
    derived: { pagePath: "/" },
  });
  expect(createNode.mock.calls[1][0]).toMatchObject({
    internal: { type: "SiteContent" },
    // The campaign's own title; what it leaves out (the form) and the site-wide provider come from the site file.
    home: { title: "Fixture campaign: get funded for your NBA picks", form: { submit: "Secure Spot & Access Discord" } },
    provider: { listId: "WtL1st" },
    campaign: { source: "fixture-nba-ads" },
    derived: { pagePath: "/nba-ads/" },
  });
});

describe("a broken campaign file beside a valid site file", () => {
  const campaignFiles = readdirSync(BROKEN_CAMPAIGNS).filter((file) => file.endsWith(".yaml"));
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), "campaign-build-"));
    copyFileSync(FIXTURE, path.join(folder, "site.yaml"));
    mkdirSync(path.join(folder, "campaigns"));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it.each(campaignFiles)("%s stops the build with check-content's report and creates no node", (file) => {
    copyFileSync(path.join(BROKEN_CAMPAIGNS, file), path.join(folder, "campaigns", file));
    const siteFile = path.join(folder, "site.yaml");
    const errors = allErrors(loadAllContent(siteFile));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((error) => error.file.endsWith(path.join("campaigns", file)))).toBe(true);
    const { panics, createNode } = source(siteFile);
    expect(panics).toEqual([{ id: "CONTENT", context: { sourceMessage: formatContentErrors(errors) } }]);
    expect(createNode).not.toHaveBeenCalled();
  });
});

it("deletes the page node of a campaign file that is gone when the content is read again (develop's reload)", () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "campaign-reload-"));
  try {
    copyFileSync(FIXTURE, path.join(folder, "site.yaml"));
    mkdirSync(path.join(folder, "campaigns"));
    copyFileSync(path.join(__dirname, "..", "fixtures", "campaigns", "nba-ads.yaml"), path.join(folder, "campaigns", "nba-ads.yaml"));
    const first = source(path.join(folder, "site.yaml"));
    expect(first.createNode.mock.calls.map(([node]) => node.derived.pagePath)).toEqual(["/", "/nba-ads/"]);
    const campaignNodeId = first.createNode.mock.calls[1][0].id;

    rmSync(path.join(folder, "campaigns", "nba-ads.yaml"));
    const second = source(path.join(folder, "site.yaml"));
    expect(second.createNode.mock.calls.map(([node]) => node.derived.pagePath)).toEqual(["/"]);
    expect(second.deleteNode.mock.calls).toEqual([[{ id: campaignNodeId }]]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
