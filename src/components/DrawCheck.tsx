import { useState } from "react";
import { graphql } from "gatsby";
import styled from "styled-components";
import type { DrawReport, MismatchKind } from "../../shared/giveaway/verify";
import { theme } from "../styles/theme";

/** What the check reads from the page's query (fragment DrawCheckContent below). */
export type DrawCheckContent = Queries.DrawCheckContentFragment;

type CheckState = { kind: "idle" } | { kind: "checking" } | { kind: "done"; report: DrawReport } | { kind: "failed" };

/**
 * The Verify button: checks the published draw in the visitor's own browser (the list against its SHA-256, the
 * round's time and BLS signature against the site's drand chain, the winners recomputed) and says "verified" or each
 * thing that does not match, in the content's words. The checking code and @noble/curves load only when the button is
 * pressed (a chunk of its own), so no other page and not even this page's first load carries them.
 * @param drawFile the draw file's text, exactly as published
 */
export function DrawCheck({ content, drawFile }: { content: DrawCheckContent; drawFile: string }) {
  const { draw } = content;
  const [state, setState] = useState<CheckState>({ kind: "idle" });

  async function check() {
    setState({ kind: "checking" });
    try {
      const { verifyDraw } = await import("../../shared/giveaway/verify");
      setState({ kind: "done", report: await verifyDraw(JSON.parse(drawFile), draw.chain) });
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
      <Result role="status" data-result={state.kind === "done" ? (state.report.verified ? "verified" : "mismatch") : state.kind}>
        {state.kind === "checking" && draw.verifying}
        {state.kind === "failed" && draw.checkFailed}
        {state.kind === "done" && state.report.verified && (state.report.drawn ? draw.verified : draw.verifiedCommitment)}
        {state.kind === "done" && !state.report.verified && (
          <>
            {draw.notVerified}
            <ul>
              {kinds.map((kind: MismatchKind) => (
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
        chain
        round
        listHash
        beaconRound
        randomness
        signature
        winners
      }
    }
  }
`;
