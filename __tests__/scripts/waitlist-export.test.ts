/**
 * `npm run waitlist -- export`: the operator's CSV of every signup, read with `wrangler d1 execute` from the local D1
 * of a running service (`wrangler dev --persist-to`, as `npm start` runs it), after signups made through the API: one
 * row per person in signup order, with the referral columns, quoting where needed and formulas defused.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_CONTENT_FILE } from "../../src/content/derive";
import { loadContentFile } from "../../src/content/load";
import { EXPORT_COLUMNS } from "../../scripts/service/export";
import { applyMigrations, d1Query, logLinesOnceThere, PROJECT_DIR, startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler";

/** How long demo delivery may take to settle a signup and log it (ms of wall time). */
const SETTLE_TIMEOUT_MS = 30_000;

/** The service tests' build: a service-settings.json and nothing else. */
const ASSETS_DIR = path.join(PROJECT_DIR, "__tests__", "service", "fixtures", "public");

let directory: string;
let stateDir: string;
let service: WranglerDev;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "waitlist-export-"));
  stateDir = path.join(directory, "state");
  await applyMigrations(stateDir);
  // Every secret empty: demo delivery, no Turnstile, the development salt (a developer's .dev.vars must not count).
  service = await startWranglerDev({
    assetsDir: ASSETS_DIR,
    persistTo: stateDir,
    vars: { KLAVIYO_PRIVATE_API_KEY: "", TURNSTILE_SECRET_KEY: "", IP_HASH_SALT: "" },
  });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await rm(directory, { recursive: true, force: true });
});

/** POST /api/signups as the page sends it, from the service's own origin. */
function postSignup(body: Record<string, unknown>, ip: string): Promise<Response> {
  return fetch(`${service.origin}/api/signups`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: service.origin, "cf-connecting-ip": ip },
    body: JSON.stringify(body),
  });
}

/** Run the CLI to its end; its exit code and output. */
function runCli(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(PROJECT_DIR, "node_modules", ".bin", "tsx"), ["scripts/service/waitlist.ts", ...args], {
      cwd: PROJECT_DIR,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

it("writes every signup in order with its referral standing, one CSV row each", async () => {
  const ip = "198.51.100.1";
  const first = await postSignup({ email: "ana.lopez@example.com", firstName: "Ana", lastName: "López, Jr." }, ip);
  expect(first.status).toBe(202);
  // The answer says nothing about Ana; her referral link is in her welcome e-mail (demo delivery logs it).
  const [anaLinks] = await logLinesOnceThere<{ referralUrl: string }>(service, "demo_status_link", 1, SETTLE_TIMEOUT_MS);
  const referralCode = new URL(anaLinks.referralUrl).searchParams.get("ref") ?? "";
  expect(
    (await postSignup({ email: "ben@example.com", firstName: '=HYPERLINK("x")', lastName: "Ortiz", ref: referralCode }, ip)).status,
  ).toBe(202);
  const content = loadContentFile(DEFAULT_CONTENT_FILE);
  if (!content.ok) throw new Error("content/site.yaml is not valid");
  const entriesPerReferral = content.content.referrals.entriesPerReferral;

  // Demo delivery (no Klaviyo key) settles each row within moments, confirmed on a local run (docs/deploy.md: Run it
  // locally), and logs delivery_demo once the row is saved; the export then shows the settled state, an empty
  // referral_hold and the confirmation time.
  await logLinesOnceThere(service, "delivery_demo", 2, SETTLE_TIMEOUT_MS);

  const out = path.join(directory, "waitlist.csv");
  const { code, output } = await runCli(["export", "--persist-to", stateDir, "--out", out]);
  expect({ code, output: code === 0 ? "" : output }).toEqual({ code: 0, output: "" });

  const lines = (await readFile(out, "utf8")).split("\r\n");
  expect(lines[0]).toBe(EXPORT_COLUMNS.join(","));
  const [ana, ben, end] = lines.slice(1);
  const rows = await d1Query<{ created_at: string; referral_code: string; confirmed_at: string | null }>(
    stateDir,
    "SELECT created_at, referral_code, confirmed_at FROM signups ORDER BY seq",
  );
  expect(ana).toBe(
    `1,${rows[0].created_at},ana.lopez@example.com,Ana,"López, Jr.",Waitlist,${referralCode},,1,${1 + entriesPerReferral},1,,,${rows[0].confirmed_at},demo`,
  );
  // A name typed as a formula is written as text ('=…), never run by the spreadsheet; the same-IP referral is flagged.
  expect(ben).toBe(
    `2,${rows[1].created_at},ben@example.com,"'=HYPERLINK(""x"")",Ortiz,Waitlist,${rows[1].referral_code},${referralCode},0,1,2,same_ip_as_referrer,,${rows[1].confirmed_at},demo`,
  );
  expect(end).toBe("");
});
