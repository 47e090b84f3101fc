/**
 * Signed notes in the C2SP format (c2sp.org/signed-note) with Ed25519 keys, as transparency logs publish their
 * checkpoints: the Worker signs the audit log's head with them, and `npm run waitlist -- audit verify --checkpoint`
 * and anyone else check them with the verifier key alone (docs/operators.md: The audit log).
 *
 * A note is its text (lines ending in "\n"), a blank line, then one line per signature: "— <key name> <base64 of
 * the key id's 4 bytes and the 64-byte signature>". A key id is the first 4 bytes of SHA-256(name, "\n", 0x01, public
 * key); a verifier key is written "<name>+<key id, 8 hex>+<base64 of 0x01 and the public key>".
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";

/** The signature type byte of Ed25519 keys in signed notes. */
const ED25519_TYPE = 0x01;

/** An Ed25519 key pair under its note key name. */
export interface NoteSigner {
  name: string;
  /** 32 bytes. */
  secretKey: Uint8Array;
}

/** The public half, as `parseVerifierKey` reads it. */
export interface NoteVerifier {
  name: string;
  /** 4 bytes: which key signed a line. */
  keyId: Uint8Array;
  /** 32 bytes. */
  publicKey: Uint8Array;
}

/** Base64 (RFC 4648, padded) of bytes. */
export function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The bytes of padded base64.
 * @throws Error when `text` is not base64
 */
export function fromBase64(text: string): Uint8Array {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) throw new Error("not base64");
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** A key name is non-empty and has no space or "+" (the verifier key's separator). */
function checkName(name: string): void {
  if (name === "" || /[\s+]/.test(name)) throw new Error(`a note key name has no space or "+": ${JSON.stringify(name)}`);
}

function keyIdOf(name: string, publicKey: Uint8Array): Uint8Array {
  return sha256(concatBytes(utf8ToBytes(`${name}\n`), Uint8Array.of(ED25519_TYPE), publicKey)).slice(0, 4);
}

/**
 * A signer whose 32-byte Ed25519 seed is the SHA-256 of `secret` (a random string of at least 32 characters), so a
 * secret of any length and alphabet gives one key.
 */
export function signerFromSecret(name: string, secret: string): NoteSigner {
  checkName(name);
  return { name, secretKey: sha256(utf8ToBytes(secret)) };
}

/** The verifier key of a signer, in the format `parseVerifierKey` reads. */
export function verifierKeyOf(signer: NoteSigner): string {
  const publicKey = ed25519.getPublicKey(signer.secretKey);
  return `${signer.name}+${bytesToHex(keyIdOf(signer.name, publicKey))}+${toBase64(concatBytes(Uint8Array.of(ED25519_TYPE), publicKey))}`;
}

/**
 * Read a verifier key.
 * @throws Error naming what is wrong (parts, type, length, or a key id that does not match the key)
 */
export function parseVerifierKey(text: string): NoteVerifier {
  // The key's base64 may hold "+" too: the name and the id end at the first two.
  const match = /^([^+]+)\+([0-9a-fA-F]{8})\+(.+)$/.exec(text.trim());
  if (!match) throw new Error('a verifier key is a name, an 8-digit hex key id and a key, joined by "+"');
  const [, name, keyIdHex, keyBase64] = match;
  checkName(name);
  const key = fromBase64(keyBase64);
  if (key.length !== 33 || key[0] !== ED25519_TYPE) throw new Error("the verifier key is not an Ed25519 key");
  const publicKey = key.slice(1);
  const keyId = keyIdOf(name, publicKey);
  if (bytesToHex(keyId) !== keyIdHex.toLowerCase()) throw new Error("the verifier key's id does not match its key");
  return { name, keyId, publicKey };
}

/**
 * Sign `text` (each line ending in "\n") as a note.
 * @throws Error when the text is empty or does not end in "\n"
 */
export function signNote(text: string, signer: NoteSigner): string {
  if (!text.endsWith("\n")) throw new Error("a note's text ends with a newline");
  const publicKey = ed25519.getPublicKey(signer.secretKey);
  const signature = ed25519.sign(utf8ToBytes(text), signer.secretKey);
  return `${text}\n— ${signer.name} ${toBase64(concatBytes(keyIdOf(signer.name, publicKey), signature))}\n`;
}

/**
 * The text of `note` when `verifier` signed it; null when the note is malformed or carries no valid signature of
 * that key (other keys' lines are ignored, as the format allows).
 */
export function openNote(note: string, verifier: NoteVerifier): string | null {
  const split = note.lastIndexOf("\n\n");
  if (split < 0 || !note.endsWith("\n")) return null;
  const text = note.slice(0, split + 1);
  for (const line of note.slice(split + 2, -1).split("\n")) {
    const match = /^— (\S+) (\S+)$/.exec(line);
    if (!match || match[1] !== verifier.name) continue;
    let signed: Uint8Array;
    try {
      signed = fromBase64(match[2]);
    } catch {
      continue;
    }
    if (signed.length !== 68 || bytesToHex(signed.slice(0, 4)) !== bytesToHex(verifier.keyId)) continue;
    if (ed25519.verify(signed.slice(4), utf8ToBytes(text), verifier.publicKey)) return text;
  }
  return null;
}

/** An Ed25519 signature (base64) of raw bytes, for a record that is not a note (an audit entry's hash). */
export function signBytes(bytes: Uint8Array, signer: NoteSigner): string {
  return toBase64(ed25519.sign(bytes, signer.secretKey));
}

/** Whether `signature` (base64) is the verifier's signature of `bytes`. */
export function verifyBytes(bytes: Uint8Array, signature: string, verifier: NoteVerifier): boolean {
  try {
    return ed25519.verify(fromBase64(signature), bytes, verifier.publicKey);
  } catch {
    return false;
  }
}
