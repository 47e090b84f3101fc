/**
 * `npm run waitlist -- export`: the operator's CSV of every signup, read with `wrangler d1 execute` from the local D1
 * of a running service (`--persist-to`), after signups made through the API: one row per person in signup order,
 * with the referral columns, quoting where needed and formulas defused.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_CONTENT_FILE } from "../../src/content/derive";
import { loadContentFile } from "../../src/content/load";
import { EXPORT_COLUMNS } from "../../scripts/service/export";
import { PROJECT_DIR } from "../../scripts/lib/wrangler";
import { nextClientIp, postSignup, startWaitlistService, type WaitlistService } from "./support/waitlist-service";

let service: WaitlistService;
let outDir: string;

beforeAll(async () => {
  service = await startWaitlistService();
  outDir = await mkdtemp(path.join(tmpdir(), "waitlist-export-"));
});

afterAll(async () => {
  await service?.stop();
  await rm(outDir, { recursive: true, force: true });
});

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
  const ip = nextClientIp();
  const first = await postSignup(service, { email: "ana.lopez@example.com", firstName: "Ana", lastName: "López, Jr." }, { ip });
  const { referralCode } = (await first.json()) as { referralCode: string };
  await postSignup(service, { email: "ben@example.com", firstName: '=HYPERLINK("x")', lastName: "Ortiz", ref: referralCode }, { ip });
  const content = loadContentFile(DEFAULT_CONTENT_FILE);
  if (!content.ok) throw new Error("content/site.yaml is not valid");
  const entriesPerReferral = content.content.referrals.entriesPerReferral;

  // Demo delivery (no Klaviyo key) settles each row within moments; the export then shows the settled state.
  for (let waited = 0; waited < 30_000; waited += 200) {
    const [{ pending }] = await service.query<{ pending: number }>(
      "SELECT count(*) AS pending FROM signups WHERE delivery_state = 'pending'",
    );
    if (pending === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const out = path.join(outDir, "waitlist.csv");
  const { code, output } = await runCli(["export", "--persist-to", service.stateDir, "--out", out]);
  expect({ code, output: code === 0 ? "" : output }).toEqual({ code: 0, output: "" });

  const lines = (await readFile(out, "utf8")).split("\r\n");
  expect(lines[0]).toBe(EXPORT_COLUMNS.join(","));
  const [ana, ben, end] = lines.slice(1);
  const rows = await service.query<{ created_at: string; referral_code: string; confirmed_at: string | null }>(
    "SELECT created_at, referral_code, confirmed_at FROM signups ORDER BY seq",
  );
  expect(ana).toBe(
    `1,${rows[0].created_at},ana.lopez@example.com,Ana,"López, Jr.",Waitlist,${referralCode},,1,${1 + entriesPerReferral},1,,,demo`,
  );
  // A name typed as a formula is written as text ('=…), never run by the spreadsheet; the same-IP referral is flagged.
  expect(ben).toBe(
    `2,${rows[1].created_at},ben@example.com,"'=HYPERLINK(""x"")",Ortiz,Waitlist,${rows[1].referral_code},${referralCode},0,1,2,same_ip_as_referrer,,demo`,
  );
  expect(end).toBe("");
});
