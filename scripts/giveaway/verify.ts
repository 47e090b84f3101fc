/**
 * `npx tsx scripts/giveaway/verify.ts <draw.json file or URL> [--list FILE|URL] [--ticket TICKET] [--settings FILE|URL]`
 * (`--help` says each): check a published giveaway draw as anyone can, against the rules and the drand chain the site
 * published, never against a checkout's content (trustedFor). A format 2 draw's list is streamed once from a
 * file or its URL (the commitment's listUrl, on the commitment's origin, unless --list names another), and read back
 * in blocks for the winners; --ticket checks one person's line and its audit path against the Merkle root. Prints
 * "verified" or each mismatch; exit code 0 when verified, 1 when not, 2 when used wrongly.
 */
import { createReadStream } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { fromHex, toHex } from "../../shared/giveaway/bytes";
import { DRAND_CHAINS, type DrandChain } from "../../shared/giveaway/chains";
import { verifyCommitment, type ListSource } from "../../shared/giveaway/commitment";
import { DRAW_FORMAT_2, pseudonymOf } from "../../shared/giveaway/draw-file";
import { findLine, leafBytes, LINE_BYTES, listLine } from "../../shared/giveaway/list";
import { leafHash, PathCollector, verifyInclusion } from "../../shared/giveaway/merkle";
import type { DrawRules } from "../../shared/giveaway/rules";
import { verifyDraw } from "../../shared/giveaway/verify";
import { SERVICE_SETTINGS_PATH, ServiceSettingsSchema } from "../../shared/service-settings";
import { nodeSha256 } from "./node-sha256";

const isUrl = (where: string) => /^https?:\/\//.test(where);

/** The text of a file or a URL. @throws Error when a URL does not answer 200 */
async function readText(where: string): Promise<string> {
  if (!isUrl(where)) return readFile(where, "utf8");
  const response = await fetch(where);
  if (!response.ok) throw new Error(`${where} answered ${response.status}`);
  return response.text();
}

/** A list in a file, or at a URL answering Range requests. */
function listSource(where: string): ListSource {
  if (isUrl(where))
    return {
      async *chunks() {
        const response = await fetch(where);
        if (!response.ok || !response.body) throw new Error(`${where} answered ${response.status}`);
        const reader = response.body.getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) yield chunk.value;
      },
      async range(offset, length) {
        const response = await fetch(where, { headers: { range: `bytes=${offset}-${offset + length - 1}` } });
        if (response.status === 416) return new Uint8Array(0);
        if (response.status !== 206 && response.status !== 200) throw new Error(`${where} answered ${response.status}`);
        const bytes = new Uint8Array(await response.arrayBuffer());
        return response.status === 200 ? bytes.subarray(offset, offset + length) : bytes;
      },
    };
  return {
    async *chunks() {
      for await (const chunk of createReadStream(where)) yield chunk as Uint8Array;
    },
    async range(offset, length) {
      const file = await open(where);
      try {
        const buffer = new Uint8Array(length);
        const { bytesRead } = await file.read(buffer, 0, length, offset);
        return buffer.subarray(0, bytesRead);
      } finally {
        await file.close();
      }
    },
  };
}

const USAGE = `Usage: npx tsx scripts/giveaway/verify.ts <draw.json file or URL> [options]

Checks a published giveaway draw: its list's SHA-256 and Merkle root, its rules, its drand round and signature, and
its winners. Exit code 0 when verified, 1 when not, 2 when used wrongly.

Options:
  --list FILE|URL      the draw's list of entrants (format 2). Default: the commitment's listUrl, on the origin of a
                       draw.json given by URL; required with a draw.json file.
  --ticket TICKET      also check that this ticket's line is in the list, with its audit path to the Merkle root.
  --settings FILE|URL  the service-settings.json the site published, whose draw rules and drand chain the draw must
                       name. Default: the one at the draw.json's origin (${SERVICE_SETTINGS_PATH}) for a draw.json
                       given by URL; for a file, the rules the draw names, and its chain only if drand publishes it.
  --help               print this and exit.`;

/** What a draw is checked against: the drand chain whose key it trusts, and the rules it must name (format 2). */
interface Trusted {
  chain: DrandChain;
  rules: DrawRules | null;
  /** Where they came from, for the report. */
  from: string;
}

/**
 * The chain and rules to check a draw against: the site's published settings (`settings`, or the draw URL's origin),
 * else the draw's own rules with a chain drand publishes (DRAND_CHAINS, by the hash the draw names).
 * @throws Error when the settings cannot be read or are not a site's service-settings.json
 */
async function trustedFor(draw: string, parsed: unknown, settings: string | undefined): Promise<Trusted | string> {
  const where = settings ?? (isUrl(draw) ? new URL(SERVICE_SETTINGS_PATH, draw).href : null);
  if (where !== null) {
    const published = ServiceSettingsSchema.safeParse(JSON.parse(await readText(where)));
    if (!published.success) throw new Error(`${where} is not a site's service-settings.json: ${published.error.issues[0].message}`);
    const { chain, id, cutoff, winners, roundDelayHours } = published.data.draw;
    return { chain, rules: { id, cutoff, winners, roundDelayHours }, from: where };
  }
  const file = parsed as { draw?: unknown; chain?: { hash?: unknown }; rules?: Omit<DrawRules, "id"> } | null;
  const chain = DRAND_CHAINS.find((known) => known.hash === file?.chain?.hash);
  if (!chain) return `the draw names a drand chain (${String(file?.chain?.hash)}) that drand does not publish: give --settings`;
  const rules = file?.rules && typeof file.draw === "string" ? { id: file.draw, ...file.rules } : null;
  return { chain, rules, from: "the draw's own rules and drand's published chain" };
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      list: { type: "string" },
      ticket: { type: "string" },
      settings: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const [file] = positionals;
  if (!file) {
    console.error(USAGE);
    return 2;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readText(file));
  } catch (error) {
    parsed = null;
    console.error(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const trusted = await trustedFor(file, parsed, values.settings);
  if (typeof trusted === "string") {
    console.log(`NOT verified:\n  chain: ${trusted}`);
    return 1;
  }
  const format = (parsed as { format?: unknown } | null)?.format;
  if (format !== DRAW_FORMAT_2) {
    // Format 1 carries its list and names no rules: checked against itself and the trusted chain.
    return print(await verifyDraw(parsed, trusted.chain), "the list, the round and the winners all match", "");
  }
  if (trusted.rules === null) {
    console.log("NOT verified:\n  format: the commitment names no rules");
    return 1;
  }

  const commitment = parsed as { listUrl: string; n: number; merkleRoot: string; draw: string };
  const listWhere = values.list ?? (isUrl(file) ? new URL(commitment.listUrl, file).href : null);
  if (listWhere === null) {
    console.error("The commitment is a file: name its list with --list FILE or --list URL.");
    return 2;
  }
  const source = listSource(listWhere);
  let collector: PathCollector | null = null;
  let place: { index: number; line: string } | null = null;
  if (values.ticket !== undefined) {
    const pseudonym = await pseudonymOf(commitment.draw, values.ticket.trim().toLowerCase());
    const found = await findLine((index) => source.range(index * LINE_BYTES, LINE_BYTES), commitment.n, pseudonym);
    if (found === null) {
      console.log(`NOT in the draw: no line holds pseudonym ${pseudonym} (ticket ${values.ticket}).`);
      return 1;
    }
    place = { index: found.index, line: listLine(found.entrant) };
    collector = new PathCollector(found.index, commitment.n);
  }
  const report = await verifyCommitment(parsed, { chain: trusted.chain, rules: trusted.rules }, source, {
    sha256: nodeSha256,
    onLeaf: collector ? (hash) => collector.add(hash) : undefined,
  });
  let proof = "";
  if (place && collector) {
    const path = collector.path();
    const included = verifyInclusion(leafHash(leafBytes(place.line)), place.index, commitment.n, path, fromHex(commitment.merkleRoot));
    if (!included)
      report.mismatches.push({ kind: "merkleRoot", detail: `line ${place.index}'s audit path does not lead to the Merkle root` });
    report.verified = report.mismatches.length === 0;
    proof = `\nIn the draw: line ${place.index}, "${place.line.trim()}", audit path of ${path.length} hashes: ${path.map(toHex).join(" ")}`;
  }
  return print(report, "the list, the rules, the round and the winners all match", proof);
}

/** Print the report (`drawn`: what a verified, drawn draw matched); its exit code. */
function print(
  report: { verified: boolean; drawn: boolean; mismatches: { kind: string; detail: string }[] },
  drawn: string,
  proof: string,
): number {
  if (report.verified) {
    console.log(`verified: ${report.drawn ? drawn : "the commitment matches (not drawn yet)"}${proof}`);
    return 0;
  }
  console.log("NOT verified:");
  for (const { kind, detail } of report.mismatches) console.log(`  ${kind}: ${detail}`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
