/**
 * `npm run waitlist -- <command>`: the operator's view of D1's `signups` table.
 *
 *   list [--env production] [--limit N] [--json]   the newest rows first
 *   export [--env production] [--out FILE]          every row as CSV (export.ts)
 *   draw commit | draw run                          the giveaway draw, through the console's API (scripts/giveaway/draw.ts)
 *   audit verify [--env production] [--key KEY] [--checkpoint FILE]
 *                                                   check the audit log's chain, signatures and a saved checkpoint
 *   disqualify | requalify | approve | erase | send-again | export-person <address or code> --reason "…"
 *                                                   the console's actions, through its API (console-client.ts)
 *   invite --next N | invite <address or code> | revoke <address or code> --reason "…"; launch [--json]
 *                                                   launch day, through the same API
 *
 * Locally it reads `npm start`'s database (`--persist-to DIR` for another), and the actions go to `npm start`'s
 * service. It prints addresses and names: the operator's own terminal, never a log.
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { DEFAULT_CONTENT_FILE } from "../../src/content/derive";
import { formatContentErrors, loadContentFile } from "../../src/content/load";
import { d1Query, type D1Target } from "../lib/wrangler";
import { productionConsoleOrigin } from "./console-host";
import { auditVerify } from "./audit-verify";
import { exportCsv, exportQuery, type ExportRow } from "./export";
import { commitDraw, runDraw } from "../giveaway/draw";
import { PERSON_ACTIONS, type PersonAction } from "../../shared/console";
import {
  act,
  type ConsoleTarget,
  consoleTarget,
  exportPerson,
  findPerson,
  inviteAction,
  inviteNext,
  launchFunnel,
  LOCAL_ORIGIN,
  LOCAL_SITE_ORIGIN,
} from "./console-client";

/** Rows `list` prints unless told otherwise. */
const DEFAULT_LIMIT = 50;

/** The columns `list` reads. */
interface ListedRow {
  seq: number;
  created_at: string;
  email: string;
  first_name: string;
  last_name: string;
  source: string | null;
  delivery_state: string;
  delivery_attempts: number;
  delivery_error: string | null;
}

const USAGE = `Usage: npm run waitlist -- <command> [options]

Commands:
  list     the newest signups first
  export   every signup as CSV, in signup order: address, names, source, referral code, referrer's code,
           referrals, giveaway entries, position, flags, confirmation, delivery state
  draw commit
           close the giveaway by the rules content/site.yaml publishes (draw.id, draw.cutoff, draw.winners,
           draw.roundDelayHours): the service lists the eligible entrants by pseudonym, publishes the list and
           the commitment at /giveaway/draw/<id>/, and logs it in audit_log. Refused before the cut-off, once the
           rules' drand round is published, for rules the service does not publish, and once committed.
  draw run
           once the rules' drand round is published: the service fetches it, checks its signature, draws the
           winners from the published list and publishes them. Check any draw: npx tsx scripts/giveaway/verify.ts
  audit verify [--key KEY] [--checkpoint FILE]
           check the audit log in D1: every entry chained to the one before and signed by the Worker's key; with
           a checkpoint saved earlier (the transparency page's), that the log still holds it unchanged. Names the
           first entry changed, removed or written around the Worker.

  disqualify <address or referral code> --reason WHY
           out of the giveaway and off the leaderboard; the credit they earned their referrer is withdrawn
  requalify <address or referral code> --reason WHY
           undo a disqualification (the credit is restored if it still qualifies)
  approve <address or referral code> --reason WHY
           reviewed and found fair: off the review queue, and a held referral counts
  send-again <address or referral code> --reason WHY
           a refused or stuck signup back to pending, queued for delivery at once
  erase <address or referral code> --reason WHY
           the person, their place in line, status link and IP hash gone at once; Klaviyo asked to delete the profile
  export-person <address or referral code> --reason WHY [--out FILE]
           their own stored fields and what was done to them, as JSON (no hashes, tokens or marks about others)

  invite --next N --reason WHY
           invite the next N in line (skipping the disqualified, unconfirmed, flagged and invited): prints the
           preview, then the batch; run twice on one preview it still makes one batch
  invite <address or referral code> --reason WHY
           invite one person now, whatever their place
  revoke <address or referral code> --reason WHY
           revoke the person's open invitation: its link stops working
  launch [--json]
           launch day's funnel (waiting, invited, accepted, expired, revoked) and the latest batches' progress
           (These, draw and the six above go through the operator's console API: npm start's service, as its
           local operator, or with --env production the console's own host through Cloudflare Access, with the
           service token in CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET. Each action is written in the
           audit log.)

Options:
  --env production   the deployed database (wrangler d1 execute --remote) instead of the local one
  --origin URL       the console API's origin (default ${LOCAL_ORIGIN}; with --env production, https://<CONSOLE_HOST>)
  --reason WHY       why, for the audit log (required by every action, export-person too)
  --persist-to DIR   the local state directory (default: .wrangler/state, the one npm start uses)
  --limit N          at most N rows (list; default ${DEFAULT_LIMIT})
  --json             JSON instead of a table (list, launch)
  --next N           invite the next N in line (invite)
  --out FILE         write the export to FILE (default: the standard output)
  --content FILE     the content whose draw rules and site address apply (default: ${DEFAULT_CONTENT_FILE})
  --key KEY          the audit log's verifier key (audit verify; default: the one the site's transparency page publishes)
  --checkpoint FILE  a signed checkpoint of the audit log saved earlier (audit verify)`;

/** Where the command reads: the local database, or production's. */
function target(env: string | undefined, persistTo: string | undefined): D1Target {
  if (env === undefined) return { persistTo };
  if (env === "production") return { remote: true };
  throw new Error(`--env takes "production" only (the local database needs no flag), not ${JSON.stringify(env)}.`);
}

/** Text table with a header row, columns padded to their widest value. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

async function list(where: D1Target, limit: number, json: boolean): Promise<void> {
  // One statement (each wrangler run takes seconds). The limit is a checked integer: nothing from outside reaches the text.
  const rows = await d1Query<ListedRow & { total: number }>(
    where,
    "SELECT seq, created_at, email, first_name, last_name, source, delivery_state, delivery_attempts, delivery_error, " +
      `(SELECT count(*) FROM signups) AS total FROM signups ORDER BY seq DESC LIMIT ${limit}`,
  );
  const total = rows[0]?.total ?? 0;
  if (json) {
    console.log(
      JSON.stringify(
        rows.map(({ total: _total, ...row }) => row),
        null,
        2,
      ),
    );
    return;
  }
  if (rows.length === 0) {
    console.log("No signups yet.");
    return;
  }
  console.log(
    table(
      ["#", "signed up (UTC)", "email", "name", "source", "delivery"],
      rows.map((row) => [
        String(row.seq),
        row.created_at.replace("T", " ").replace(/\.\d+Z$/, ""),
        row.email,
        `${row.first_name} ${row.last_name}`,
        row.source ?? "",
        `${row.delivery_state}${row.delivery_attempts > 0 ? ` (${row.delivery_attempts} attempts)` : ""}${row.delivery_error ? `: ${row.delivery_error}` : ""}`,
      ]),
    ),
  );
  console.log(`\n${rows.length} of ${total} signups${rows.length < total ? ` (--limit ${limit}; --limit ${total} for all)` : ""}.`);
}

/**
 * Write the CSV export.
 * @param contentFile its `referrals.entriesPerReferral` counts the entries
 * @param out undefined for the standard output
 * @throws Error naming the content's mistakes, or wrangler's failure
 */
async function exportRows(where: D1Target, contentFile: string, out: string | undefined): Promise<void> {
  const content = loadContentFile(contentFile);
  if (!content.ok) throw new Error(`${contentFile} is not valid:\n${formatContentErrors(content.errors)}`);
  const rows = await d1Query<ExportRow>(where, exportQuery(content.content.referrals.entriesPerReferral));
  const csv = exportCsv(rows);
  if (out === undefined) process.stdout.write(csv);
  else {
    await writeFile(out, csv);
    console.error(`${rows.length} signups written to ${out}.`);
  }
}

/**
 * `draw commit` or `draw run`, through the console's API (`--env production`: the deployed site, through Access).
 * @throws Error naming a wrong step, the content's mistakes, or the service's refusal (its detail)
 */
async function draw(step: string | undefined, values: { env?: string; origin?: string; content: string }): Promise<void> {
  const content = loadContentFile(values.content);
  if (!content.ok) throw new Error(`${values.content} is not valid:\n${formatContentErrors(content.errors)}`);
  const target = consoleTarget(values.env, values.origin, productionConsoleOrigin);
  const { id, cutoff, winners } = content.content.draw;
  if (step === "commit") {
    const committed = await commitDraw(target, { draw: id, cutoff, winners }, (line) => console.log(line));
    console.log(
      `Committed draw ${committed.draw}: ${committed.n} entrants, ${committed.totalEntries} entries, list SHA-256 ${committed.listHash}, ` +
        `Merkle root ${committed.merkleRoot}, drand round ${committed.round} (published ${committed.roundAt}).\n` +
        `Published at ${committed.listUrl}. After ${committed.roundAt}, run: npm run waitlist -- draw run`,
    );
  } else if (step === "run") {
    const drawn = await runDraw(target);
    const winnersText = drawn.result?.winners.map(({ pseudonym, entries }) => `${pseudonym} (${entries} entries)`).join(", ");
    console.log(`Drew ${drawn.draw} from drand round ${drawn.round}: ${winnersText || "nobody"}. Published with the commitment.`);
  } else {
    throw new Error(`draw takes commit or run, not ${JSON.stringify(step)}.\n\n${USAGE}`);
  }
}

/**
 * `audit verify`: the key from --key or the site's transparency report (the content's site address, or npm start's
 * site locally), then audit-verify.ts.
 */
function auditCommand(
  where: D1Target,
  step: string | undefined,
  values: { env?: string; key?: string; checkpoint?: string; content: string },
) {
  if (step !== "verify") throw new Error(`audit takes verify, not ${JSON.stringify(step)}.\n\n${USAGE}`);
  let siteOrigin = LOCAL_SITE_ORIGIN;
  if (values.env === "production" && !values.key) {
    const content = loadContentFile(values.content);
    if (!content.ok) throw new Error(`${values.content} is not valid:\n${formatContentErrors(content.errors)}`);
    siteOrigin = content.content.site.url;
  }
  return auditVerify(where, { key: values.key, checkpoint: values.checkpoint, siteOrigin });
}

/** The command line's words for the console's actions. */
const CONSOLE_COMMANDS = [...PERSON_ACTIONS, "export-person"] as const;
type ConsoleCommand = (typeof CONSOLE_COMMANDS)[number];

const isConsoleCommand = (command: string): command is ConsoleCommand => (CONSOLE_COMMANDS as readonly string[]).includes(command);

/** What the operator reads once an action is done. */
const DONE: Record<PersonAction, string> = {
  disqualify: "Disqualified",
  requalify: "Requalified",
  approve: "Approved",
  "send-again": "Queued for delivery again:",
  erase: "Erased",
};

/**
 * One of the console's actions, or export-person, on the person an address or referral code names.
 * @throws Error naming a missing argument, the person not found, or the API's refusal (its detail)
 */
async function consoleCommand(
  command: ConsoleCommand,
  who: string | undefined,
  values: { env?: string; origin?: string; reason?: string; content: string; out?: string },
): Promise<void> {
  if (!who) throw new Error(`${command} needs an address or a referral code.\n\n${USAGE}`);
  if (values.reason === undefined || values.reason.trim() === "")
    throw new Error(`${command} needs --reason "<why>" (it is written in the audit log).`);
  const target = consoleApi(values);
  const person = await findPerson(target, who);
  if (command === "export-person") {
    const exported = await exportPerson(target, person.id, values.reason);
    const json = `${JSON.stringify(exported, null, 2)}\n`;
    if (values.out === undefined) process.stdout.write(json);
    else {
      await writeFile(values.out, json);
      console.error(`${person.email} (${person.id}) written to ${values.out}.`);
    }
    return;
  }
  const { audit } = await act(target, person.id, command, values.reason!);
  console.log(`${DONE[command]} ${person.email} (${person.id}). Audit entry ${audit.id}: ${JSON.stringify(audit.after)}`);
}

/** The console API of --env and --origin (wrangler.jsonc's CONSOLE_HOST only for production). */
function consoleApi(values: { env?: string; origin?: string }): ConsoleTarget {
  return consoleTarget(values.env, values.origin, productionConsoleOrigin);
}

/**
 * Launch day's commands: `invite --next N`, `invite <who>`, `revoke <who>` (each with --reason) and `launch`.
 * @throws Error naming a missing argument, the person not found, or the API's refusal (its detail)
 */
async function launchCommand(
  command: "invite" | "revoke" | "launch",
  who: string | undefined,
  values: { env?: string; origin?: string; reason?: string; content: string; next?: string; json: boolean },
): Promise<void> {
  const api = consoleApi(values);
  if (command === "launch") {
    const { funnel, batches } = await launchFunnel(api);
    if (values.json) {
      console.log(JSON.stringify({ funnel, batches }, null, 2));
      return;
    }
    console.log(
      table(
        ["state", "people"],
        Object.entries(funnel).map(([state, people]) => [state, String(people)]),
      ),
    );
    if (batches.length > 0)
      console.log(
        `\n${table(
          ["batch", "made (UTC)", "by", "asked", "invited", "queued", "sent", "failed", "state"],
          batches.map((batch) => [
            batch.id,
            batch.createdAt.replace("T", " ").replace(/\.\d+Z$/, ""),
            batch.operator,
            ...[batch.requested, batch.invited, batch.queued, batch.sent, batch.failed].map(String),
            batch.state,
          ]),
        )}`,
      );
    return;
  }
  if (values.reason === undefined || values.reason.trim() === "")
    throw new Error(`${command} needs --reason "<why>" (it is written in the audit log).`);
  if (command === "invite" && values.next !== undefined) {
    const count = Number(values.next);
    if (!Number.isInteger(count) || count < 1) throw new Error(`--next takes a whole number of people (1 or more), not ${values.next}.`);
    const { preview, batch } = await inviteNext(api, count, values.reason);
    const skipped = Object.entries(preview.skipped)
      .map(([reason, people]) => `${people} ${reason}`)
      .join(", ");
    console.log(
      `Preview: ${preview.count} people, places ${preview.firstPlace ?? "-"} to ${preview.lastPlace ?? "-"}; skipped ${skipped}.\n` +
        `Batch ${batch.id}: ${batch.invited} of ${batch.requested} invited, ${batch.sent} sent, ${batch.queued} queued (${batch.state}).`,
    );
    return;
  }
  if (!who) throw new Error(`${command} needs an address or a referral code${command === "invite" ? ", or --next N" : ""}.\n\n${USAGE}`);
  const person = await findPerson(api, who);
  const { invitation, audit } = await inviteAction(api, person.id, command, values.reason);
  console.log(
    `${command === "invite" ? "Invited" : "Revoked the invitation of"} ${person.email} (${person.id}): ${invitation.state}, ` +
      `expires ${invitation.expiresAt}. Audit entry ${audit.id}.`,
  );
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      env: { type: "string" },
      "persist-to": { type: "string" },
      limit: { type: "string", default: String(DEFAULT_LIMIT) },
      json: { type: "boolean", default: false },
      out: { type: "string" },
      content: { type: "string", default: DEFAULT_CONTENT_FILE },
      origin: { type: "string" },
      reason: { type: "string" },
      next: { type: "string" },
      key: { type: "string" },
      checkpoint: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [command] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (isConsoleCommand(command)) {
    await consoleCommand(command, positionals[1], values);
    return 0;
  }
  if (command === "invite" || command === "revoke" || command === "launch") {
    await launchCommand(command, positionals[1], values);
    return 0;
  }
  if (command === "draw") {
    await draw(positionals[1], values);
    return 0;
  }
  const where = target(values.env, values["persist-to"]);
  switch (command) {
    case "list": {
      const limit = Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new Error(`--limit takes a whole number of rows (1 or more), not ${values.limit}.`);
      await list(where, limit, values.json);
      return 0;
    }
    case "export":
      await exportRows(where, values.content, values.out);
      return 0;
    case "audit":
      return auditCommand(where, positionals[1], values);
    default:
      console.error(`Unknown command ${JSON.stringify(command)}.\n\n${USAGE}`);
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
