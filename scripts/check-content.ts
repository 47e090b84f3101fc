/**
 * Checks content files the way the build does, without starting Gatsby.
 *
 * Usage:
 *   npm run check-content                      checks content/site.yaml (or SITE_CONTENT_FILE) and every campaign file beside it
 *   npm run check-content -- content/campaigns/nba-ads.yaml
 *   npm run check-content -- content/variants/x.yaml
 *   npm run check-content -- --format github   mistakes as GitHub workflow commands (pull-request annotations)
 *
 * A file in a `campaigns` folder is checked merged over its site file. Exits 0 when every file is
 * valid, 1 with every mistake on stderr, 2 when a file cannot be read.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { isCampaignFile, loadAllContent, loadCampaign, siteFileFor, type AllContent } from "../src/content/campaigns";
import { contentFilePath } from "../src/content/derive";
import { type ContentError, formatContentErrors, formatContentErrorsForGitHub, loadContentFile } from "../src/content/load";

/** The repository root (this file is scripts/check-content.ts): GitHub wants paths relative to it. */
const ROOT = path.resolve(__dirname, "..");
/** Output formats: `text` for people (the default), `github` for GitHub Actions annotations. */
const FORMATS = ["text", "github"];

const { values, positionals } = parseArgs({ options: { format: { type: "string", default: "text" } }, allowPositionals: true });
if (!FORMATS.includes(values.format)) {
  console.error(`Unknown --format ${values.format}: use one of ${FORMATS.join(", ")}.`);
  process.exit(2);
}

const display = (file: string) => path.relative(process.cwd(), file) || file;

/** Each checked file with its mistakes (none when it is valid). */
function check(): { file: string; errors: ContentError[] }[] {
  const arg = positionals[0];
  if (!arg) {
    const all: AllContent = loadAllContent(contentFilePath());
    return [all.site, ...all.campaigns].map(({ file, result }) => ({ file, errors: result.ok ? [] : result.errors }));
  }
  const file = path.resolve(arg);
  if (!isCampaignFile(file)) {
    const result = loadContentFile(file);
    return [{ file, errors: result.ok ? [] : result.errors }];
  }
  // A campaign is merged over its site file: a mistake there has to be fixed first.
  const siteFile = siteFileFor(file, contentFilePath());
  const site = loadContentFile(siteFile);
  if (!site.ok) return [{ file: siteFile, errors: site.errors }];
  const { result } = loadCampaign(file, site.content, siteFile);
  return [{ file, errors: result.ok ? [] : result.errors }];
}

let checked: ReturnType<typeof check>;
try {
  checked = check();
} catch (error) {
  const { code, path: missing } = error as NodeJS.ErrnoException;
  const name = missing ? display(missing) : display(path.resolve(positionals[0] ?? contentFilePath()));
  console.error(`Cannot read ${name}: ${code === "ENOENT" ? "there is no such file." : (error as Error).message}`);
  process.exit(2);
}

for (const { file, errors } of checked) {
  if (errors.length === 0) console.log(`${display(file)} is valid`);
}
const errors = checked.flatMap((entry) => entry.errors);
if (errors.length > 0 && values.format === "github") {
  // Workflow commands are read from standard output.
  process.stdout.write(formatContentErrorsForGitHub(errors, ROOT));
  process.exitCode = 1;
} else if (errors.length > 0) {
  console.error(formatContentErrors(errors));
  process.exitCode = 1;
}
