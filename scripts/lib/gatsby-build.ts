/** The one way our tools run the Gatsby CLI: the project's own install, telemetry off, plain log lines. */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";

/** The repository root (this file is scripts/lib/gatsby-build.ts). */
export const PROJECT_DIR = path.resolve(__dirname, "..", "..");

export interface GatsbyRunOptions {
  /** Where to run it (default PROJECT_DIR); its node_modules/.bin/gatsby is used. */
  projectDir?: string;
  /** Variables added to this process's environment (SITE_CONTENT_FILE, SIGNUP_ENDPOINT_URL…). */
  env?: NodeJS.ProcessEnv;
  /** Also copy the output here as it comes (the stream is left open). */
  log?: NodeJS.WritableStream;
}

export interface GatsbyRun {
  /** The exit code; null when a signal ended it. */
  status: number | null;
  stdout: string;
  stderr: string;
  /** Wall-clock duration (s). */
  seconds: number;
}

/**
 * Run `gatsby <args>` and wait for it to end. A failing command is not an error here:
 * callers read `status` (a content test expects the build to fail).
 * @throws only when the CLI cannot be started at all (no node_modules: run `npm ci`)
 */
export function runGatsby(args: string[], { projectDir = PROJECT_DIR, env = {}, log }: GatsbyRunOptions = {}): Promise<GatsbyRun> {
  const bin = path.join(projectDir, "node_modules", ".bin", "gatsby");
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd: projectDir,
      // CI: plain log lines instead of the interactive progress display; no colour codes in what tests read.
      env: { ...process.env, GATSBY_TELEMETRY_DISABLED: "1", CI: "1", FORCE_COLOR: "0", NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    if (log) {
      child.stdout.pipe(log, { end: false });
      child.stderr.pipe(log, { end: false });
    }
    child.on("error", reject);
    child.on("close", (status) =>
      resolve({
        status,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      }),
    );
  });
}

/**
 * `gatsby build` into `outDir` (with `env`, e.g. another SITE_CONTENT_FILE), leaving the project's own build as it
 * was: Gatsby always writes `public/`, so the project's is moved aside and put back whatever happens, and `.cache/` is
 * then removed, as it describes the other build, not the `public/` put back.
 * @param outDir replaced if it exists
 * @throws Error naming the exit code when the build fails (the project's `public/` is still put back)
 */
export async function buildAside(outDir: string, { projectDir = PROJECT_DIR, env, log }: GatsbyRunOptions = {}): Promise<void> {
  const publicDir = path.join(projectDir, "public");
  const keptDir = `${outDir}-kept-public`;
  const kept = existsSync(publicDir);
  await rm(keptDir, { recursive: true, force: true });
  await rm(outDir, { recursive: true, force: true });
  await mkdir(path.dirname(outDir), { recursive: true });
  if (kept) await rename(publicDir, keptDir);
  try {
    const { status } = await runGatsby(["build"], { projectDir, env, log });
    if (status !== 0) throw new Error(`gatsby build into ${outDir} exited with ${status}; see the build log`);
    await rename(publicDir, outDir);
  } finally {
    if (existsSync(publicDir)) await rm(publicDir, { recursive: true, force: true });
    if (kept) await rename(keptDir, publicDir);
    await rm(path.join(projectDir, ".cache"), { recursive: true, force: true });
  }
}
