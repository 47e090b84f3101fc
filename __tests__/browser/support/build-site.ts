/**
 * Builds the site once for the browser tests, from the fixture content and with the
 * signup endpoint pointed at the provider stand-in.
 */
import { spawn } from "node:child_process";
import path from "node:path";

/** The worktree root (this file is __tests__/browser/support/build-site.ts). */
export const ROOT_DIR = path.resolve(__dirname, "..", "..", "..");
/** Where `gatsby build` writes the site. */
export const PUBLIC_DIR = path.join(ROOT_DIR, "public");
/** The content the tests build from (future launch moment, marked copy). */
export const FIXTURE_CONTENT_FILE = path.join(ROOT_DIR, "__tests__", "fixtures", "site.yaml");

/**
 * Run `gatsby build` with SITE_CONTENT_FILE = the fixture and SIGNUP_ENDPOINT_URL = `endpointUrl`.
 * Output is kept quiet and printed only when the build fails.
 * @param endpointUrl the stand-in's subscribe URL (http is allowed for 127.0.0.1)
 * @throws Error with the build's output when gatsby exits non-zero
 */
export function buildFixtureSite(endpointUrl: string): Promise<void> {
  const gatsby = path.join(ROOT_DIR, "node_modules", ".bin", "gatsby");
  const env = {
    ...process.env,
    GATSBY_TELEMETRY_DISABLED: "1",
    CI: "true",
    NODE_ENV: "production",
    SITE_CONTENT_FILE: FIXTURE_CONTENT_FILE,
    SIGNUP_ENDPOINT_URL: endpointUrl,
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
