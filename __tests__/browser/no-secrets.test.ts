/**
 * Nothing shaped like a Klaviyo private API key ships in the built site (product rule 19):
 * the site may only carry the public key (site id); a private key in `public/` would
 * be readable by anyone. Every file is scanned, text or binary (as latin1, so every
 * byte is a character and nothing fails to decode).
 */
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PUBLIC_DIR } from "./support/build-site";
import { expect, test } from "./support/fixtures";

/** Klaviyo private keys: `pk_` then a long run of letters and digits. */
const PRIVATE_KEY = /pk_[A-Za-z0-9]{20,}/g;

/** One match: where, and the key with its middle masked (so a real leak is not repeated in logs). */
interface Finding {
  file: string;
  masked: string;
}

/**
 * Every private-key-shaped string in the files under `dir` (recursively).
 * @param dir e.g. PUBLIC_DIR
 */
async function scanForPrivateKeys(dir: string): Promise<Finding[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const findings: Finding[] = [];
  for (const entry of entries.filter((e) => e.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    const text = (await readFile(file)).toString("latin1");
    for (const [key] of text.matchAll(PRIVATE_KEY)) {
      findings.push({ file: path.relative(dir, file), masked: `${key.slice(0, 6)}…${key.slice(-2)}` });
    }
  }
  return findings;
}

test("finds no private-key-shaped string in any file of public/", async () => {
  const files = (await readdir(PUBLIC_DIR, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  // The build is there (an empty folder would pass vacuously).
  expect(files.map((e) => e.name)).toEqual(expect.arrayContaining(["index.html", "_headers"]));
  expect(await scanForPrivateKeys(PUBLIC_DIR)).toEqual([]);
});

test.describe("the scanner itself (negative control)", () => {
  let dir: string;
  test.beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "no-secrets-"));
  });
  test.afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("catches a key planted in a nested binary file, and ignores a prefix too short to be one", async () => {
    const planted = `pk_${"a1B2c3D4e5".repeat(3)}`;
    await mkdir(path.join(dir, "static", "deep"), { recursive: true });
    await writeFile(
      path.join(dir, "static", "deep", "blob.bin"),
      Buffer.concat([Buffer.from([0, 255, 137, 80]), Buffer.from(planted, "latin1"), Buffer.from([0, 1])]),
    );
    await writeFile(path.join(dir, "index.html"), `<p>pk_${"x".repeat(19)} is not a key</p>`);

    expect(await scanForPrivateKeys(dir)).toEqual([
      { file: path.join("static", "deep", "blob.bin"), masked: `${planted.slice(0, 6)}…${planted.slice(-2)}` },
    ]);
  });
});
