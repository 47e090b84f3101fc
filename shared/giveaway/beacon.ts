/**
 * drand beacons for the giveaway draw: which round is published when, fetching a round from a relay's HTTP API, and
 * checking its BLS signature against the chain's public key (quicknet's scheme, `bls-unchained-g1-rfc9380`:
 * signature on G1, public key on G2, message = sha256(uint64_be(round))). docs/operators.md: "The giveaway draw".
 */
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { fromHex, sha256, toHex, uint64BigEndian } from "./bytes";
import type { DrandChain } from "./chains";

// The round clock lives apart from the signature check, so a page that only names rounds loads no BLS code.
export { firstRoundAfter, roundTimeMs } from "./rounds";

/** One round as drand's HTTP API serves it (`GET <relay>/<chain hash>/public/<round>`). */
export interface Beacon {
  round: number;
  /** sha256(signature), 64 hex characters. */
  randomness: string;
  /** The BLS signature on G1, 96 hex characters. */
  signature: string;
}

/** The hash-to-curve tag of quicknet's signatures (RFC 9380, G1). */
const QUICKNET_DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";

/** What is wrong with a beacon: `round` (not the one asked for), `randomness` (not sha256(signature)), `signature` (not BLS-valid). */
export type BeaconProblem = "round" | "randomness" | "signature";

/**
 * Check a round against the chain's public key.
 * @param expectedRound the round the draw committed to
 * @returns the problems found, none when the beacon is genuine
 */
export async function beaconProblems(chain: DrandChain, beacon: Beacon, expectedRound: number): Promise<BeaconProblem[]> {
  const problems: BeaconProblem[] = [];
  if (beacon.round !== expectedRound) problems.push("round");
  let signature: Uint8Array;
  try {
    signature = fromHex(beacon.signature);
  } catch {
    return [...problems, "signature", "randomness"];
  }
  if (toHex(await sha256(signature)) !== beacon.randomness.toLowerCase()) problems.push("randomness");
  if (!(await signatureValid(chain, beacon.round, signature))) problems.push("signature");
  return problems;
}

async function signatureValid(chain: DrandChain, round: number, signature: Uint8Array): Promise<boolean> {
  if (!Number.isSafeInteger(round) || round < 1) return false;
  const scheme = bls12_381.shortSignatures;
  try {
    const message = scheme.hash(await sha256(uint64BigEndian(round)), QUICKNET_DST);
    return scheme.verify(signature, message, fromHex(chain.publicKey));
  } catch {
    // A signature or key that is not a point of the curve (another chain's, a changed byte) is refused, not thrown.
    return false;
  }
}

/**
 * Fetch one round from a drand relay's HTTP API.
 * @param relayUrl the relay's base address, e.g. https://api.drand.sh
 * @returns the round as served: not yet checked (beaconProblems does that)
 * @throws Error when the relay does not answer 200 with `{ round, randomness, signature }` (a round not yet published
 *   is refused by relays with 425 or 404)
 */
export async function fetchBeacon(relayUrl: string, chain: DrandChain, round: number): Promise<Beacon> {
  const url = `${relayUrl.replace(/\/+$/, "")}/${chain.hash}/public/${round}`;
  const response = await fetch(url, { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const body = (await response.json()) as Partial<Beacon>;
  if (typeof body.round !== "number" || typeof body.randomness !== "string" || typeof body.signature !== "string") {
    throw new Error(`${url} did not answer a drand round ({ round, randomness, signature })`);
  }
  return { round: body.round, randomness: body.randomness, signature: body.signature };
}
