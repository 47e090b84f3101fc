/**
 * A draw's rules, fixed in the content before entries close (content/site.yaml `draw`: id, cutoff, winners,
 * roundDelayHours): the round they name and the checks a commitment must pass against them, run by the Worker before
 * it commits and by the verifier against the rules the site publishes. docs/operators.md: "The giveaway draw".
 */
import type { DrandChain } from "./chains";
import { firstRoundAfter, roundTimeMs } from "./rounds";

/** The rules as the site publishes them (service-settings.json `draw`, from the content). */
export interface DrawRules {
  /** The draw's id (DRAW_ID_PATTERN). */
  id: string;
  /** When entries close, ISO 8601 UTC. */
  cutoff: string;
  /** How many winners are drawn (fewer when there are fewer entrants). */
  winners: number;
  /** Hours from the cut-off to the round that draws the winners. */
  roundDelayHours: number;
}

const HOUR_MS = 3_600_000;

/** The rules' cut-off as ISO 8601 UTC with milliseconds (the one spelling a draw file carries). */
export function cutoffOf(rules: Pick<DrawRules, "cutoff">): string {
  return new Date(Date.parse(rules.cutoff)).toISOString();
}

/** The round the rules name: the first one published at or after cut-off + roundDelayHours, and when. */
export function roundOfRules(chain: DrandChain, rules: DrawRules): { round: number; roundAt: string } {
  const round = firstRoundAfter(chain, Date.parse(rules.cutoff), rules.roundDelayHours * HOUR_MS);
  return { round, roundAt: new Date(roundTimeMs(chain, round)).toISOString() };
}

/** Why a commitment breaks the rules; each refused by the Worker and reported by the verifier. */
export const RULE_BREACH = {
  /** Another draw id than the rules name. */
  otherDraw: "draw_not_in_rules",
  /** Another cut-off than the rules name. */
  otherCutoff: "cutoff_not_in_rules",
  /** Another number of winners than the rules name. */
  otherWinners: "winners_not_in_rules",
  /** The cut-off has not passed: entries are still open. */
  entriesOpen: "entries_open",
  /** The rules' round is published already: its randomness is known, so the list could be chosen to suit it. */
  roundPublished: "round_published",
} as const;
export type RuleBreach = (typeof RULE_BREACH)[keyof typeof RULE_BREACH];

/** What a commitment claims, as the rules check it. */
export interface CommitmentClaim {
  draw: string;
  cutoff: string;
  winners: number;
  /** Unix time in ms when the commitment is (or was) made. */
  atMs: number;
}

/**
 * The rules a commitment breaks, first to last in the order above, each with a sentence for a terminal.
 * @returns [] when the commitment keeps every rule
 */
export function ruleBreaches(chain: DrandChain, rules: DrawRules, claim: CommitmentClaim): { code: RuleBreach; detail: string }[] {
  const breaches: { code: RuleBreach; detail: string }[] = [];
  if (claim.draw !== rules.id)
    breaches.push({ code: RULE_BREACH.otherDraw, detail: `The rules name draw ${rules.id}, not ${JSON.stringify(claim.draw)}.` });
  const cutoff = cutoffOf(rules);
  const claimed = Date.parse(claim.cutoff);
  if (Number.isNaN(claimed) || claimed !== Date.parse(cutoff))
    breaches.push({ code: RULE_BREACH.otherCutoff, detail: `The rules' cut-off is ${cutoff}, not ${JSON.stringify(claim.cutoff)}.` });
  if (claim.winners !== rules.winners)
    breaches.push({ code: RULE_BREACH.otherWinners, detail: `The rules name ${rules.winners} winners, not ${claim.winners}.` });
  if (claim.atMs < Date.parse(cutoff))
    breaches.push({ code: RULE_BREACH.entriesOpen, detail: `Entries are open until ${cutoff}: commit the draw after the cut-off.` });
  const { round, roundAt } = roundOfRules(chain, rules);
  if (claim.atMs >= Date.parse(roundAt))
    breaches.push({
      code: RULE_BREACH.roundPublished,
      detail: `The rules' drand round ${round} was published at ${roundAt}: a commitment after it could be chosen to suit it.`,
    });
  return breaches;
}
