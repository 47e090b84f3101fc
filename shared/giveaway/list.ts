/**
 * The list of a format 2 draw (`/giveaway/draw/<id>/entrants.txt`): one fixed-width line per entrant,
 * `<pseudonym: 16 hex> <entries: 6 digits, zero-padded>\n`, sorted by pseudonym. Fixed width makes line i the bytes
 * [24 i, 24 i + 24), so a browser finds one pseudonym by binary search with Range requests, and an aligned run of 2^k
 * lines is a complete subtree of the Merkle tree (merkle.ts), so the list is built and checked part by part.
 */
import { PSEUDONYM_HEX_CHARS, type Entrant } from "./draw-file";

/** Digits of a line's entries. */
export const ENTRIES_DIGITS = 6;
/** The most entries one line holds (the digits' limit). */
export const MAX_ENTRIES = 10 ** ENTRIES_DIGITS - 1;
/** Bytes of one line, its newline included. */
export const LINE_BYTES = PSEUDONYM_HEX_CHARS + 1 + ENTRIES_DIGITS + 1;

const SPACE = 0x20;
const NEWLINE = 0x0a;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const HEX_A = 0x61;
const HEX_F = 0x66;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * One entrant's line, newline included.
 * @throws RangeError when the pseudonym is not 16 lower-case hex characters or the entries are not 1 to MAX_ENTRIES
 */
export function listLine({ pseudonym, entries }: Entrant): string {
  if (!/^[0-9a-f]{16}$/.test(pseudonym)) throw new RangeError(`not a pseudonym: ${JSON.stringify(pseudonym)}`);
  if (!Number.isSafeInteger(entries) || entries < 1 || entries > MAX_ENTRIES)
    throw new RangeError(`entries must be a whole number from 1 to ${MAX_ENTRIES}, not ${entries}`);
  return `${pseudonym} ${String(entries).padStart(ENTRIES_DIGITS, "0")}\n`;
}

/** A line's bytes without its newline: what the Merkle tree's leaf hashes. */
export function leafBytes(line: string): Uint8Array {
  return encoder.encode(line.endsWith("\n") ? line.slice(0, -1) : line);
}

/**
 * The entries of the line at `bytes[at, at + LINE_BYTES)`, read from its bytes with no text decoded: the one rule of
 * a line (16 lower-case hex characters, a space, 6 digits, a newline; 1 entry or more), which parseLine and the
 * one-pass check of a whole list (digest.ts) both apply.
 * @param newline whether the line ends in its newline (false: LINE_BYTES − 1 bytes from `at`)
 * @returns the entries, or 0 when the bytes are not a line of the list (or run out)
 */
export function lineEntriesAt(bytes: Uint8Array, at: number, newline = true): number {
  if (at < 0 || at + LINE_BYTES - (newline ? 0 : 1) > bytes.length) return 0;
  for (let i = at; i < at + PSEUDONYM_HEX_CHARS; i++) {
    const byte = bytes[i];
    if (!((byte >= DIGIT_0 && byte <= DIGIT_9) || (byte >= HEX_A && byte <= HEX_F))) return 0;
  }
  if (bytes[at + PSEUDONYM_HEX_CHARS] !== SPACE) return 0;
  let entries = 0;
  for (let i = at + PSEUDONYM_HEX_CHARS + 1; i < at + LINE_BYTES - 1; i++) {
    const byte = bytes[i];
    if (byte < DIGIT_0 || byte > DIGIT_9) return 0;
    entries = entries * 10 + (byte - DIGIT_0);
  }
  if (newline && bytes[at + LINE_BYTES - 1] !== NEWLINE) return 0;
  return entries;
}

/**
 * The entrant of one line's bytes (LINE_BYTES, or LINE_BYTES − 1 without the newline).
 * @returns null when the bytes are not a line of the list
 */
export function parseLine(bytes: Uint8Array): Entrant | null {
  if (bytes.length !== LINE_BYTES && bytes.length !== LINE_BYTES - 1) return null;
  const entries = lineEntriesAt(bytes, 0, bytes.length === LINE_BYTES);
  return entries === 0 ? null : { pseudonym: decoder.decode(bytes.subarray(0, PSEUDONYM_HEX_CHARS)), entries };
}

/** The list's address and its commitment's, on the site's origin. */
export function listPath(drawId: string): string {
  return `/giveaway/draw/${drawId}/entrants.txt`;
}

/** The commitment's address (format 2) on the site's origin. */
export function commitmentPath(drawId: string): string {
  return `/giveaway/draw/${drawId}/draw.json`;
}

/**
 * Cuts a stream of bytes into whole lines, whatever the chunks' sizes: `push` each chunk, then `end`.
 * @throws Error from end when bytes are left over (the list's length is not a multiple of LINE_BYTES)
 */
export class LineSplitter {
  private carry = new Uint8Array(0);

  constructor(private readonly onLine: (line: Uint8Array) => void) {}

  push(chunk: Uint8Array): void {
    let bytes = chunk;
    if (this.carry.length > 0) {
      bytes = new Uint8Array(this.carry.length + chunk.length);
      bytes.set(this.carry);
      bytes.set(chunk, this.carry.length);
    }
    let at = 0;
    for (; at + LINE_BYTES <= bytes.length; at += LINE_BYTES) this.onLine(bytes.subarray(at, at + LINE_BYTES));
    this.carry = bytes.slice(at);
  }

  end(): void {
    if (this.carry.length > 0) throw new Error(`the list ends in a partial line of ${this.carry.length} bytes`);
  }
}

/**
 * Find a pseudonym's line in a list of `n` lines by binary search, reading one line at a time (about log2(n) Range
 * requests of LINE_BYTES).
 * @param readLine the bytes of line i
 * @returns its index and entrant, or null when no line holds it
 * @throws Error when a line read is not a line of the list
 */
export async function findLine(
  readLine: (index: number) => Promise<Uint8Array>,
  n: number,
  pseudonym: string,
): Promise<{ index: number; entrant: Entrant } | null> {
  let low = 0;
  let high = n - 1;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const entrant = parseLine(await readLine(middle));
    if (entrant === null) throw new Error(`line ${middle} is not a line of the list`);
    if (entrant.pseudonym === pseudonym) return { index: middle, entrant };
    if (entrant.pseudonym < pseudonym) low = middle + 1;
    else high = middle - 1;
  }
  return null;
}
