/**
 * Checks a content file the way the build does, in about a second, without
 * starting Gatsby.
 *
 * Usage:
 *   npm run check-content                      checks content/site.yaml (or SITE_CONTENT_FILE)
 *   npm run check-content -- content/variants/x.yaml
 *   npm run check-content -- --format github   mistakes as GitHub workflow commands (pull-request annotations)
 *
 * Prints `<file> is valid` and exits 0, or prints every mistake (file:line:column,
 * field, what is wrong, an example) to stderr and exits 1. Exits 2 when the file
 * cannot be read at all.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { contentFilePath } from "../src/content/derive";
import { formatContentErrors, formatContentErrorsForGitHub, loadContentFile } from "../src/content/load";

/** The repository root (this file is scripts/check-content.ts): GitHub wants paths relative to it. */
const ROOT = path.resolve(__dirname, "..");
/** Output formats: `text` for people (the default), `github` for GitHub Actions annotations. */
const FORMATS = ["text", "github"];

const { values, positionals } = parseArgs({ options: { format: { type: "string", default: "text" } }, allowPositionals: true });
if (!FORMATS.includes(values.format as string)) {
  console.error(`Unknown --format ${values.format}: use one of ${FORMATS.join(", ")}.`);
  process.exit(2);
}
const file = positionals[0] ? path.resolve(positionals[0]) : contentFilePath();
const display = path.relative(process.cwd(), file) || file;

let result: ReturnType<typeof loadContentFile>;
try {
  result = loadContentFile(file);
} catch (error) {
  console.error(`Cannot read ${display}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "there is no such file." : (error as Error).message}`);
  process.exit(2);
}

if (result.ok) {
  console.log(`${display} is valid`);
} else if (values.format === "github") {
  // Workflow commands are read from standard output.
  process.stdout.write(formatContentErrorsForGitHub(result.errors, ROOT));
  process.exitCode = 1;
} else {
  console.error(formatContentErrors(result.errors));
  process.exitCode = 1;
}
