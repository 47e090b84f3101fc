/**
 * The build stops on every file of the broken-content corpus with the same report
 * `npm run check-content` prints (issue 4): gatsby-node's sourceNodes is called as
 * Gatsby calls it, with SITE_CONTENT_FILE naming the file, and must panic with the
 * formatted errors and create no content node. (build.test.ts runs two real builds;
 * this covers all files in a second.)
 * @jest-environment node
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import type { NodePluginArgs, SourceNodesArgs } from "gatsby";
import { sourceNodes } from "../../gatsby-node";
import { formatContentErrors, loadContentFile } from "../../src/content/load";

const BROKEN = path.join(__dirname, "broken");
const ORIGINAL = process.env.SITE_CONTENT_FILE;

afterAll(() => {
  if (ORIGINAL === undefined) delete process.env.SITE_CONTENT_FILE;
  else process.env.SITE_CONTENT_FILE = ORIGINAL;
});

/** Run sourceNodes on `file` with a recording reporter. */
function source(file: string) {
  process.env.SITE_CONTENT_FILE = file;
  const panics: unknown[] = [];
  const createNode = jest.fn();
  const args = {
    actions: { createNode },
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
  return { panics, createNode };
}

const files = readdirSync(BROKEN).filter((file) => file.endsWith(".yaml"));

it("has the whole corpus to check", () => {
  expect(files.length).toBeGreaterThanOrEqual(25);
});

it.each(files)("%s stops the build with check-content's report and creates no node", (file) => {
  const full = path.join(BROKEN, file);
  const checked = loadContentFile(full);
  if (checked.ok) throw new Error(`${file} was accepted`);
  const { panics, createNode } = source(full);
  expect(panics).toEqual([{ id: "CONTENT", context: { sourceMessage: formatContentErrors(checked.errors) } }]);
  expect(createNode).not.toHaveBeenCalled();
});

it("builds the fixture: one SiteContent node and no panic", () => {
  const { panics, createNode } = source(path.join(__dirname, "..", "fixtures", "site.yaml"));
  expect(panics).toEqual([]);
  expect(createNode).toHaveBeenCalledTimes(1);
  expect(createNode.mock.calls[0][0]).toMatchObject({ internal: { type: "SiteContent" }, home: { title: "Fixture title: secure your spot" } });
});
