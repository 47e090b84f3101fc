/**
 * The synchronous SHA-256 a list is checked with, as one shape: @noble/hashes' (the page, the Worker, tests: the
 * default everywhere), or a runtime's own native one that a caller passes in (the verify script passes node:crypto's).
 * Every implementation gives the same bytes; only the speed differs.
 */
import { sha256 } from "@noble/hashes/sha2.js";

/** A running SHA-256: `update` with each part in order, then `digest` once (32 bytes). */
export interface RunningSha256 {
  update(data: Uint8Array): unknown;
  digest(): Uint8Array;
}

/** SHA-256 of one input (32 bytes), and `create` for a running one. */
export interface Sha256 {
  (data: Uint8Array): Uint8Array;
  create(): RunningSha256;
}

const fresh = sha256.create();
let hasher: ReturnType<typeof sha256.create> | undefined;

/**
 * @noble/hashes' SHA-256: plain JavaScript, the same in every runtime. A list's million small inputs are each hashed
 * by one hasher reset to a fresh one's state (the library's `_cloneInto` into an instance to reuse) rather than by a
 * new hasher with buffers of its own.
 */
export const nobleSha256: Sha256 = Object.assign(
  (data: Uint8Array): Uint8Array => {
    hasher = fresh._cloneInto(hasher);
    return hasher.update(data).digest();
  },
  { create: () => sha256.create() },
);
