/**
 * Checks a content file the way the build does, in about a second, without
 * starting Gatsby.
 *
 * Usage:
 *   npm run check-content                      checks content/site.yaml (or SITE_CONTENT_FILE)
 *   npm run check-content -- content/variants/x.yaml
 *
 * Prints `<file> is valid` and exits 0, or prints every mistake (file:line:column,
 * field, what is wrong, an example) to stderr and exits 1. Exits 2 when the file
 * cannot be read at all.
 */
import path from "node:path";
import { contentFilePath } from "../src/content/derive";
import { formatContentErrors, loadContentFile } from "../src/content/load";

const file = process.argv[2] ? path.resolve(process.argv[2]) : contentFilePath();
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
} else {
  console.error(formatContentErrors(result.errors));
  process.exitCode = 1;
}
