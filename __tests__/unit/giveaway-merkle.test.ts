/**
 * @jest-environment node
 */
/**
 * The RFC 6962 Merkle tree over a draw's list (shared/giveaway/merkle.ts): the roots of Certificate Transparency's
 * published test vectors, an independent recursive computation for every size up to 70, audit paths for the first,
 * the last and a middle leaf of odd and power-of-two trees (whole, and split into aligned parts as the Worker keeps
 * them), and a tampered leaf refused.
 */
import { createHash } from "node:crypto";
import { auditPath, leafHash, merkleRoot, MerkleBuilder, nodeHash, PathCollector, verifyInclusion } from "../../shared/giveaway/merkle";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const bytes = (hexText: string) => Uint8Array.from(Buffer.from(hexText, "hex"));

/** Certificate Transparency's Merkle test leaves and the roots of their first n leaves (RFC 6962 reference values). */
const CT_LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"].map(bytes);
const CT_ROOTS = [
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];
/** The published audit path of leaf 5 in the tree of all 8 leaves. */
const CT_PATH_5_OF_8 = [
  "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
  "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
];

/** RFC 6962's MTH written out recursively with Node's own SHA-256: an independent computation. */
function referenceRoot(leaves: Uint8Array[]): string {
  const h = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();
  const mth = (d: Uint8Array[]): Buffer => {
    if (d.length === 0) return h();
    if (d.length === 1) return h(Buffer.from([0]), Buffer.from(d[0]));
    let k = 1;
    while (k * 2 < d.length) k *= 2;
    return h(Buffer.from([1]), mth(d.slice(0, k)), mth(d.slice(k)));
  };
  return mth(leaves).toString("hex");
}

/** n distinct lines as a draw's list has them. */
const lines = (n: number) => Array.from({ length: n }, (_, i) => new TextEncoder().encode(`${i.toString(16).padStart(16, "0")} 000001`));

it("gives the roots of Certificate Transparency's test vectors for every size from 0 to 8", () => {
  for (let n = 0; n <= 8; n++) expect({ n, root: hex(merkleRoot(CT_LEAVES.slice(0, n).map(leafHash))) }).toEqual({ n, root: CT_ROOTS[n] });
});

it("gives the published audit path of leaf 5 of 8, and it verifies", () => {
  const leaves = CT_LEAVES.map(leafHash);
  const path = auditPath(5, leaves);
  expect(path.map(hex)).toEqual(CT_PATH_5_OF_8);
  expect(verifyInclusion(leaves[5], 5, 8, path, bytes(CT_ROOTS[8]))).toBe(true);
});

it("agrees with an independent recursive computation for every size up to 70", () => {
  for (let n = 0; n <= 70; n++) expect({ n, root: hex(merkleRoot(lines(n).map(leafHash))) }).toEqual({ n, root: referenceRoot(lines(n)) });
});

describe.each([1, 2, 7, 8, 13, 16, 33])("a tree of %i leaves", (n) => {
  const leaves = lines(n).map(leafHash);
  const root = merkleRoot(leaves);
  const indexes = [...new Set([0, Math.floor(n / 2), n - 1])];

  it.each(indexes)("proves leaf %i, whole and collected while streaming", (index) => {
    const path = auditPath(index, leaves);
    expect(verifyInclusion(leaves[index], index, n, path, root)).toBe(true);
    const collector = new PathCollector(index, n);
    for (const leaf of leaves) collector.add(leaf);
    expect(collector.path().map(hex)).toEqual(path.map(hex));
  });

  it.each(indexes)("refuses leaf %i tampered, claimed at another index, or with a hash of its path missing", (index) => {
    const path = auditPath(index, leaves);
    const tampered = leafHash(new TextEncoder().encode(`${index.toString(16).padStart(16, "0")} 000002`));
    expect(verifyInclusion(tampered, index, n, path, root)).toBe(false);
    if (n > 1) expect(verifyInclusion(leaves[index], (index + 1) % n, n, path, root)).toBe(false);
    if (path.length > 0) expect(verifyInclusion(leaves[index], index, n, path.slice(1), root)).toBe(false);
  });
});

it("builds the same root and paths from aligned parts of 2^k leaves (the last smaller) as from the leaves", () => {
  for (const [n, partLeaves] of [
    [13, 4],
    [16, 4],
    [9, 2],
    [5, 8],
  ] as const) {
    const leaves = lines(n).map(leafHash);
    const parts: { root: Uint8Array; leaves: Uint8Array[] }[] = [];
    for (let at = 0; at < n; at += partLeaves) {
      const part = leaves.slice(at, at + partLeaves);
      parts.push({ root: merkleRoot(part), leaves: part });
    }
    const builder = new MerkleBuilder();
    for (const part of parts) {
      if (part.leaves.length === partLeaves) builder.add(part.root, Math.log2(partLeaves));
      else builder.addLast(part.root, part.leaves.length);
    }
    expect(hex(builder.root())).toBe(hex(merkleRoot(leaves)));
    for (const index of [0, Math.floor(n / 2), n - 1]) {
      const part = Math.floor(index / partLeaves);
      const path = [
        ...auditPath(index - part * partLeaves, parts[part].leaves),
        ...(parts.length > 1
          ? auditPath(
              part,
              parts.map((p) => p.root),
            )
          : []),
      ];
      expect({ n, index, path: path.map(hex) }).toEqual({ n, index, path: auditPath(index, leaves).map(hex) });
    }
  }
});

it("keeps a leaf from passing for a node (the 0x00 and 0x01 prefixes)", () => {
  const [a, b] = lines(2).map(leafHash);
  const node = nodeHash(a, b);
  const concatenated = new Uint8Array([...a, ...b]);
  expect(hex(leafHash(concatenated))).not.toBe(hex(node));
});
