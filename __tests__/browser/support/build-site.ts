/**
 * Builds the fixture site for the browser tests, from the fixture content (or a variant
 * of it) and with the signup endpoints pointed at the provider stand-in.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseDocument } from "yaml";
import { runGatsby } from "../../../scripts/lib/gatsby-build";
import { PERSISTENT_CACHE_VAR } from "../../../src/build/webpackCache";

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
 * Run `gatsby build` into PUBLIC_DIR with SITE_CONTENT_FILE, SIGNUP_ENDPOINT_URL and SIGNUP_NOSCRIPT_FORM_URL set,
 * keeping webpack's persistent cache: every run builds the fixture twice in this folder, so each build
 * after the first reuses it (src/build/webpackCache.ts). Output is kept quiet and printed only when the build fails.
 * @throws Error with the build's output when gatsby exits non-zero
 */
export async function buildFixtureSite({ contentFile = FIXTURE_CONTENT_FILE, endpointUrl, noScriptFormUrl }: FixtureBuild): Promise<void> {
  const { status, stdout, stderr } = await runGatsby(["build"], {
    projectDir: ROOT_DIR,
    env: {
      NODE_ENV: "production",
      SITE_CONTENT_FILE: contentFile,
      SIGNUP_ENDPOINT_URL: endpointUrl,
      SIGNUP_NOSCRIPT_FORM_URL: noScriptFormUrl,
      [PERSISTENT_CACHE_VAR]: "1",
    },
  });
  if (status === 0) return;
  process.stderr.write(stdout + stderr);
  throw new Error(`gatsby build of the fixture site failed (exit code ${status}); its output is above.`);
}
