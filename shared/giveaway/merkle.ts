/**
 * The RFC 6962 (Certificate Transparency) Merkle tree over a draw's list: leaf = SHA-256(0x00 ‖ line), node =
 * SHA-256(0x01 ‖ left ‖ right), a tree of n leaves split at the largest power of two below n. The prefixes keep a
 * leaf from passing for a node; the split needs no padding, so any n has one root. Built as lines arrive (a stack of
 * complete subtrees), audit paths (RFC 6962 §2.1.1) and their check (RFC 9162 §2.1.3.2). Synchronous SHA-256
 * (sha256.ts: @noble/hashes unless the caller passes a native one): a million leaves are hashed in one pass without a
 * promise each.
 */
import { nobleSha256, type Sha256 } from "./sha256";

const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;
const HASH_BYTES = 32;

/** The tree's two hashes over one SHA-256: a leaf's from its line, an inner node's from its two children. */
export interface TreeHashes {
  /** SHA-256(0x00 ‖ line), the line without its newline: 32 bytes. */
  leaf(line: Uint8Array): Uint8Array;
  /** SHA-256(0x01 ‖ left ‖ right), from two hashes of 32 bytes: 32 bytes. */
  node(left: Uint8Array, right: Uint8Array): Uint8Array;
}

/**
 * The tree's hashes over `sha256`. Each input is built in place and hashed at once (no SHA-256 keeps its input), so a
 * million leaves allocate no input each.
 */
export function treeHashes(sha256: Sha256): TreeHashes {
  let leafInput = new Uint8Array(1);
  const nodeInput = new Uint8Array(1 + 2 * HASH_BYTES);
  return {
    leaf(line) {
      if (leafInput.length !== line.length + 1) leafInput = new Uint8Array(line.length + 1);
      leafInput[0] = LEAF_PREFIX;
      leafInput.set(line, 1);
      return sha256(leafInput);
    },
    node(left, right) {
      nodeInput[0] = NODE_PREFIX;
      nodeInput.set(left, 1);
      nodeInput.set(right, 1 + HASH_BYTES);
      return sha256(nodeInput);
    },
  };
}

const nobleHashes = treeHashes(nobleSha256);

/** The leaf hash of one line's bytes (without its newline). */
export function leafHash(line: Uint8Array): Uint8Array {
  return nobleHashes.leaf(line);
}

/** The hash of an inner node from its two children. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return nobleHashes.node(left, right);
}

/** The largest power of two strictly below `n` (n ≥ 2). */
function splitOf(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The root of a tree built as its subtrees arrive, left to right: each `add` is a complete subtree of 2^level leaves
 * (a leaf hash is level 0), and every subtree but the last must be at least as large as the next. Holds one hash per
 * set bit of the leaf count.
 */
export class MerkleBuilder {
  private readonly stack: { hash: Uint8Array; level: number }[] = [];
  /** Leaves added so far. */
  leaves = 0;

  private readonly hashes: TreeHashes;

  /** @param sha256 the SHA-256 its nodes are hashed with */
  constructor(private readonly sha256: Sha256 = nobleSha256) {
    this.hashes = treeHashes(sha256);
  }

  /** Add a subtree's root; 2^level leaves. */
  add(hash: Uint8Array, level = 0): void {
    let node = { hash, level };
    while (this.stack.length > 0 && this.stack[this.stack.length - 1].level === node.level) {
      const left = this.stack.pop()!;
      node = { hash: this.hashes.node(left.hash, node.hash), level: node.level + 1 };
    }
    this.stack.push(node);
    this.leaves += 2 ** level;
  }

  /**
   * Add the root of the last, incomplete subtree (`leaves` leaves, fewer than a complete one): nothing may follow it.
   */
  addLast(hash: Uint8Array, leaves: number): void {
    this.stack.push({ hash, level: -1 });
    this.leaves += leaves;
  }

  /** The root: SHA-256 of nothing for no leaves (RFC 6962's empty tree). */
  root(): Uint8Array {
    if (this.stack.length === 0) return this.sha256(new Uint8Array(0));
    let root = this.stack[this.stack.length - 1].hash;
    for (let i = this.stack.length - 2; i >= 0; i--) root = this.hashes.node(this.stack[i].hash, root);
    return root;
  }
}

/** The root of a tree whose leaves hash to `leafHashes` (RFC 6962's MTH). */
export function merkleRoot(leafHashes: readonly Uint8Array[]): Uint8Array {
  const builder = new MerkleBuilder();
  for (const hash of leafHashes) builder.add(hash);
  return builder.root();
}

/**
 * The leaf ranges [from, to) whose subtree roots make the audit path of leaf `index` in a tree of `size` leaves
 * (RFC 6962's PATH), bottom first.
 * @throws RangeError when `index` is outside the tree
 */
export function auditRanges(index: number, size: number): [number, number][] {
  if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError(`no leaf ${index} among ${size}`);
  const ranges: [number, number][] = [];
  let from = 0;
  let to = size;
  while (to - from > 1) {
    const k = splitOf(to - from);
    if (index < from + k) {
      ranges.push([from + k, to]);
      to = from + k;
    } else {
      ranges.push([from, from + k]);
      from += k;
    }
  }
  return ranges.reverse();
}

/**
 * The audit path of leaf `index` among `nodes`, bottom first: the sibling subtrees' roots. `nodes` are leaf hashes, or
 * the roots of aligned parts of 2^k leaves each but the last, which gives the upper part of the path of a leaf in them
 * (a part's own lines give the lower part).
 * @throws RangeError when `index` is outside the nodes
 */
export function auditPath(index: number, nodes: readonly Uint8Array[]): Uint8Array[] {
  return auditRanges(index, nodes.length).map(([from, to]) => subtreeRoot(nodes, from, to));
}

/**
 * The audit path of one leaf collected while every leaf streams past once (`add` each leaf hash in order), in memory
 * of one hash per level: for a checker that reads a list it does not hold.
 */
export class PathCollector {
  private readonly ranges: [number, number][];
  private readonly builders: MerkleBuilder[];
  private leaf = 0;

  constructor(index: number, size: number) {
    this.ranges = auditRanges(index, size);
    this.builders = this.ranges.map(() => new MerkleBuilder());
  }

  add(hash: Uint8Array): void {
    const at = this.ranges.findIndex(([from, to]) => this.leaf >= from && this.leaf < to);
    if (at >= 0) this.builders[at].add(hash);
    this.leaf += 1;
  }

  /** The path, bottom first. */
  path(): Uint8Array[] {
    return this.builders.map((builder) => builder.root());
  }
}

/** The root of nodes[from, to), nodes being complete, aligned subtrees of equal size (the last may be smaller). */
function subtreeRoot(nodes: readonly Uint8Array[], from: number, to: number): Uint8Array {
  if (to - from === 1) return nodes[from];
  const k = splitOf(to - from);
  return nodeHash(subtreeRoot(nodes, from, from + k), subtreeRoot(nodes, from + k, to));
}

/**
 * Whether `path` proves leaf `index` (whose leaf hash is `leaf`) in the tree of `size` leaves with root `root`
 * (RFC 9162 §2.1.3.2).
 */
export function verifyInclusion(leaf: Uint8Array, index: number, size: number, path: readonly Uint8Array[], root: Uint8Array): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.length === root.length && r.every((byte, i) => byte === root[i]);
}
