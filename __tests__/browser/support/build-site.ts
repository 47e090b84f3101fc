/**
 * Builds the fixture site for the browser tests, from the fixture content (or a variant
 * of it) and with the signup endpoints pointed at the provider stand-in.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseDocument } from "yaml";

/** The worktree root (this file is __tests__/browser/support/build-site.ts). */
export const ROOT_DIR = path.resolve(__dirname, "..", "..", "..");
/** Where `gatsby build` writes the site. */
export const PUBLIC_DIR = path.join(ROOT_DIR, "public");
/** The content the tests build from (future launch moment, marked copy). */
export const FIXTURE_CONTENT_FILE = path.join(ROOT_DIR, "__tests__", "fixtures", "site.yaml");
/** The ad pixel id of the legacy-form + pixel build (digits, as Meta's are). */
export const FIXTURE_PIXEL_ID = "123456789012345";

/** What to build. */
export interface FixtureBuild {
  /** The content file (default FIXTURE_CONTENT_FILE). */
  contentFile?: string;
  /** SIGNUP_ENDPOINT_URL: the stand-in's URL for the content's transport (http is allowed for 127.0.0.1). */
  endpointUrl: string;
  /** SIGNUP_NOSCRIPT_FORM_URL: the stand-in's no-JavaScript form URL. */
  noScriptFormUrl: string;
}

/**
 * Write a variant of the fixture content with some fields changed, keeping everything else.
 * @param file where to write it
 * @param changes [path, value] pairs, e.g. [["provider", "transport"], "legacy-form"]
 * @returns file
 */
export function writeFixtureVariant(file: string, changes: [string[], unknown][]): string {
  const doc = parseDocument(readFileSync(FIXTURE_CONTENT_FILE, "utf8"));
  for (const [at, value] of changes) doc.setIn(at, value);
  writeFileSync(file, doc.toString());
  return file;
}

/**
 * Run `gatsby build` into PUBLIC_DIR with SITE_CONTENT_FILE, SIGNUP_ENDPOINT_URL and SIGNUP_NOSCRIPT_FORM_URL set.
 * Output is kept quiet and printed only when the build fails.
 * @throws Error with the build's output when gatsby exits non-zero
 */
export function buildFixtureSite({ contentFile = FIXTURE_CONTENT_FILE, endpointUrl, noScriptFormUrl }: FixtureBuild): Promise<void> {
  const gatsby = path.join(ROOT_DIR, "node_modules", ".bin", "gatsby");
  const env = {
    ...process.env,
    GATSBY_TELEMETRY_DISABLED: "1",
    CI: "true",
    NODE_ENV: "production",
    SITE_CONTENT_FILE: contentFile,
    SIGNUP_ENDPOINT_URL: endpointUrl,
    SIGNUP_NOSCRIPT_FORM_URL: noScriptFormUrl,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(gatsby, ["build"], { cwd: ROOT_DIR, env, stdio: ["ignore", "pipe", "pipe"] });
    const output: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) return resolve();
      const log = Buffer.concat(output).toString("utf8");
      process.stderr.write(log);
      reject(new Error(`gatsby build of the fixture site failed (exit code ${code}); its output is above.`));
    });
  });
}
