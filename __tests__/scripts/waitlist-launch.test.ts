/**
 * `npm run waitlist -- invite | revoke | launch`: launch day from the command line, through the console API of a
 * running service (`wrangler dev`, as `npm start` runs it, with its local operator), checked in the service's own D1.
 */
import { d1Query, logLinesOnceThere, type WranglerDev } from "../../scripts/lib/wrangler";
import type { LaunchAnswer } from "../../shared/api/launch";
import { CLI_OPERATOR as OPERATOR, type CliService, runWaitlistCli, startCliService } from "./support/waitlist-cli";

/** How long demo delivery may take to confirm the people below (ms of wall time). */
const DELIVERY_TIMEOUT_MS = 60_000;

const PEOPLE = ["first", "second", "third", "fourth"].map((name) => `cli.${name}@example.com`);

let running: CliService | undefined;
let stateDir: string;
let service: WranglerDev;

beforeAll(async () => {
  running = await startCliService("waitlist-launch");
  ({ dev: service, stateDir } = running);
  for (const [index, email] of PEOPLE.entries()) {
    const response = await fetch(`${service.origin}/api/signups`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: service.origin, "cf-connecting-ip": `198.51.100.${20 + index}` },
      body: JSON.stringify({ email, firstName: "Cleo", lastName: "Park" }),
    });
    expect(response.status).toBe(202);
  }
  // Demo delivery confirms each signup through the local queue, and logs delivery_demo once its row is saved.
  await logLinesOnceThere(service, "delivery_demo", PEOPLE.length, DELIVERY_TIMEOUT_MS);
}, 180_000);

afterAll(async () => {
  await running?.stop();
});

/** Run the CLI against the service to its end. */
const runCli = (args: string[]) => runWaitlistCli([...args, "--origin", service.consoleOrigin]);

const invitationsOf = (email: string) =>
  d1Query<{ state: string; place: number }>(
    stateDir,
    `SELECT i.state, i.place FROM invitations AS i JOIN signups AS p ON p.id = i.person_id WHERE p.email = '${email}' ORDER BY i.invited_at`,
  );

it("invites the next 2 with a reason, printing the preview and the batch, and the funnel counts them", async () => {
  const done = await runCli(["invite", "--next", "2", "--reason", "Launch day, first wave"]);
  expect(done.output).toContain("Preview: 2 people, places 1 to 2");
  expect(done.code).toBe(0);
  expect(await invitationsOf(PEOPLE[0])).toEqual([{ state: "invited", place: 1 }]);
  expect(await invitationsOf(PEOPLE[1])).toEqual([{ state: "invited", place: 2 }]);
  expect(await invitationsOf(PEOPLE[2])).toEqual([]);
  const [entry] = await d1Query<{ operator: string; reason: string }>(
    stateDir,
    "SELECT operator, reason FROM audit_log WHERE action = 'invite_batch'",
  );
  expect(entry).toEqual({ operator: OPERATOR, reason: "Launch day, first wave" });

  const launch = await runCli(["launch", "--json"]);
  expect(launch.code).toBe(0);
  expect((JSON.parse(launch.stdout) as LaunchAnswer).funnel).toEqual({ waiting: 2, invited: 2, accepted: 0, expired: 0, revoked: 0 });
  const table = await runCli(["launch"]);
  expect(table.stdout).toMatch(/invited\s+2/);
}, 60_000);

it("revokes one person's invitation and invites another by address, each with a reason", async () => {
  const revoked = await runCli(["revoke", PEOPLE[0].toUpperCase(), "--reason", "Sent by mistake"]);
  expect(revoked.code).toBe(0);
  expect(await invitationsOf(PEOPLE[0])).toEqual([{ state: "revoked", place: 1 }]);

  const invited = await runCli(["invite", PEOPLE[3], "--reason", "Press contact"]);
  expect(invited.code).toBe(0);
  expect(invited.stdout).toContain(`Invited ${PEOPLE[3]}`);
  expect(await invitationsOf(PEOPLE[3])).toEqual([{ state: "invited", place: 2 }]);
}, 60_000);

it("refuses without a reason, and says why the API refused", async () => {
  const unreasoned = await runCli(["invite", "--next", "1"]);
  expect(unreasoned.code).toBe(1);
  expect(unreasoned.output).toContain("--reason");
  const twice = await runCli(["invite", PEOPLE[3], "--reason", "Again"]);
  expect(twice.code).toBe(1);
  expect(twice.output).toContain("invitation_not_applicable");
}, 60_000);
