/**
 * Builds the fixture site for the browser tests, from the fixture content (or a variant
 * of it) and with the signup endpoints pointed at the provider stand-in.
 */
import path from "node:path";
import { runGatsby } from "../../../scripts/lib/gatsby-build";
import { PERSISTENT_CACHE_VAR } from "../../../src/build/webpackCache";

export { writeFixtureVariant } from "../../support/content";

/** The worktree root (this file is __tests__/browser/support/build-site.ts). */
export const ROOT_DIR = path.resolve(__dirname, "..", "..", "..");
/** Where `gatsby build` writes the site. */
export const PUBLIC_DIR = path.join(ROOT_DIR, "public");
/** The content the tests build from (future launch moment, marked copy). */
export const FIXTURE_CONTENT_FILE = path.join(ROOT_DIR, "__tests__", "fixtures", "site.yaml");
/** The ad pixel id of the legacy-form + pixel build (digits, as Meta's are). */
export const FIXTURE_PIXEL_ID = "123456789012345";

export interface FixtureBuild {
  /** The content file (default FIXTURE_CONTENT_FILE). */
  contentFile?: string;
  /** SIGNUP_ENDPOINT_URL: the stand-in's URL for the content's transport (http is allowed for 127.0.0.1); left out: the transport's own. */
  endpointUrl?: string;
  /** SIGNUP_NOSCRIPT_FORM_URL: the stand-in's no-JavaScript form URL; left out: the transport's own. */
  noScriptFormUrl?: string;
  /** TURNSTILE_SCRIPT_URL: the Turnstile stand-in script, for a content file with a Turnstile site key. */
  turnstileScriptUrl?: string;
}

/**
 * Run `gatsby build` into PUBLIC_DIR. Overrides not given are set empty, so a developer's shell cannot leak in;
 * webpack's persistent cache is kept, since every run builds the fixture three times in this folder.
 * @throws Error with the build's output when gatsby exits non-zero
 */
export async function buildFixtureSite({
  contentFile = FIXTURE_CONTENT_FILE,
  endpointUrl,
  noScriptFormUrl,
  turnstileScriptUrl,
}: FixtureBuild): Promise<void> {
  const { status, stdout, stderr } = await runGatsby(["build"], {
    projectDir: ROOT_DIR,
    env: {
      NODE_ENV: "production",
      SITE_CONTENT_FILE: contentFile,
      SIGNUP_ENDPOINT_URL: endpointUrl ?? "",
      SIGNUP_NOSCRIPT_FORM_URL: noScriptFormUrl ?? "",
      TURNSTILE_SCRIPT_URL: turnstileScriptUrl ?? "",
      [PERSISTENT_CACHE_VAR]: "1",
    },
  });
  if (status === 0) return;
  process.stderr.write(stdout + stderr);
  throw new Error(`gatsby build of the fixture site failed (exit code ${status}); its output is above.`);
}
