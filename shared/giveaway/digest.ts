/**
 * One pass over a format 2 list (list.ts), chunk by chunk as it arrives, whatever the chunks' sizes: its bytes'
 * SHA-256, its Merkle root (merkle.ts), its count, its entries and block sums (stream-winners.ts), and the first line
 * that is malformed or out of order. Each line is read from its bytes where it lies in the chunk, with no text decoded
 * and nothing allocated but its leaf hash; the page's Verify, `scripts/giveaway/verify.ts` and the Worker's run all
 * digest a list here.
 */
import { toHex } from "./bytes";
import { PSEUDONYM_HEX_CHARS } from "./pseudonym";
import { lineEntriesAt, LINE_BYTES } from "./list";
import { MerkleBuilder, treeHashes, type TreeHashes } from "./merkle";
import { nobleSha256, type RunningSha256, type Sha256 } from "./sha256";
import { BlockSums } from "./stream-winners";

/** What one pass over a list finds. */
export interface ListDigest {
  bytes: number;
  n: number;
  totalEntries: number;
  listHash: string;
  merkleRoot: string;
  sums: BlockSums;
  /** The first line that is not a line of the list, or is out of order (null when none). */
  badLine: number | null;
}

export interface DigestOptions {
  /** The SHA-256 to hash with (default @noble/hashes'; a script passes node:crypto's). */
  sha256?: Sha256;
  /** Called with each line's leaf hash, in order (a PathCollector's add). */
  onLeaf?: (hash: Uint8Array) => void;
}

/** Whether the pseudonym at `bytes[at…]` sorts after `previous` (16 bytes of lower-case hex: byte order is text order). */
function sortsAfter(bytes: Uint8Array, at: number, previous: Uint8Array): boolean {
  for (let i = 0; i < PSEUDONYM_HEX_CHARS; i++) {
    const difference = bytes[at + i] - previous[i];
    if (difference !== 0) return difference > 0;
  }
  return false;
}

/** A list's digest, fed chunk by chunk: `push` each chunk in order, then `end` once. */
export class ListDigester {
  private readonly hashes: TreeHashes;
  private readonly onLeaf?: (hash: Uint8Array) => void;
  private readonly hash: RunningSha256;
  private readonly tree: MerkleBuilder;
  private readonly sums = new BlockSums();
  /** The start of a line cut by the end of the last chunk. */
  private readonly carry = new Uint8Array(LINE_BYTES);
  private carried = 0;
  /** The last well-formed line's pseudonym, once there is one. */
  private readonly previous = new Uint8Array(PSEUDONYM_HEX_CHARS);
  private hasPrevious = false;
  private badLine: number | null = null;
  /** Bytes pushed so far. */
  bytes = 0;

  constructor({ sha256 = nobleSha256, onLeaf }: DigestOptions = {}) {
    this.hashes = treeHashes(sha256);
    this.onLeaf = onLeaf;
    this.hash = sha256.create();
    this.tree = new MerkleBuilder(sha256);
  }

  /** Take the next chunk of the list. */
  push(part: Uint8Array): void {
    this.hash.update(part);
    this.bytes += part.length;
    // A plain view: a subclass's (Node's Buffer) makes every line's subarray dearer.
    const chunk = new Uint8Array(part.buffer, part.byteOffset, part.length);
    let at = 0;
    if (this.carried > 0) {
      at = Math.min(LINE_BYTES - this.carried, chunk.length);
      this.carry.set(chunk.subarray(0, at), this.carried);
      this.carried += at;
      if (this.carried < LINE_BYTES) return;
      this.line(this.carry, 0);
      this.carried = 0;
    }
    for (; at + LINE_BYTES <= chunk.length; at += LINE_BYTES) this.line(chunk, at);
    this.carry.set(chunk.subarray(at));
    this.carried = chunk.length - at;
  }

  /** The digest of everything pushed; a list that ends in a partial line has that line as its bad line. */
  end(): ListDigest {
    if (this.carried > 0) this.badLine ??= this.sums.lines;
    return {
      bytes: this.bytes,
      n: this.sums.lines,
      totalEntries: this.sums.total,
      listHash: toHex(this.hash.digest()),
      merkleRoot: toHex(this.tree.root()),
      sums: this.sums,
      badLine: this.badLine,
    };
  }

  /** One whole line at `bytes[at, at + LINE_BYTES)`; a bad one counts 1 entry, so the sums stay in step. */
  private line(bytes: Uint8Array, at: number): void {
    const entries = lineEntriesAt(bytes, at);
    if (entries === 0 || (this.hasPrevious && !sortsAfter(bytes, at, this.previous))) {
      this.badLine ??= this.sums.lines;
      this.sums.add(1);
    } else {
      this.sums.add(entries);
      this.previous.set(bytes.subarray(at, at + PSEUDONYM_HEX_CHARS));
      this.hasPrevious = true;
    }
    const hashed = this.hashes.leaf(bytes.subarray(at, at + LINE_BYTES - 1));
    this.tree.add(hashed);
    this.onLeaf?.(hashed);
  }
}

/**
 * Read a list once, chunk by chunk: its SHA-256, Merkle root, count, entries and block sums.
 * @param onProgress called after each chunk with the bytes read so far
 */
export async function digestList(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  { onProgress, ...options }: DigestOptions & { onProgress?: (bytes: number) => void } = {},
): Promise<ListDigest> {
  const digester = new ListDigester(options);
  for await (const chunk of chunks) {
    digester.push(chunk);
    onProgress?.(digester.bytes);
  }
  return digester.end();
}
