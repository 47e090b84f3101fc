/** Job 1: a clean Gatsby build, timed. */
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import path from "node:path";

/** The result of a clean build. */
export interface BuildTiming {
  /** Wall-clock seconds of `gatsby build` after `gatsby clean` (the clean itself is not counted). */
  buildSeconds: number;
  /** Where the build's own output went. */
  logFile: string;
}

/** Runs one Gatsby CLI command from the local install, appending its output to `log`; rejects on a non-zero exit. */
function gatsby(projectDir: string, args: string[], log: NodeJS.WritableStream): Promise<void> {
  const bin = path.join(projectDir, "node_modules", ".bin", "gatsby");
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd: projectDir,
      // CI=1: plain log lines instead of the interactive progress display.
      env: { ...process.env, GATSBY_TELEMETRY_DISABLED: "1", CI: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`gatsby ${args.join(" ")} exited with ${code}`))));
  });
}

/**
 * `gatsby clean` then `gatsby build` in `projectDir`, as a fresh clone would build.
 * @param logFile where both commands' output is written (the console only gets the timing)
 * @throws when either command fails; the message names the log file
 */
export async function cleanBuild(projectDir: string, logFile: string): Promise<BuildTiming> {
  const log = createWriteStream(logFile);
  try {
    await gatsby(projectDir, ["clean"], log);
    const start = process.hrtime.bigint();
    await gatsby(projectDir, ["build"], log);
    const buildSeconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { buildSeconds, logFile };
  } catch (error) {
    throw new Error(`${(error as Error).message}; see ${logFile}`);
  } finally {
    await new Promise((resolve) => log.end(resolve));
  }
}
