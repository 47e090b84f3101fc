/**
 * Close the giveaway draw: the rules the site publishes (GET /api/console/draw), the confirmation, the commitment
 * (POST /api/console/draw/commit, which the Worker checks against those rules and its own clock), then the job's
 * progress until the list and the commitment are published; then, with a second confirmation, the run (POST
 * /api/console/draw/run, refused by the Worker until the rules' drand round is out) and its winners.
 */
import { useEffect, useId, useState, type ReactNode } from "react";
import styled from "styled-components";
import type { DrawState } from "../../shared/api/draw";
import { COMMIT_REFUSAL, DRAW_STATE_ENDPOINT, RUN_REFUSAL } from "../../shared/giveaway/commit";
import { theme } from "../styles/theme";
import { ConsoleError, postDrawCommit, postDrawRun } from "./api";
import type { ConsoleContent } from "./content";
import { fill, type ConsoleFormat } from "./format";
import { Button, Muted, Notice, Section, SectionHeading } from "./parts";
import { useAnswer } from "./useAnswer";

type Copy = ConsoleContent["console"];
type RefusalKey = keyof typeof COMMIT_REFUSAL;
type RunRefusalKey = keyof typeof RUN_REFUSAL;

const REFUSAL_KEY = new Map<string, RefusalKey>(Object.entries(COMMIT_REFUSAL).map(([key, code]) => [code, key as RefusalKey]));
const RUN_REFUSAL_KEY = new Map<string, RunRefusalKey>(Object.entries(RUN_REFUSAL).map(([key, code]) => [code, key as RunRefusalKey]));

/** The content's words for a failed request: its refusal's own message when it has one, else the console's error. */
function failureText<Key extends string>(
  error: unknown,
  keys: Map<string, Key>,
  refusals: Record<Key, string>,
  errors: Copy["errors"],
): string {
  const refused = error instanceof ConsoleError ? error : new ConsoleError("unavailable", null);
  const key = refused.code === null ? undefined : keys.get(refused.code);
  return key ? refusals[key] : errors[refused.key];
}

/** How often the screen asks for the job's progress while it runs (ms). */
export const DRAW_PROGRESS_INTERVAL_MS = 2_000;

export function DrawCommit({
  copy,
  format,
  canAct,
}: {
  copy: Copy;
  format: ConsoleFormat;
  /** An operator's session: a viewer sees the rules and the job, with no commitment to make. */
  canAct: boolean;
}) {
  const words = copy.draw;
  const { state, reload } = useAnswer<DrawState>(DRAW_STATE_ENDPOINT);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const job = state.kind === "ready" ? state.answer.job : null;
  const building = job !== null && (job.state === "listing" || job.state === "writing" || job.state === "publishing");
  useEffect(() => {
    if (!building) return;
    const timer = setTimeout(reload, DRAW_PROGRESS_INTERVAL_MS);
    return () => clearTimeout(timer);
  }, [building, job, reload]);

  if (state.kind === "loading") return <Section aria-busy="true" />;
  if (state.kind === "failed") return <Notice role="alert">{copy.errors[state.error.key]}</Notice>;
  const { rules } = state.answer;

  const commit = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await postDrawCommit({ draw: rules.draw, winners: rules.winners, cutoff: rules.cutoff });
      reload();
    } catch (error) {
      setFailure(failureText(error, REFUSAL_KEY, words.refusals, copy.errors));
    } finally {
      setBusy(false);
    }
  };

  const run = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await postDrawRun();
      reload();
    } catch (error) {
      setFailure(failureText(error, RUN_REFUSAL_KEY, words.runRefusals, copy.errors));
    } finally {
      setBusy(false);
    }
  };
  const result = job?.commitment?.result ?? null;

  return (
    <Section aria-labelledby="draw-heading">
      <SectionHeading id="draw-heading">{words.heading}</SectionHeading>
      <Muted>{words.intro}</Muted>
      <Rules>
        <dt>{words.drawLabel}</dt>
        <dd>{rules.draw}</dd>
        <dt>{words.cutoffLabel}</dt>
        <dd>{format.dateTime(rules.cutoff)}</dd>
        <dt>{words.winnersLabel}</dt>
        <dd>{format.count(rules.winners)}</dd>
        <dt>{words.roundLabel}</dt>
        <dd>
          {format.count(rules.round)} · {format.dateTime(rules.roundAt)}
        </dd>
      </Rules>
      {job === null && canAct ? (
        <ConfirmedForm confirm={words.confirm} submit={busy ? words.committing : words.submit} busy={busy} onConfirmed={commit} />
      ) : null}
      {job?.state === "published" && job.commitment && canAct ? (
        <ConfirmedForm confirm={words.runConfirm} submit={busy ? words.running : words.runSubmit} busy={busy} onConfirmed={run}>
          <Muted>
            {fill(words.runIntro, { round: format.count(job.commitment.round), roundAt: format.dateTime(job.commitment.roundAt) })}
          </Muted>
        </ConfirmedForm>
      ) : null}
      {failure ? <Notice role="alert">{failure}</Notice> : null}
      {job?.state === "failed" ? <Notice role="alert">{fill(words.failed, { failure: job.failure ?? "" })}</Notice> : null}
      <p role="status">
        {building
          ? fill(words.progress, { eligible: format.count(job.eligible), written: format.count(job.written) })
          : job?.commitment
            ? fill(words.committed, {
                draw: job.commitment.draw,
                entrants: format.count(job.commitment.n),
                round: format.count(job.commitment.round),
                roundAt: format.dateTime(job.commitment.roundAt),
                listUrl: job.commitment.listUrl,
              })
            : ""}
      </p>
      {result ? (
        <p role="status">
          {fill(words.drawn, {
            round: format.count(result.beacon.round),
            drawnAt: format.dateTime(result.drawnAt),
            winners: result.winners.map((winner) => winner.pseudonym).join(", "),
          })}
        </p>
      ) : null}
    </Section>
  );
}

/** An action the operator confirms first: what it does (children), the tick, and the button the tick unlocks. */
function ConfirmedForm({
  confirm,
  submit,
  busy,
  onConfirmed,
  children,
}: {
  confirm: string;
  submit: string;
  busy: boolean;
  onConfirmed: () => Promise<void>;
  children?: ReactNode;
}) {
  const confirmId = useId();
  const [confirmed, setConfirmed] = useState(false);
  return (
    <Form
      onSubmit={(event) => {
        event.preventDefault();
        void onConfirmed();
      }}
    >
      {children}
      <Check>
        <input id={confirmId} type="checkbox" checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} />
        <label htmlFor={confirmId}>{confirm}</label>
      </Check>
      <div>
        <Button type="submit" disabled={!confirmed || busy}>
          {submit}
        </Button>
      </div>
    </Form>
  );
}

const Form = styled.form`
  display: grid;
  gap: ${theme.space.lg};
  max-width: 32rem;
`;

const Rules = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: ${theme.space.xs} ${theme.space.lg};
  margin: 0;
  dd {
    margin: 0;
  }
`;

const Check = styled.div`
  display: flex;
  align-items: flex-start;
  gap: ${theme.space.sm};
  input {
    width: 24px;
    height: 24px;
    margin: 0;
    flex: none;
  }
`;
