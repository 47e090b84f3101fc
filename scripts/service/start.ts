/**
 * `npm start` (docs/deploy.md "Run it locally"): builds the site, applies the local D1 migrations and runs
 * `wrangler dev` on 127.0.0.1:${PORT:-8787}, the console on localhost at the same port, with the links the Worker writes
 * on the site's origin (SITE_ORIGIN), the shell's Worker vars and secrets passed on (./environment.ts) and the cron
 * triggers run on their period, and says which optional ones are unset and what is off without them. Ctrl-C stops wrangler and its workerd children;
 * `--no-build` serves the existing public/.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { CONSOLE_PATH } from "../../shared/routes";
import { SERVICE_SETTINGS_PATH } from "../../shared/service-settings";
import { PROJECT_DIR, runGatsby } from "../lib/gatsby-build";
import { applyMigrations, CRON_PERIOD_MS, localWorkerVars, startWranglerDev } from "../lib/wrangler";
import { localRunVars, unsetReport } from "./environment";

/** wrangler dev's own default port, which the README and docs/deploy.md name. */
const DEFAULT_PORT = 8787;

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { "no-build": { type: "boolean", default: false } } });
  const port = Number(process.env.PORT ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
    console.error(`PORT must be a TCP port number (1–65535), not ${JSON.stringify(process.env.PORT)}.`);
    return 2;
  }

  if (!values["no-build"]) {
    console.log("Building the site (gatsby build)…");
    const build = await runGatsby(["build"], { log: process.stdout });
    if (build.status !== 0) {
      console.error(`The build failed (exit ${build.status}); nothing was started.`);
      return 1;
    }
  }
  if (!existsSync(path.join(PROJECT_DIR, "public", SERVICE_SETTINGS_PATH))) {
    console.warn(
      `public${SERVICE_SETTINGS_PATH} is missing: content/site.yaml does not use provider.transport "waitlist-api", so the API ` +
        "answers 503 and the page sends signups elsewhere.",
    );
  }

  console.log("Applying D1 migrations to the local database…");
  await applyMigrations({}, { log: process.stdout });

  const devVars = await localWorkerVars();
  const vars = localRunVars(process.env, devVars);
  const dev = await startWranglerDev({ port, vars, log: process.stdout, crons: true });
  const workerVars = { ...devVars, ...vars };
  const unset = unsetReport(workerVars);
  console.log(
    [
      "",
      `The site and the waitlist API are running at ${dev.origin}/`,
      `  links (referral, status, Klaviyo's properties): ${vars.SITE_ORIGIN ?? dev.origin}/…`,
      `  delivery: ${workerVars.KLAVIYO_PRIVATE_API_KEY ? `Klaviyo (${workerVars.KLAVIYO_API_URL})` : "demo"}`,
      `  operator's console: ${dev.consoleOrigin}${CONSOLE_PATH} (its own host, as in production: not on ${dev.origin}; signed in as ${vars.CONSOLE_LOCAL_OPERATOR}, without Cloudflare Access)`,
      "  rows: npm run waitlist -- list",
      `  cron triggers (deliveries swept, launch schedule, draws, the transparency record): now and every ${CRON_PERIOD_MS / 60_000} minutes`,
      ...(unset.length > 0
        ? ["Off on this run (set them in the shell or .dev.vars: .dev.vars.example):", ...unset.map((line) => `  ${line}`)]
        : []),
      "Press Ctrl-C to stop.",
      "",
    ].join("\n"),
  );

  let stopping = false;
  return new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      console.log(`\n${signal}: stopping wrangler…`);
      void dev.stop().then(() => resolve(0));
    };
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);
    // wrangler ending by itself (a crash, the port taken) ends npm start too.
    void dev.exited.then((how) => {
      if (stopping) return;
      console.error(how);
      void dev.stop().then(() => resolve(1));
    });
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
