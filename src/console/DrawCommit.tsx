/**
 * Close the giveaway draw: the form that commits its eligible entrants and a future drand round
 * (POST /api/console/draw/commit), checked first by the rule the Worker and the command line apply
 * (shared/giveaway/commit.ts), then the draw file downloaded for the operator to publish.
 */
import { useId, useState } from "react";
import styled from "styled-components";
import {
  checkCommitRequest,
  COMMIT_REFUSAL,
  CommitRefused,
  DEFAULT_DELAY_MINUTES,
  DRAW_FILE_NAME,
  drawText,
} from "../../shared/giveaway/commit";
import type { DrawFile } from "../../shared/giveaway/draw-file";
import { theme } from "../styles/theme";
import { ConsoleError, postDrawCommit } from "./api";
import type { ConsoleContent } from "./content";
import { fill, type ConsoleFormat } from "./format";
import { Button, Input, Muted, Notice, Section, SectionHeading } from "./parts";
import type { CommitRequest } from "../../shared/api/draw";

type Copy = ConsoleContent["console"];
type RefusalKey = keyof typeof COMMIT_REFUSAL;

const REFUSAL_KEY = new Map<string, RefusalKey>(Object.entries(COMMIT_REFUSAL).map(([key, code]) => [code, key as RefusalKey]));

/** `+hh:mm` / `-hh:mm` of an offset in minutes east of UTC. */
function offsetText(utcOffsetMinutes: number): string {
  const sign = utcOffsetMinutes < 0 ? "-" : "+";
  const minutes = Math.abs(utcOffsetMinutes);
  return `${sign}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** Save the committed draw file through the browser's download, as the repository keeps it. */
function download(file: DrawFile): void {
  const url = URL.createObjectURL(new Blob([drawText(file)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = DRAW_FILE_NAME;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

type Outcome = { kind: "idle" } | { kind: "busy" } | { kind: "done"; file: DrawFile } | { kind: "failed"; message: string };

/** The fields of the commitment as typed. */
type DrawFields = { draw: string; winners: string; cutoff: string; delay: string };

/** The draw's commitment form, its refusals and the committed draw, whose file the browser downloads. */
export function DrawCommit({
  copy,
  format,
  utcOffsetMinutes,
  timeZone,
  nowMs,
}: {
  copy: Copy;
  format: ConsoleFormat;
  /** The site's clock: the cut-off typed is read at this offset (minutes east of UTC). */
  utcOffsetMinutes: number;
  timeZone: string;
  nowMs: () => number;
}) {
  const words = copy.draw;
  const confirmId = useId();
  const [fields, setFields] = useState<DrawFields>({ draw: "launch", winners: "1", cutoff: "", delay: String(DEFAULT_DELAY_MINUTES) });
  const [confirmed, setConfirmed] = useState(false);
  const { outcome, commit } = useDrawCommit(copy, utcOffsetMinutes, nowMs);

  return (
    <Section aria-labelledby="draw-heading">
      <SectionHeading id="draw-heading">{words.heading}</SectionHeading>
      <Muted>{words.intro}</Muted>
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          void commit(fields);
        }}
      >
        <DrawFieldset copy={copy} format={format} timeZone={timeZone} fields={fields} setFields={setFields} />
        <Check>
          <input id={confirmId} type="checkbox" checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} />
          <label htmlFor={confirmId}>{words.confirm}</label>
        </Check>
        <div>
          <Button type="submit" disabled={!confirmed || outcome.kind === "busy"}>
            {outcome.kind === "busy" ? words.committing : words.submit}
          </Button>
        </div>
      </Form>
      {outcome.kind === "failed" ? <Notice role="alert">{outcome.message}</Notice> : null}
      <p role="status">
        {outcome.kind === "done"
          ? fill(words.committed, {
              draw: outcome.file.draw,
              entrants: format.count(outcome.file.entrants.length),
              round: format.count(outcome.file.round),
              roundAt: format.dateTime(outcome.file.roundAt),
            })
          : ""}
      </p>
    </Section>
  );
}

/**
 * The commitment's sending: checked here first with the service's own rules, then posted; the file is downloaded.
 * @returns the outcome so far, and `commit` for the fields as typed
 */
function useDrawCommit(copy: Copy, utcOffsetMinutes: number, nowMs: () => number) {
  const words = copy.draw;
  const [outcome, setOutcome] = useState<Outcome>({ kind: "idle" });

  const refusal = (code: string | null): string | null => {
    const key = code === null ? undefined : REFUSAL_KEY.get(code);
    return key ? words.refusals[key] : null;
  };

  const commit = async (fields: DrawFields) => {
    const request: CommitRequest = {
      draw: fields.draw.trim(),
      winners: Number(fields.winners),
      cutoff: fields.cutoff ? `${fields.cutoff}:00${offsetText(utcOffsetMinutes)}` : "",
      delayMinutes: Number(fields.delay),
    };
    try {
      // The same checks as the service's, so a mistake is named before anything is sent.
      checkCommitRequest(request, nowMs());
    } catch (error) {
      if (!(error instanceof CommitRefused)) throw error;
      setOutcome({ kind: "failed", message: words.refusals[REFUSAL_KEY.get(error.code) ?? "cutoffInvalid"] });
      return;
    }
    setOutcome({ kind: "busy" });
    try {
      const file = await postDrawCommit(request);
      download(file);
      setOutcome({ kind: "done", file });
    } catch (error) {
      const failure = error instanceof ConsoleError ? error : new ConsoleError("unavailable", null);
      setOutcome({ kind: "failed", message: refusal(failure.code) ?? copy.errors[failure.key] });
    }
  };

  return { outcome, commit };
}

/** The four fields of a commitment: the draw's name, the winners, the cut-off (site time) and the delay. */
function DrawFieldset({
  copy,
  format,
  timeZone,
  fields,
  setFields,
}: {
  copy: Copy;
  format: ConsoleFormat;
  timeZone: string;
  fields: DrawFields;
  setFields: React.Dispatch<React.SetStateAction<DrawFields>>;
}) {
  const words = copy.draw;
  const ids = { draw: useId(), drawHint: useId(), winners: useId(), cutoff: useId(), cutoffHint: useId(), delay: useId() };
  const set = (name: keyof DrawFields) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));
  return (
    <>
      <Field>
        <label htmlFor={ids.draw}>{words.drawLabel}</label>
        <Input id={ids.draw} value={fields.draw} onChange={set("draw")} aria-describedby={ids.drawHint} autoComplete="off" />
        <Muted id={ids.drawHint}>{words.drawHint}</Muted>
      </Field>
      <Field>
        <label htmlFor={ids.winners}>{words.winnersLabel}</label>
        <Input id={ids.winners} type="number" min={1} step={1} inputMode="numeric" value={fields.winners} onChange={set("winners")} />
      </Field>
      <Field>
        <label htmlFor={ids.cutoff}>{words.cutoffLabel}</label>
        <Input id={ids.cutoff} type="datetime-local" value={fields.cutoff} onChange={set("cutoff")} aria-describedby={ids.cutoffHint} />
        <Muted id={ids.cutoffHint}>{fill(words.cutoffHint, { timeZone: format.zone(timeZone) })}</Muted>
      </Field>
      <Field>
        <label htmlFor={ids.delay}>{words.delayLabel}</label>
        <Input id={ids.delay} type="number" min={1} step={1} inputMode="numeric" value={fields.delay} onChange={set("delay")} />
      </Field>
    </>
  );
}

const Form = styled.form`
  display: grid;
  gap: ${theme.space.lg};
  max-width: 32rem;
`;

const Field = styled.div`
  display: grid;
  gap: ${theme.space.xs};
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
