/**
 * @jest-environment node
 */
/**
 * One pass over a format 2 list (shared/giveaway/digest.ts) and what it stands on: a line read from its bytes
 * (list.ts lineEntriesAt) agrees with the line's rule written as a pattern, whatever the bytes; the digest is the
 * same whatever the chunks' cuts and equals one computed apart (Node's SHA-256 of the whole file, the tree of the
 * lines' leaf hashes, the entries added up); the first bad line is named, whichever way it is bad; the reused
 * @noble/hashes hasher and the script's node:crypto one (scripts/giveaway/node-sha256.ts) give the same bytes.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { digestList, ListDigester } from "../../shared/giveaway/digest";
import { LINE_BYTES, lineEntriesAt, listLine, parseLine } from "../../shared/giveaway/list";
import { leafHash, merkleRoot } from "../../shared/giveaway/merkle";
import { nobleSha256 } from "../../shared/giveaway/sha256";
import { nodeSha256 } from "../../scripts/giveaway/node-sha256";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const encode = (text: string) => new TextEncoder().encode(text);

/** n sorted lines with 1 to 7 entries each, as the Worker writes a list. */
function list(n: number): Uint8Array {
  const lines = Array.from({ length: n }, (_, i) =>
    listLine({ pseudonym: (i * 7919).toString(16).padStart(16, "0"), entries: 1 + (i % 7) }),
  );
  return encode(lines.join(""));
}

/** The digest written out apart from digest.ts: Node's SHA-256, each line's leaf hash into merkleRoot, the entries. */
function referenceDigest(bytes: Uint8Array) {
  const lines = Array.from({ length: bytes.length / LINE_BYTES }, (_, i) => bytes.subarray(i * LINE_BYTES, (i + 1) * LINE_BYTES));
  return {
    bytes: bytes.length,
    n: lines.length,
    totalEntries: lines.reduce((sum, line) => sum + Number(Buffer.from(line.subarray(17, 23)).toString()), 0),
    listHash: createHash("sha256").update(bytes).digest("hex"),
    merkleRoot: hex(merkleRoot(lines.map((line) => leafHash(line.subarray(0, LINE_BYTES - 1))))),
    badLine: null,
  };
}

/** The list cut at `cuts` (offsets, any order, repeats allowed), as a stream's chunks arrive. */
function chunksAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [0, ...[...new Set(cuts)].sort((a, b) => a - b), bytes.length];
  return at.slice(1).map((end, i) => bytes.subarray(at[i], end));
}

const digestOf = async (chunks: Iterable<Uint8Array>) => {
  const { sums, ...digest } = await digestList(chunks);
  return { ...digest, blocks: sums.sums };
};

it("reads a line from its bytes exactly as the line's pattern says, whatever the bytes", () => {
  const pattern = /^[0-9a-f]{16} \d{6}\n$/;
  const lineLike = fc.constantFrom(..."0123456789abcdefABG \n\u00e9".split("").map((char) => encode(char)[0]));
  fc.assert(
    fc.property(fc.array(lineLike, { minLength: LINE_BYTES, maxLength: LINE_BYTES }), fc.boolean(), (bytes, valid) => {
      const line = valid ? encode(listLine({ pseudonym: "0123456789abcdef", entries: 1 + bytes[0] })) : Uint8Array.from(bytes);
      const text = Buffer.from(line).toString("latin1");
      const expected = pattern.test(text) && Number(text.slice(17, 23)) > 0 ? Number(text.slice(17, 23)) : 0;
      expect(lineEntriesAt(line, 0)).toBe(expected);
      expect(parseLine(line)).toEqual(expected ? { pseudonym: text.slice(0, 16), entries: expected } : null);
      const head = text.slice(0, LINE_BYTES - 1);
      const headEntries = /^[0-9a-f]{16} \d{6}$/.test(head) ? Number(head.slice(17)) : 0;
      expect(parseLine(line.subarray(0, LINE_BYTES - 1))).toEqual(
        headEntries > 0 ? { pseudonym: head.slice(0, 16), entries: headEntries } : null,
      );
    }),
  );
  expect(lineEntriesAt(encode("0123456789abcdef 000000\n"), 0)).toBe(0);
  expect(lineEntriesAt(encode("0123456789abcdef 000001\n"), 1)).toBe(0);
});

it("gives the same digest whatever the chunks' cuts, equal to one computed apart", async () => {
  const bytes = list(300);
  const whole = await digestOf([bytes]);
  const reference = referenceDigest(bytes);
  expect(whole).toEqual({ ...reference, blocks: [reference.totalEntries] }); // 300 lines: one block of sums
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 40 }), async (cuts) => {
      expect(await digestOf(chunksAt(bytes, cuts))).toEqual(whole);
    }),
    { numRuns: 200 },
  );
});

it("names the first bad line, whichever way it is bad, and keeps counting lines after it", async () => {
  const bytes = list(50);
  const line = (i: number) => bytes.subarray(i * LINE_BYTES, (i + 1) * LINE_BYTES);
  const malformed = Uint8Array.from(bytes);
  malformed[7 * LINE_BYTES + 3] = 0x47; // "G" in a pseudonym
  const repeated = Uint8Array.from(bytes);
  repeated.set(line(11), 12 * LINE_BYTES);
  const swapped = Uint8Array.from(bytes);
  swapped.set(line(21), 20 * LINE_BYTES);
  swapped.set(line(20), 21 * LINE_BYTES);
  const noEntries = Uint8Array.from(bytes);
  noEntries.set(encode("000000"), 30 * LINE_BYTES + 17);
  const cases: [Uint8Array, number][] = [
    [malformed, 7],
    [repeated, 12],
    [swapped, 21],
    [noEntries, 30],
    [bytes.subarray(0, bytes.length - 5), 49],
  ];
  for (const [list, badLine] of cases) {
    const digest = await digestList([list]);
    expect({ badLine: digest.badLine, n: digest.n }).toEqual({ badLine, n: Math.floor(list.length / LINE_BYTES) });
  }
});

it("hashes with Node's SHA-256 to the same bytes as with @noble/hashes', chunk by chunk", () => {
  const bytes = list(1000);
  const leaves: string[][] = [[], []];
  const digests = [nobleSha256, nodeSha256].map((sha256, i) => {
    const digester = new ListDigester({ sha256, onLeaf: (hash) => leaves[i].push(hex(hash)) });
    for (const chunk of chunksAt(bytes, [5, 4096, 10_000])) digester.push(chunk);
    const { sums, ...digest } = digester.end();
    return { ...digest, blocks: sums.sums };
  });
  expect(digests[1]).toEqual(digests[0]);
  expect(leaves[1]).toEqual(leaves[0]);
  expect(leaves[0]).toHaveLength(1000);
});

it("gives every input its own SHA-256 from the one reused @noble/hashes hasher, as Node does", () => {
  fc.assert(
    fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { minLength: 1, maxLength: 8 }), (inputs) => {
      const hashes = inputs.map((input) => hex(nobleSha256(input)));
      expect(hashes).toEqual(inputs.map((input) => createHash("sha256").update(input).digest("hex")));
      expect(hashes).toEqual(inputs.map((input) => hex(nodeSha256(input))));
    }),
  );
  const running = nobleSha256.create();
  running.update(encode("ab"));
  running.update(encode("c"));
  expect(hex(running.digest())).toBe(createHash("sha256").update("abc").digest("hex"));
});
