/**
 * `npx tsx scripts/giveaway/verify.ts <draw.json> [--content FILE]`: check a published giveaway draw as anyone can,
 * against the drand chain the site's content names (content/site.yaml → draw.chain). Prints "verified" or each
 * mismatch; exit code 0 when verified, 1 when not, 2 when used wrongly.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { DEFAULT_CONTENT_FILE } from "../../src/content/derive";
import { formatContentErrors, loadContentFile } from "../../src/content/load";
import { verifyDraw } from "../../shared/giveaway/verify";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { content: { type: "string", default: DEFAULT_CONTENT_FILE } },
  });
  const [file] = positionals;
  if (!file) {
    console.error("Usage: npx tsx scripts/giveaway/verify.ts <draw.json> [--content FILE]");
    return 2;
  }
  const content = loadContentFile(values.content);
  if (!content.ok) throw new Error(`${values.content} is not valid:\n${formatContentErrors(content.errors)}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    parsed = null;
    console.error(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const report = await verifyDraw(parsed, content.content.draw.chain);
  if (report.verified) {
    console.log(
      report.drawn ? "verified: the list, the round and the winners all match" : "verified: the commitment matches (not drawn yet)",
    );
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
