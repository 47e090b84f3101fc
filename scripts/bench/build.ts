/** The bench's build measurement: a clean Gatsby build, timed. */
import { createWriteStream } from "node:fs";
import { runGatsby } from "../lib/gatsby-build";

/** The result of a clean build. */
export interface BuildTiming {
  /** Wall-clock seconds of `gatsby build` after `gatsby clean` (the clean itself is not counted). */
  buildSeconds: number;
  /** Where the build's own output went. */
  logFile: string;
}

/**
 * `gatsby clean` then `gatsby build` in `projectDir`, as a fresh clone would build.
 * @param logFile where both commands' output is written (the console only gets the timing)
 * @throws when either command fails; the message names the log file
 */
export async function cleanBuild(projectDir: string, logFile: string): Promise<BuildTiming> {
  const log = createWriteStream(logFile);
  const run = async (command: string) => {
    const result = await runGatsby([command], { projectDir, log });
    if (result.status !== 0) throw new Error(`gatsby ${command} exited with ${result.status}; see ${logFile}`);
    return result;
  };
  try {
    await run("clean");
    const { seconds } = await run("build");
    return { buildSeconds: seconds, logFile };
  } finally {
    await new Promise((resolve) => log.end(resolve));
  }
}
