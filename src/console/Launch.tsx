/**
 * The Launch screen (docs/operators.md: Launch): people by launch state now, inviting the next N after its preview
 * (the preview's idempotency key goes with the press, so a double press or two operators make one batch), the latest
 * batches with their progress and pause or resume, the schedule, and last the people by day: the actions come before
 * the history, which grows a row a day.
 */
import { useId, useMemo, useState } from "react";
import { LAUNCH_ENDPOINT, LAUNCH_PREVIEW_ENDPOINT, PERSON_LAUNCH_STATES } from "../../shared/launch";
import { ActionDialog } from "./ActionDialog";
import { ConsoleError, getConsole, postBatch, withQuery } from "./api";
import type { ConsoleContent } from "./content";
import { DayChart, type DayTable } from "./DayChart";
import { fill } from "./format";
import { LaunchBatches } from "./LaunchBatches";
import { LaunchSchedule } from "./LaunchSchedule";
import {
  Button,
  ButtonRow,
  Failure,
  FiguresTable,
  Input,
  Loading,
  Section,
  SectionHeading,
  type ScreenProps,
  SubHeading,
  Summary,
} from "./parts";
import { useAnswer } from "./useAnswer";
import type { BatchAnswer, LaunchAnswer, LaunchDay, LaunchPreview } from "../../shared/api/launch";

type Copy = ConsoleContent["console"];

/** The funnel by day as a DayTable: a series per launch state, in PERSON_LAUNCH_STATES' order. */
export function launchDaysTable(days: readonly LaunchDay[], series: Copy["launch"]["days"]["series"]): DayTable {
  return {
    series: PERSON_LAUNCH_STATES.map((state) => ({ key: state, name: series[state] })),
    rows: days.map((day) => ({ date: day.date, counts: PERSON_LAUNCH_STATES.map((state) => day[state]) })),
  };
}

/** The Launch screen; a viewer sees the funnel and the batches, with nobody to invite. */
export function Launch({ copy, format, announce, canAct }: ScreenProps) {
  const words = copy.launch;
  const { state, reload } = useAnswer<LaunchAnswer>(LAUNCH_ENDPOINT);
  const countId = useId();
  const [count, setCount] = useState("100");
  const [preview, setPreview] = useState<LaunchPreview | null>(null);
  const [failure, setFailure] = useState<ConsoleError | null>(null);
  const answer = state.kind === "ready" ? state.answer : null;
  const days = useMemo(() => (answer ? launchDaysTable(answer.days, words.days.series) : null), [answer, words.days.series]);
  const changed = (announcement: string) => {
    announce(announcement);
    reload();
  };

  const showPreview = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    try {
      setPreview(await getConsole<LaunchPreview>(withQuery(LAUNCH_PREVIEW_ENDPOINT, { count: count.trim() })));
    } catch (error) {
      setPreview(null);
      setFailure(error instanceof ConsoleError ? error : new ConsoleError("unavailable", null));
    }
  };

  return (
    <Section aria-labelledby="launch-heading">
      <SectionHeading id="launch-heading">{words.heading}</SectionHeading>
      {state.kind === "loading" ? (
        <Loading copy={copy} />
      ) : state.kind === "failed" ? (
        <Failure copy={copy} error={state.error} onRetry={reload} />
      ) : (
        <FiguresTable
          caption={words.funnelCaption}
          nameColumn={words.stateColumn}
          columns={[words.peopleColumn]}
          rows={PERSON_LAUNCH_STATES.map((name) => ({
            key: name,
            name: words.states[name],
            figures: [format.count(state.answer.funnel[name])],
          }))}
        />
      )}
      {canAct ? (
        <>
          <SubHeading>{words.inviteHeading}</SubHeading>
          <form onSubmit={(event) => void showPreview(event)} noValidate>
            <ButtonRow>
              <label htmlFor={countId}>{words.countLabel}</label>
              <Input
                id={countId}
                type="number"
                min={1}
                inputMode="numeric"
                value={count}
                onChange={(event) => setCount(event.target.value)}
              />
              <Button type="submit">{words.previewButton}</Button>
            </ButtonRow>
          </form>
        </>
      ) : null}
      {failure ? <Failure copy={copy} error={failure} /> : null}
      {preview ? (
        preview.count === 0 ? (
          <Summary role="status">{words.previewEmpty}</Summary>
        ) : (
          <>
            <Summary role="status">
              {fill(words.preview, {
                count: format.count(preview.count),
                first: format.count(preview.firstPlace ?? 0),
                last: format.count(preview.lastPlace ?? 0),
                ...Object.fromEntries(Object.entries(preview.skipped).map(([reason, people]) => [reason, format.count(people)])),
              })}
            </Summary>
            <ButtonRow>
              <ActionDialog<BatchAnswer>
                copy={copy}
                personName={words.heading}
                actionName={fill(words.invite, { count: format.count(preview.count) })}
                perform={(reason) => postBatch({ count: preview.count, reason, idempotencyKey: preview.idempotencyKey })}
                onDone={(answer) => {
                  announce(fill(words.batchMade, { invited: format.count(answer.batch.invited) }));
                  setPreview(null);
                  reload();
                }}
              />
            </ButtonRow>
          </>
        )
      ) : null}
      {answer ? (
        <>
          <SubHeading>{words.batchesHeading}</SubHeading>
          <LaunchBatches copy={copy} format={format} batches={answer.batches} onChanged={changed} canAct={canAct} />
          <LaunchSchedule
            key={answer.schedule?.updatedAt ?? "none"}
            copy={copy}
            format={format}
            schedule={answer.schedule}
            timeZone={answer.timeZone}
            onSaved={changed}
            canAct={canAct}
          />
        </>
      ) : null}
      {days ? <DayChart words={words.days} format={format} table={days} stacked={false} /> : null}
    </Section>
  );
}
