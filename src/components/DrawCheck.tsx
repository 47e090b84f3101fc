import { useEffect, useRef, useState } from "react";
import { graphql } from "gatsby";
import styled from "styled-components";
import type { CommitmentMismatchKind, CommitmentReport } from "../../shared/giveaway/commitment";
import { theme } from "../styles/theme";
import { outlineButton } from "../ui/buttonLooks";
import type { DrawCheckMessage, DrawCheckRequest } from "./DrawCheck.worker";

/** What the check reads from the page's query (fragment DrawCheckContent below). */
export type DrawCheckContent = Queries.DrawCheckContentFragment;

type CheckState =
  | { kind: "idle" }
  | { kind: "checking"; bytes: number }
  | { kind: "done"; report: CommitmentReport }
  | { kind: "stopped" }
  | { kind: "failed" };

/**
 * The Verify button: checks the published draw in the visitor's own browser against the rules this site publishes,
 * streaming the list once (its SHA-256, Merkle root, count and entries), then the round's BLS signature and the
 * winners, and says "verified" or each thing that does not match, in the content's words. The check runs in a Web
 * Worker (DrawCheck.worker.ts, a chunk of its own fetched on the click, with @noble/curves), so the page stays
 * responsive while it runs; a labelled progress bar shows the list read so far, and Stop ends the worker at once.
 * @param commitment the commitment as published (parsed JSON)
 */
export function DrawCheck({ content, commitment, listBytes }: { content: DrawCheckContent; commitment: unknown; listBytes: number }) {
  const { draw } = content;
  const [state, setState] = useState<CheckState>({ kind: "idle" });
  const worker = useRef<Worker | null>(null);
  const verifyButton = useRef<HTMLButtonElement>(null);
  const stopButton = useRef<HTMLButtonElement>(null);
  const wasChecking = useRef(false);
  const checking = state.kind === "checking";

  // Verify is disabled while the check runs, so focus moves to Stop; when Stop goes, it comes back to Verify.
  useEffect(() => {
    if (checking) stopButton.current?.focus();
    else if (wasChecking.current && document.activeElement === document.body) verifyButton.current?.focus();
    wasChecking.current = checking;
  }, [checking]);
  useEffect(() => () => worker.current?.terminate(), []);

  /** End the running check's worker, if any, and show `next`. */
  function end(next: CheckState) {
    worker.current?.terminate();
    worker.current = null;
    setState(next);
  }

  function check() {
    let started: Worker;
    try {
      started = new Worker(new URL("./DrawCheck.worker.ts", import.meta.url));
    } catch {
      setState({ kind: "failed" });
      return;
    }
    worker.current = started;
    // A message already on its way when Stop ended this worker finds another check running, or none: it is dropped.
    started.onmessage = ({ data }: MessageEvent<DrawCheckMessage>) => {
      if (worker.current !== started) return;
      if (data.kind === "progress") setState({ kind: "checking", bytes: data.bytes });
      else end(data.kind === "done" ? { kind: "done", report: data.report } : { kind: "failed" });
    };
    // The worker's script did not load (offline, a deploy in between): the check cannot run.
    started.onerror = () => {
      if (worker.current === started) end({ kind: "failed" });
    };
    const listUrl = new URL(String((commitment as { listUrl?: unknown }).listUrl), window.location.href).href;
    const rules = { id: draw.id, cutoff: draw.cutoff, winners: draw.winners, roundDelayHours: draw.roundDelayHours };
    const request: DrawCheckRequest = { commitment, trusted: { chain: { ...draw.chain }, rules }, listUrl };
    started.postMessage(request);
    setState({ kind: "checking", bytes: 0 });
  }

  const kinds = state.kind === "done" ? [...new Set(state.report.mismatches.map((m) => m.kind))] : [];
  return (
    <Check>
      <Button ref={verifyButton} type="button" onClick={check} disabled={checking}>
        {draw.verifyButton}
      </Button>
      {state.kind === "checking" ? (
        <Progress>
          <label>
            {draw.progressLabel}
            <progress max={Math.max(listBytes, 1)} value={Math.min(state.bytes, listBytes)} />
          </label>
          <StopButton ref={stopButton} type="button" onClick={() => end({ kind: "stopped" })}>
            {draw.stopButton}
          </StopButton>
        </Progress>
      ) : null}
      <Result role="status" data-result={state.kind === "done" ? (state.report.verified ? "verified" : "mismatch") : state.kind}>
        {state.kind === "checking" && draw.verifying}
        {state.kind === "stopped" && draw.stopped}
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
`;

const Progress = styled.div`
  display: flex;
  align-items: end;
  gap: ${theme.space.md};
  width: 100%;
  label {
    display: grid;
    flex: 1;
    gap: ${theme.space.xs};
  }
  progress {
    width: 100%;
  }
`;

const StopButton = styled.button`
  ${outlineButton}
  padding: ${theme.space.sm} ${theme.space.lg};
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
      progressLabel
      stopButton
      stopped
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
