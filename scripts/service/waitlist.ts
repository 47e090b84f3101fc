/**
 * `npm run waitlist -- <command>`: the operator's view of D1's `signups` table.
 *
 *   list [--env production] [--limit N] [--json]   the newest rows first
 *   export [--env production] [--out FILE]          every row as CSV (export.ts)
 *   draw commit | draw run                          the giveaway draw (scripts/giveaway/draw.ts)
 *   audit verify [--env production]                 check the audit log's hash chain
 *   disqualify | requalify | approve | erase | send-again | export-person <address or code> --reason "…"
 *                                                   the console's actions, through its API (console-client.ts)
 *
 * Locally it reads `npm start`'s database (`--persist-to DIR` for another), and the actions go to `npm start`'s
 * service. It prints addresses and names: the operator's own terminal, never a log.
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { DEFAULT_CONTENT_FILE } from "../../src/content/derive";
import { formatContentErrors, loadContentFile } from "../../src/content/load";
import { d1Query, type D1Target } from "../lib/wrangler";
import { exportCsv, exportQuery, type ExportRow } from "./export";
import { commitDraw, drawClockMs, runDraw } from "../giveaway/draw";
import { type AuditChainReport, type ChainedAuditRow, verifyAuditChain } from "../../shared/audit-chain";
import { drawFileOf } from "../../src/content/draw-file";
import { DEFAULT_DELAY_MINUTES } from "../../shared/giveaway/commit";
import { PERSON_ACTIONS, type PersonAction } from "../../shared/console";
import { act, consoleTarget, exportPerson, findPerson, LOCAL_ORIGIN } from "./console-client";

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
  draw commit --draw ID --winners N --cutoff TIME [--delay-minutes M]
           close the giveaway through the console API: the eligible entrants (confirmed by TIME, not disqualified)
           by pseudonym with their entries, the list's SHA-256 and the first drand round published M minutes from
           now (default ${DEFAULT_DELAY_MINUTES}), written to the draw file and logged in the audit log. Refused once
           the draw is committed.
  draw run [--relay URL]
           fetch the committed round from drand (content: draw.relayUrl), check its signature, add the winners to
           the draw file and log them through the console API. Check any draw file: npx tsx scripts/giveaway/verify.ts FILE
  audit verify
           check the audit log's hash chain in D1; names the first entry changed, removed or written around the
           Worker

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
           (These six and draw go through the operator's console API: npm start's service, as its local operator, or with
           --env production the site's origin through Cloudflare Access, with the service token in
           CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET. Each is written in the audit log.)

Options:
  --env production   the deployed database (wrangler d1 execute --remote) instead of the local one
  --origin URL       the console API's origin (default ${LOCAL_ORIGIN}; with --env production, content's site.url)
  --reason WHY       why, for the audit log (required by every action, export-person too)
  --persist-to DIR   the local state directory (default: .wrangler/state, the one npm start uses)
  --limit N          at most N rows (list; default ${DEFAULT_LIMIT})
  --json             one JSON array instead of a table
  --out FILE         write the export to FILE (default: the standard output)
  --content FILE     the content whose referral rules and drand chain apply (default: ${DEFAULT_CONTENT_FILE})
  --file FILE        the draw file (default: giveaway/draw.json beside the content file)
`;

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

/** The relay --relay names: https, or http on this machine only (the tests' stand-in). */
function relayUrl(flag: string | undefined, fromContent: string): string {
  if (flag === undefined) return fromContent;
  const url = new URL(flag);
  if (url.protocol === "https:" || (url.protocol === "http:" && ["127.0.0.1", "localhost"].includes(url.hostname))) return flag;
  throw new Error("--relay takes an https:// address (http:// only for 127.0.0.1 or localhost).");
}

/**
 * `draw commit` or `draw run`, through the console API (its audit entries are the Worker's to write).
 * @throws Error naming a missing or wrong flag, the content's mistakes, or why the draw refused
 */
async function draw(
  step: string | undefined,
  values: {
    env?: string;
    origin?: string;
    content: string;
    draw?: string;
    winners?: string;
    cutoff?: string;
    "delay-minutes": string;
    relay?: string;
    file?: string;
  },
): Promise<void> {
  const content = loadContentFile(values.content);
  if (!content.ok) throw new Error(`${values.content} is not valid:\n${formatContentErrors(content.errors)}`);
  const { chain } = content.content.draw;
  const target = consoleTarget(values.env, values.origin, () => content.content.site.url);
  const file = values.file ?? drawFileOf(values.content);
  if (step === "commit") {
    if (!values.draw || !values.winners || !values.cutoff) throw new Error("draw commit needs --draw ID, --winners N and --cutoff TIME.");
    const committed = await commitDraw({
      target,
      request: {
        draw: values.draw,
        winners: Number(values.winners),
        cutoff: values.cutoff,
        delayMinutes: Number(values["delay-minutes"]),
      },
      out: file,
    });
    console.log(
      `Committed draw ${committed.draw}: ${committed.entrants.length} entrants, list SHA-256 ${committed.listHash}, drand round ${committed.round} (published ${committed.roundAt}).\n` +
        `Written to ${file}: publish it (commit and deploy) before ${committed.roundAt}, then run: npm run waitlist -- draw run`,
    );
  } else if (step === "run") {
    const drawn = await runDraw({
      target,
      chain,
      relayUrl: relayUrl(values.relay, content.content.draw.relayUrl),
      nowMs: drawClockMs(),
      file,
    });
    console.log(
      `Drew ${drawn.draw} from drand round ${drawn.round}: ${drawn.result?.winners.join(", ")}.\nWritten to ${file}: publish it.`,
    );
  } else {
    throw new Error(`draw takes commit or run, not ${JSON.stringify(step)}.\n\n${USAGE}`);
  }
}

/**
 * `audit verify`: read every audit_log row straight from D1 (not through the Worker, whose log it checks) and check
 * the hash chain (shared/audit-chain.ts).
 * @returns 0 when the chain holds, 1 naming the first broken row
 */
async function auditVerify(where: D1Target, step: string | undefined): Promise<number> {
  if (step !== "verify") throw new Error(`audit takes verify, not ${JSON.stringify(step)}.\n\n${USAGE}`);
  const rows = await d1Query<ChainedAuditRow>(where, "SELECT * FROM audit_log ORDER BY id");
  const report = await verifyAuditChain(rows);
  if (!report.ok) {
    console.error(`The audit log is broken at entry ${report.brokenAt}: ${CHAIN_PROBLEMS[report.problem]}`);
    return 1;
  }
  console.log(
    `The audit log's ${report.chained} chained entries verify` +
      (report.unchained > 0 ? ` (${report.unchained} earlier entries were written before the chain began)` : "") +
      (report.head
        ? `. Last entry ${report.head.id}, SHA-256 ${report.head.hash}: keep it elsewhere to tell later if entries were removed from the end.`
        : "."),
  );
  return 0;
}

/** What each break of the chain means, for the operator. */
const CHAIN_PROBLEMS: Record<Exclude<AuditChainReport, { ok: true }>["problem"], string> = {
  hash_missing: "it has no hash, though entries before it do (written around the Worker).",
  prev_hash_mismatch: "it does not follow the entry before it (that one was changed, or one was removed or inserted).",
  hash_mismatch: "its fields do not give its hash (it was changed after it was written).",
  id_gap: "the entry before it is missing (removed).",
};

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
  const target = consoleTarget(values.env, values.origin, () => {
    const content = loadContentFile(values.content);
    if (!content.ok) throw new Error(`${values.content} is not valid:\n${formatContentErrors(content.errors)}`);
    return content.content.site.url;
  });
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
      draw: { type: "string" },
      winners: { type: "string" },
      cutoff: { type: "string" },
      "delay-minutes": { type: "string", default: String(DEFAULT_DELAY_MINUTES) },
      relay: { type: "string" },
      file: { type: "string" },
      origin: { type: "string" },
      reason: { type: "string" },
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
    case "draw":
      await draw(positionals[1], values);
      return 0;
    case "audit":
      return auditVerify(where, positionals[1]);
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
