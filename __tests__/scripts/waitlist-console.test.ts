/**
 * `npm run waitlist -- <disqualify|requalify|approve|erase|send-again|export-person>`: the console's actions from the
 * command line, through the console API of a running service (`wrangler dev`, as `npm start` runs it, with its local
 * operator), checked in the service's own D1.
 */
import { d1Query, type WranglerDev } from "../../scripts/lib/wrangler";
import type { PersonExport } from "../../shared/api/console";
import { CLI_OPERATOR as OPERATOR, type CliService, runWaitlistCli, startCliService } from "./support/waitlist-cli";

let running: CliService | undefined;
let stateDir: string;
let service: WranglerDev;

beforeAll(async () => {
  running = await startCliService("waitlist-console");
  ({ dev: service, stateDir } = running);
}, 120_000);

afterAll(async () => {
  await running?.stop();
});

/** Sign someone up through the API; their referral code. */
async function signUp(email: string, ip: string, ref?: string): Promise<string> {
  const response = await fetch(`${service.origin}/api/signups`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: service.origin, "cf-connecting-ip": ip },
    body: JSON.stringify({ email, firstName: "Cleo", lastName: "Park", ref }),
  });
  expect(response.status).toBe(202);
  // The answer says nothing about them; their code is in their row (and their welcome e-mail).
  const [row] = await d1Query<{ referral_code: string }>(stateDir, `SELECT referral_code FROM signups WHERE email = '${email}'`);
  return row.referral_code;
}

/** Run the CLI against the service to its end; its exit code, standard output and both streams. */
const runCli = runWaitlistCli;

const row = async (email: string) =>
  (
    await d1Query<{ id: string; referrals: number; disqualified_at: string | null }>(
      stateDir,
      `SELECT id, referrals, disqualified_at FROM signups WHERE email = '${email}'`,
    )
  )[0];

it("disqualifies a person named by another spelling of their address, withdrawing their referrer's credit", async () => {
  const code = await signUp("cli.referrer@example.com", "198.51.100.10");
  await signUp("cli.friend@gmail.com", "198.51.100.11", code);
  expect((await row("cli.referrer@example.com")).referrals).toBe(1);

  const done = await runCli([
    "disqualify",
    "CLI.Friend+x@googlemail.com",
    "--reason",
    "Bought referrals",
    "--origin",
    service.consoleOrigin,
  ]);
  expect({ code: done.code, output: done.code === 0 ? "" : done.output }).toEqual({ code: 0, output: "" });
  expect(done.stdout).toContain("Disqualified cli.friend@gmail.com");
  expect((await row("cli.friend@gmail.com")).disqualified_at).not.toBeNull();
  expect((await row("cli.referrer@example.com")).referrals).toBe(0);
  const audit = await d1Query<{ operator: string; reason: string }>(
    stateDir,
    "SELECT operator, reason FROM audit_log WHERE action = 'disqualify'",
  );
  expect(audit).toEqual([{ operator: OPERATOR, reason: "Bought referrals" }]);
});

it("prints the API's refusal and exits 1 when the action does not apply", async () => {
  await signUp("cli.fair@example.com", "198.51.100.12");
  const refused = await runCli(["requalify", "cli.fair@example.com", "--reason", "Mistake", "--origin", service.consoleOrigin]);
  expect(refused.code).toBe(1);
  expect(refused.output).toContain("409 action_not_applicable: The person is not disqualified.");
});

it("refuses an action without a reason before asking anything", async () => {
  const refused = await runCli(["erase", "cli.fair@example.com", "--origin", service.consoleOrigin]);
  expect(refused.code).toBe(1);
  expect(refused.output).toContain('erase needs --reason "<why>"');
  expect(await row("cli.fair@example.com")).toBeDefined();
});

it("refuses --env production without the Access service token", async () => {
  const refused = await runCli(["erase", "cli.fair@example.com", "--reason", "Request", "--env", "production"], {
    CF_ACCESS_CLIENT_ID: "",
    CF_ACCESS_CLIENT_SECRET: "",
  });
  expect(refused.code).toBe(1);
  expect(refused.output).toContain("set CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET");
});

it("exports a person by referral code, then erases them", async () => {
  const code = await signUp("cli.leaving@example.com", "198.51.100.13");
  const exported = await runCli(["export-person", code, "--reason", "Subject access request", "--origin", service.consoleOrigin]);
  expect(exported.code).toBe(0);
  const document = JSON.parse(exported.stdout) as PersonExport;
  expect(document.person).toMatchObject({ email: "cli.leaving@example.com", referral_code: code });
  expect(document.audit).toMatchObject([{ action: "export_person" }]);
  // The operators' words stay in the audit log.
  expect(JSON.stringify(document.audit)).not.toMatch(/Subject access request|cli-operator/);

  const erased = await runCli(["erase", code, "--reason", "Privacy request", "--origin", service.consoleOrigin]);
  expect({ code: erased.code, output: erased.code === 0 ? "" : erased.output }).toEqual({ code: 0, output: "" });
  expect(await row("cli.leaving@example.com")).toBeUndefined();
  const again = await runCli(["erase", code, "--reason", "Privacy request", "--origin", service.consoleOrigin]);
  expect(again.code).toBe(1);
  expect(again.output).toContain(`No one on the waitlist has the address or referral code "${code}"`);
});
