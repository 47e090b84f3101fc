/**
 * What a draw is bound to once committed: the drand chain, the relay and the rules it was committed with, kept in its
 * `draws` row (migrations/0020_draw_binding.sql). The commitment job publishes these and the run checks the round
 * against them, never against today's content, which a deploy can change; the run refuses while the two differ.
 */
import type { DrandChain } from "../../../shared/giveaway/chains";
import { cutoffOf, type DrawRules } from "../../../shared/giveaway/rules";
import type { ServiceSettings } from "../../../shared/service-settings";

/** A draw's chain, relay and rules. */
export interface DrawBinding {
  chain: DrandChain;
  /** The relay's base address, without a trailing slash. */
  relayUrl: string;
  /** The cut-off as ISO 8601 UTC with milliseconds (cutoffOf). */
  rules: DrawRules;
}

/** The binding columns of a `draws` row, as the commitment request writes them. */
export interface BindingColumns {
  chain_hash: string | null;
  chain_public_key: string | null;
  chain_period: number | null;
  chain_genesis: number | null;
  relay_url: string | null;
  round_delay_hours: number | null;
}

/** A relay's address as the run fetches it (fetchBeacon drops trailing slashes too). */
function relayOf(url: string): string {
  return url.replace(/\/+$/, "");
}

/** The chain, relay and rules the content names now (service-settings.json `draw`). */
export function contentBinding(settings: ServiceSettings): DrawBinding {
  const { id, cutoff, winners, roundDelayHours, chain, relayUrl } = settings.draw;
  return {
    chain: { hash: chain.hash, publicKey: chain.publicKey, period: chain.period, genesis: chain.genesis },
    relayUrl: relayOf(relayUrl),
    rules: { id, cutoff: cutoffOf({ cutoff }), winners, roundDelayHours },
  };
}

/** The columns that keep `binding` in a draw's row. */
export function bindingColumns(binding: DrawBinding): BindingColumns {
  const { chain, relayUrl, rules } = binding;
  return {
    chain_hash: chain.hash,
    chain_public_key: chain.publicKey,
    chain_period: chain.period,
    chain_genesis: chain.genesis,
    relay_url: relayUrl,
    round_delay_hours: rules.roundDelayHours,
  };
}

/**
 * The binding a draw's row keeps (a `draws` row: its binding columns, id, cut-off and winners).
 * @returns null for a draw committed before migration 0020, whose row has none
 */
export function bindingOf(row: BindingColumns & { id: string; cutoff: string; winners: number }): DrawBinding | null {
  const { chain_hash, chain_public_key, chain_period, chain_genesis, relay_url, round_delay_hours } = row;
  if (chain_hash === null || chain_public_key === null || chain_period === null || chain_genesis === null) return null;
  if (relay_url === null || round_delay_hours === null) return null;
  return {
    chain: { hash: chain_hash, publicKey: chain_public_key, period: chain_period, genesis: chain_genesis },
    relayUrl: relay_url,
    rules: { id: row.id, cutoff: row.cutoff, winners: row.winners, roundDelayHours: round_delay_hours },
  };
}

/**
 * Where the content differs from a draw's binding, as the content's paths (`draw.chain.publicKey`, `draw.relayUrl`,
 * `draw.cutoff`…), in that order.
 * @returns [] when the content names the chain, relay and rules the draw was committed with
 */
export function bindingChanges(bound: DrawBinding, settings: ServiceSettings): string[] {
  const content = contentBinding(settings);
  const changes: string[] = [];
  for (const key of ["hash", "publicKey", "period", "genesis"] as const)
    if (bound.chain[key] !== content.chain[key]) changes.push(`draw.chain.${key}`);
  if (relayOf(bound.relayUrl) !== content.relayUrl) changes.push("draw.relayUrl");
  if (bound.rules.id !== content.rules.id) changes.push("draw.id");
  if (Date.parse(bound.rules.cutoff) !== Date.parse(content.rules.cutoff)) changes.push("draw.cutoff");
  if (bound.rules.winners !== content.rules.winners) changes.push("draw.winners");
  if (bound.rules.roundDelayHours !== content.rules.roundDelayHours) changes.push("draw.roundDelayHours");
  return changes;
}
