/**
 * The Launch screen (docs/operators.md: Launch): people by launch state, inviting the next N after its preview (the
 * preview's idempotency key goes with the press, so a double press or two operators make one batch), and the latest
 * batches with their progress.
 */
import { useId, useState } from "react";
import { LAUNCH_ENDPOINT, LAUNCH_PREVIEW_ENDPOINT, PERSON_LAUNCH_STATES } from "../../shared/launch";
import { ActionDialog } from "./ActionDialog";
import { ConsoleError, getConsole, postBatch, withQuery } from "./api";
import type { ConsoleContent } from "./content";
import { fill, type ConsoleFormat } from "./format";
import { Button, ButtonRow, Failure, Input, Loading, Muted, Notice, Section, SectionHeading, Table, TableScroll } from "./parts";
import { useAnswer } from "./useAnswer";
import type { BatchAnswer, LaunchAnswer, LaunchPreview } from "../../shared/api/launch";

type Copy = ConsoleContent["console"];

export function Launch({
  copy,
  format,
  announce,
  canAct,
}: {
  copy: Copy;
  format: ConsoleFormat;
  announce: (text: string) => void;
  /** An operator's session: a viewer sees the funnel and the batches, with nobody to invite. */
  canAct: boolean;
}) {
  const words = copy.launch;
  const { state, reload } = useAnswer<LaunchAnswer>(LAUNCH_ENDPOINT);
  const countId = useId();
  const [count, setCount] = useState("100");
  const [preview, setPreview] = useState<LaunchPreview | null>(null);
  const [failure, setFailure] = useState<ConsoleError | null>(null);

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
        <TableScroll label={words.funnelCaption}>
          <Table>
            <caption>{words.funnelCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{words.stateColumn}</th>
                <th scope="col" data-number="">
                  {words.peopleColumn}
                </th>
              </tr>
            </thead>
            <tbody>
              {PERSON_LAUNCH_STATES.map((name) => (
                <tr key={name}>
                  <th scope="row">{words.states[name]}</th>
                  <td data-number="">{format.count(state.answer.funnel[name])}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </TableScroll>
      )}
      {canAct ? (
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
      ) : null}
      {failure ? <Failure copy={copy} error={failure} /> : null}
      {preview ? (
        preview.count === 0 ? (
          <Notice role="status">{words.previewEmpty}</Notice>
        ) : (
          <>
            <Notice role="status">
              {fill(words.preview, {
                count: format.count(preview.count),
                first: format.count(preview.firstPlace ?? 0),
                last: format.count(preview.lastPlace ?? 0),
                ...Object.fromEntries(Object.entries(preview.skipped).map(([reason, people]) => [reason, format.count(people)])),
              })}
            </Notice>
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
          </>
        )
      ) : null}
      {state.kind === "ready" ? (
        state.answer.batches.length === 0 ? (
          <Muted>{words.batchesEmpty}</Muted>
        ) : (
          <TableScroll label={words.batchesCaption}>
            <Table>
              <caption>{words.batchesCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{words.batchColumns.createdAt}</th>
                  <th scope="col">{words.batchColumns.operator}</th>
                  {(["requested", "invited", "queued", "sent", "failed"] as const).map((column) => (
                    <th key={column} scope="col" data-number="">
                      {words.batchColumns[column]}
                    </th>
                  ))}
                  <th scope="col">{words.batchColumns.state}</th>
                </tr>
              </thead>
              <tbody>
                {state.answer.batches.map((batch) => (
                  <tr key={batch.id}>
                    <th scope="row">{format.dateTime(batch.createdAt)}</th>
                    <td>{batch.operator}</td>
                    {([batch.requested, batch.invited, batch.queued, batch.sent, batch.failed] as const).map((value, index) => (
                      <td key={index} data-number="">
                        {format.count(value)}
                      </td>
                    ))}
                    <td>{words.batchStates[batch.state]}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </TableScroll>
        )
      ) : null}
    </Section>
  );
}
