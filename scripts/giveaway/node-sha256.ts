/**
 * node:crypto's SHA-256 in the shape the list's checks take (shared/giveaway/sha256.ts), for the verify script's pass
 * over a list: native code, where @noble/hashes reaches a script only through tsx's transform of its ES modules, which
 * makes its every inner call a property read. The same bytes either way (__tests__/unit/giveaway-digest.test.ts).
 */
import { createHash, hash } from "node:crypto";
import type { Sha256 } from "../../shared/giveaway/sha256";

export const nodeSha256: Sha256 = Object.assign((data: Uint8Array) => hash("sha256", data, "buffer"), {
  create: () => createHash("sha256"),
});
