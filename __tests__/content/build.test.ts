/**
 * @jest-environment node
 *
 * The two ways editors meet content errors, run as they run them:
 * `npm run check-content` (the tsx script) and the Gatsby build, which must stop
 * with the same text. Each case is a whole `gatsby build`, so there are only three.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { runGatsby } from "../../scripts/lib/gatsby-build";
import { allErrors, loadAllContent } from "../../src/content/campaigns";
import { formatContentErrors, loadContentFile } from "../../src/content/load";
import { brokenCase, brokenFile, multipleFile, writeCorpus } from "./corpus";

const ROOT = path.join(__dirname, "..", "..");
const BIN = path.join(ROOT, "node_modules", ".bin");
const FIXTURE = "__tests__/fixtures/site.yaml";
const FIXTURE_CAMPAIGN = "__tests__/fixtures/campaigns/nba-ads.yaml";

/**
 * A site folder inside the repository (so paths print relative, as an editor's would):
 * the fixture as `site.yaml` and one broken campaign from the corpus in `campaigns/`.
 * @returns the folder, relative to the repository root; the caller removes it
 */
function siteWithBrokenCampaign(name: string): string {
  const folder = path.relative(ROOT, mkdtempSync(path.join(ROOT, "__tests__", "content", ".tmp-site-")));
  copyFileSync(path.join(ROOT, FIXTURE), path.join(ROOT, folder, "site.yaml"));
  mkdirSync(path.join(ROOT, folder, "campaigns"));
  copyFileSync(path.join(ROOT, "__tests__", "content", "broken-campaigns", name), path.join(ROOT, folder, "campaigns", name));
  return folder;
}

/**
 * The corpus files these runs read, written inside the repository (so paths print
 * relative, as an editor's would): repository-relative path by case name.
 */
const CORPUS_FOLDER = mkdtempSync(path.join(ROOT, "__tests__", "content", ".tmp-corpus-"));
const corpus = Object.fromEntries(
  Object.entries(
    writeCorpus(CORPUS_FOLDER, {
      "three-schema-mistakes": multipleFile("three-schema-mistakes").text,
      "url-http": brokenFile(brokenCase("url-http")).text,
      "syntax-unclosed-quote": brokenFile(brokenCase("syntax-unclosed-quote")).text,
    }),
  ).map(([name, file]) => [name, path.relative(ROOT, file)]),
);
afterAll(() => rmSync(CORPUS_FOLDER, { recursive: true, force: true }));

/** Run a command from the repository root, as an editor would. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(path.join(BIN, command), args, {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 90_000,
    env: { ...process.env, GATSBY_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0", NO_COLOR: "1", ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The errors check-content and the build print for `file` (the file is broken on purpose). */
function expectedReport(file: string): string {
  const result = loadContentFile(path.join(ROOT, file));
  if (result.ok) throw new Error(`${file} should be invalid`);
  return formatContentErrors(result.errors.map((error) => ({ ...error, file })));
}

/** Terminal output without colour codes, with runs of whitespace made one space (Gatsby wraps long lines). */
const flat = (text: string) =>
  text
    // eslint-disable-next-line no-control-regex -- terminal colour codes begin with the ESC control character
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, "")
    .replace(/\s+/g, " ")
    .trim();

describe("npm run check-content", () => {
  it("prints `<file> is valid` and exits 0 for a valid file", () => {
    const { status, stdout, stderr } = run("tsx", ["scripts/check-content.ts", FIXTURE]);
    expect({ status, stdout, stderr }).toEqual({ status: 0, stdout: `${FIXTURE} is valid\n`, stderr: "" });
  });

  it("checks content/site.yaml when no file is given", () => {
    const { status, stdout } = run("tsx", ["scripts/check-content.ts"], { SITE_CONTENT_FILE: "" });
    expect({ status, stdout }).toEqual({ status: 0, stdout: "content/site.yaml is valid\n" });
  });

  it("checks the site file and every campaign file beside it when no file is given", () => {
    const { status, stdout, stderr } = run("tsx", ["scripts/check-content.ts"], { SITE_CONTENT_FILE: FIXTURE });
    expect({ status, stdout, stderr }).toEqual({ status: 0, stdout: `${FIXTURE} is valid\n${FIXTURE_CAMPAIGN} is valid\n`, stderr: "" });
  });

  it("checks one campaign file, merged over its site file", () => {
    const { status, stdout, stderr } = run("tsx", ["scripts/check-content.ts", FIXTURE_CAMPAIGN]);
    expect({ status, stdout, stderr }).toEqual({ status: 0, stdout: `${FIXTURE_CAMPAIGN} is valid\n`, stderr: "" });
  });

  it("prints a broken campaign file's mistake at its own line and exits 1, with or without naming the file", () => {
    const folder = siteWithBrokenCampaign("unknown-key.yaml");
    try {
      const campaign = `${folder}/campaigns/unknown-key.yaml`;
      const report = formatContentErrors(
        allErrors(loadAllContent(path.join(ROOT, folder, "site.yaml"))).map((error) => ({ ...error, file: campaign })),
      );
      expect(report).toContain(`${campaign}:7:3  home.titel\n  \`titel\` is not a field in \`home\`. Did you mean \`title\`?`);
      expect(run("tsx", ["scripts/check-content.ts", campaign])).toMatchObject({ status: 1, stdout: "", stderr: `${report}\n` });
      expect(run("tsx", ["scripts/check-content.ts"], { SITE_CONTENT_FILE: `${folder}/site.yaml` })).toMatchObject({
        status: 1,
        stdout: `${folder}/site.yaml is valid\n`,
        stderr: `${report}\n`,
      });
    } finally {
      rmSync(path.join(ROOT, folder), { recursive: true, force: true });
    }
  });

  it("prints every mistake to stderr and exits 1 for a broken file", () => {
    const file = corpus["three-schema-mistakes"];
    const [, urlLine] = multipleFile("three-schema-mistakes").changedLines;
    const { status, stdout, stderr } = run("tsx", ["scripts/check-content.ts", file]);
    expect({ status, stdout, stderr }).toEqual({ status: 1, stdout: "", stderr: `${expectedReport(file)}\n` });
    expect(stderr).toContain(`${file}:${urlLine}:10  links.social.url\n`);
  });

  it("prints GitHub workflow commands with --format github, one per mistake, with repository-relative paths", () => {
    const file = corpus["three-schema-mistakes"];
    const [keyLine, urlLine, subtextLine] = multipleFile("three-schema-mistakes").changedLines;
    const { status, stdout } = run("tsx", ["scripts/check-content.ts", "--format", "github", file]);
    expect(status).toBe(1);
    const lines = stdout.trim().split("\n");
    expect(lines.map((line) => line.slice(0, line.indexOf("::", 2)))).toEqual([
      `::error file=${file},line=${keyLine},col=17,title=Content mistake in provider.publicApiKey`,
      `::error file=${file},line=${urlLine},col=10,title=Content mistake in links.social.url`,
      `::error file=${file},line=${subtextLine},col=12,title=Content mistake in success.subtext`,
    ]);
    // One line per mistake: the example follows the message on a second line, escaped as GitHub reads it.
    expect(lines[1]).toBe(
      `::error file=${file},line=${urlLine},col=10,title=Content mistake in links.social.url::This address starts with http://, which is not encrypted. Use https:// instead.%0AExample of a valid value:  url: "https://x.com/pickfund"`,
    );
  });

  it("refuses an unknown --format and keeps the text format by default", () => {
    expect(run("tsx", ["scripts/check-content.ts", "--format", "xml", FIXTURE])).toMatchObject({
      status: 2,
      stderr: "Unknown --format xml: use one of text, github.\n",
    });
  });

  it("exits 2 and says so when the file does not exist", () => {
    const { status, stderr } = run("tsx", ["scripts/check-content.ts", "content/no-such-file.yaml"]);
    expect({ status, stderr }).toEqual({ status: 2, stderr: "Cannot read content/no-such-file.yaml: there is no such file.\n" });
  });
});

describe("gatsby build with a broken content file", () => {
  it.each(["url-http", "syntax-unclosed-quote"])(
    "stops with the same report check-content prints (%s)",
    async (name) => {
      const file = corpus[name];
      const { status, stdout, stderr } = await runGatsby(["build"], { env: { SITE_CONTENT_FILE: file } });
      const output = flat(stdout + stderr);
      expect(status).toBe(1);
      expect(output).toContain(flat(expectedReport(file)));
      expect(output).not.toContain("ERROR UNKNOWN");
    },
    90_000,
  );

  it("stops on a broken campaign file with the same report check-content prints", async () => {
    const folder = siteWithBrokenCampaign("site-wide-provider.yaml");
    try {
      const { status, stdout, stderr } = await runGatsby(["build"], { env: { SITE_CONTENT_FILE: `${folder}/site.yaml` } });
      const report = formatContentErrors(allErrors(loadAllContent(path.join(ROOT, folder, "site.yaml"))));
      expect(report).toContain(`${folder}/campaigns/site-wide-provider.yaml:9:1  provider`);
      expect(status).toBe(1);
      expect(flat(stdout + stderr)).toContain(flat(report));
    } finally {
      rmSync(path.join(ROOT, folder), { recursive: true, force: true });
    }
  }, 90_000);
});
