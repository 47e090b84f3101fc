/**
 * A drand chain's clock: when a round is published and the first round after a moment (round r at genesis +
 * (r − 1) × period). Apart from beacon.ts's BLS check so that the console, which only names rounds, loads no curve code.
 */
import type { DrandChain } from "./chains";

/** When `round` is published: Unix time in ms (round r at genesis + (r − 1) × period). */
export function roundTimeMs(chain: DrandChain, round: number): number {
  return (chain.genesis + (round - 1) * chain.period) * 1000;
}

/**
 * The first round published at least `delayMs` after `nowMs`: a round whose value nobody can know when the draw commits
 * to it. The clock is a parameter so that a test can set it.
 * @param nowMs Unix time in ms
 * @param delayMs ms, at least 0
 */
export function firstRoundAfter(chain: DrandChain, nowMs: number, delayMs: number): number {
  const elapsedS = (nowMs + delayMs) / 1000 - chain.genesis;
  return Math.max(1, Math.ceil(elapsedS / chain.period) + 1);
}
