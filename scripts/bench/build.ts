/** The bench's build measurement: a clean Gatsby build, timed, with the time of each of its steps. */
import { createWriteStream } from "node:fs";
import { runGatsby } from "../lib/gatsby-build";

/** One step of the build as Gatsby reports it (`success Building HTML renderer - 4.120s`). */
export interface BuildStep {
  step: string;
  seconds: number;
}

export interface BuildTiming {
  /** Wall-clock seconds of `gatsby build` after `gatsby clean` (the clean itself is not counted). */
  buildSeconds: number;
  /** Gatsby's own timing of each step, in the order it printed them (steps may overlap, so they need not add up). */
  steps: BuildStep[];
  /** Where the build's own output went. */
  logFile: string;
}

/** Gatsby's step lines: `success <step> - <seconds>s`, optionally followed by a count and rate. */
const STEP_LINE = /^success (.+?) - (\d+(?:\.\d+)?)s\b/;

/** The steps Gatsby timed, read from its output. */
export function buildSteps(output: string): BuildStep[] {
  return output.split("\n").flatMap((line) => {
    const match = STEP_LINE.exec(line.trim());
    return match ? [{ step: match[1], seconds: Number(match[2]) }] : [];
  });
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
    const { seconds, stdout } = await run("build");
    return { buildSeconds: seconds, steps: buildSteps(stdout), logFile };
  } finally {
    await new Promise((resolve) => log.end(resolve));
  }
}
