/**
 * drand chains: the shape a draw names one by, and quicknet's values. No imports, so the round clock (rounds.ts) and the
 * BLS check (beacon.ts) both read the type from here.
 */

/** A drand chain as a draw names it (content: `draw.chain`); the draw trusts this key and nothing the relay says. */
export interface DrandChain {
  /** The chain hash, 64 hex characters: what a relay's address names. */
  hash: string;
  /** The group's BLS public key on G2, 192 hex characters. */
  publicKey: string;
  /** Seconds between rounds. */
  period: number;
  /** When round 1 was published, Unix time in seconds. */
  genesis: number;
}

/** drand's quicknet chain, as drand publishes it: the content's example, and the chain the tests' recorded rounds are from. */
export const QUICKNET: DrandChain = {
  hash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
  publicKey:
    "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
  period: 3,
  genesis: 1692803367,
};

/** The chains drand publishes that a draw may name: a verifier given no site's settings trusts only these keys. */
export const DRAND_CHAINS: readonly DrandChain[] = [QUICKNET];
