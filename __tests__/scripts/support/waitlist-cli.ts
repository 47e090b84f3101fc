/** `npm run waitlist` as the scripts tests run it: a child process to its end, its exit code and what it printed. */
import { spawn } from "node:child_process";
import path from "node:path";
import { PROJECT_DIR } from "../../../scripts/lib/wrangler";

/** What one run came to: the exit code, the standard output, and both streams together. */
export interface CliRun {
  code: number | null;
  stdout: string;
  output: string;
}

/** Run `scripts/service/waitlist.ts` with `args` (and more shell variables) to its end. */
export function runWaitlistCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(PROJECT_DIR, "node_modules", ".bin", "tsx"), ["scripts/service/waitlist.ts", ...args], {
      cwd: PROJECT_DIR,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => ((stdout += chunk.toString()), (output += chunk.toString())));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, output }));
  });
}
