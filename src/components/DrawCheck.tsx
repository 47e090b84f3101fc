import { useState } from "react";
import { graphql } from "gatsby";
import styled from "styled-components";
import type { CommitmentMismatchKind, CommitmentReport, ListSource } from "../../shared/giveaway/commitment";
import { theme } from "../styles/theme";

/** What the check reads from the page's query (fragment DrawCheckContent below). */
export type DrawCheckContent = Queries.DrawCheckContentFragment;

type CheckState = { kind: "idle" } | { kind: "checking"; bytes: number } | { kind: "done"; report: CommitmentReport } | { kind: "failed" };

/** The published list as the checker reads it: streamed once, then blocks read back by Range requests. */
function listSource(listUrl: string): ListSource {
  return {
    async *chunks() {
      const response = await fetch(listUrl);
      if (!response.ok || !response.body) throw new Error(`${listUrl} answered ${response.status}`);
      const reader = response.body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) yield chunk.value;
    },
    async range(offset, length) {
      const response = await fetch(listUrl, { headers: { range: `bytes=${offset}-${offset + length - 1}` } });
      if (response.status === 416) return new Uint8Array(0);
      if (response.status !== 206) throw new Error(`${listUrl} answered ${response.status} to a Range request`);
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}

/**
 * The Verify button: checks the published draw in the visitor's own browser against the rules this site publishes,
 * streaming the list once with a progress bar (its SHA-256, Merkle root, count and entries), then the round's BLS
 * signature and the winners, and says "verified" or each thing that does not match, in the content's words. The
 * checking code and @noble/curves load only when the button is pressed (a chunk of its own).
 * @param commitment the commitment as published (parsed JSON)
 */
export function DrawCheck({ content, commitment, listBytes }: { content: DrawCheckContent; commitment: unknown; listBytes: number }) {
  const { draw } = content;
  const [state, setState] = useState<CheckState>({ kind: "idle" });

  async function check() {
    setState({ kind: "checking", bytes: 0 });
    try {
      const { verifyCommitment } = await import("../../shared/giveaway/commitment");
      const listUrl = (commitment as { listUrl?: unknown }).listUrl;
      const rules = { id: draw.id, cutoff: draw.cutoff, winners: draw.winners, roundDelayHours: draw.roundDelayHours };
      const report = await verifyCommitment(commitment, { chain: draw.chain, rules }, listSource(String(listUrl)), {
        onProgress: (bytes) => setState({ kind: "checking", bytes }),
      });
      setState({ kind: "done", report });
    } catch {
      setState({ kind: "failed" });
    }
  }

  const kinds = state.kind === "done" ? [...new Set(state.report.mismatches.map((m) => m.kind))] : [];
  return (
    <Check>
      <Button type="button" onClick={() => void check()} disabled={state.kind === "checking"}>
        {draw.verifyButton}
      </Button>
      {state.kind === "checking" ? <progress aria-label={draw.verifying} max={Math.max(listBytes, 1)} value={state.bytes} /> : null}
      <Result role="status" data-result={state.kind === "done" ? (state.report.verified ? "verified" : "mismatch") : state.kind}>
        {state.kind === "checking" && draw.verifying}
        {state.kind === "failed" && draw.checkFailed}
        {state.kind === "done" && state.report.verified && (state.report.drawn ? draw.verified : draw.verifiedCommitment)}
        {state.kind === "done" && !state.report.verified && (
          <>
            {draw.notVerified}
            <ul>
              {kinds.map((kind: CommitmentMismatchKind) => (
                <li key={kind}>{draw.mismatches[kind]}</li>
              ))}
            </ul>
          </>
        )}
      </Result>
    </Check>
  );
}

const Check = styled.div`
  display: grid;
  justify-items: center;
  gap: ${theme.space.md};
  width: 100%;
  progress {
    width: 100%;
  }
`;

const Button = styled.button`
  min-height: 44px;
  padding: ${theme.space.md} ${theme.space.xxxl};
  border: 0;
  border-radius: ${theme.radii.pill};
  background: ${theme.colors.accent};
  color: ${theme.colors.onAccent};
  font: inherit;
  font-weight: 700;
  cursor: pointer;
  &:disabled {
    cursor: progress;
  }
`;

const Result = styled.div`
  max-width: 52ch;
  ul {
    margin: ${theme.space.sm} 0 0;
    padding-left: ${theme.space.xxl};
    text-align: left;
  }
`;

export const query = graphql`
  fragment DrawCheckContent on SiteContent {
    draw {
      id
      cutoff
      winners
      roundDelayHours
      chain {
        hash
        publicKey
        period
        genesis
      }
      verifyButton
      verifying
      verified
      verifiedCommitment
      notVerified
      checkFailed
      mismatches {
        format
        rules
        chain
        round
        list
        listBytes
        n
        totalEntries
        listHash
        merkleRoot
        beaconRound
        randomness
        signature
        winners
      }
    }
  }
`;
