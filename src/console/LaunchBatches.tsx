/**
 * The Launch screen's batches, newest first: each with its progress (asked, invited, queued, sent, failed), its state
 * (paused over the rest) and Pause or Resume behind the reason dialog.
 */
import type { LaunchBatch } from "../../shared/api/launch";
import { ActionDialog } from "./ActionDialog";
import { postBatchAction } from "./api";
import type { ConsoleContent } from "./content";
import { fill, type ConsoleFormat } from "./format";
import { CaptionedTable, Muted } from "./parts";

type Copy = ConsoleContent["console"];

/** The progress columns, in order. */
const COUNTS = ["requested", "invited", "queued", "sent", "failed"] as const;

/** The batches table; `onChanged` reloads the screen after a pause or resume. */
export function LaunchBatches({
  copy,
  format,
  batches,
  onChanged,
  canAct,
}: {
  copy: Copy;
  format: ConsoleFormat;
  batches: readonly LaunchBatch[];
  onChanged: (announcement: string) => void;
  /** An operator's session: a viewer sees it with no control to act. */
  canAct: boolean;
}) {
  const words = copy.launch;
  if (batches.length === 0) return <Muted>{words.batchesEmpty}</Muted>;
  return (
    <CaptionedTable caption={words.batchesCaption}>
      <thead>
        <tr>
          <th scope="col">{words.batchColumns.createdAt}</th>
          <th scope="col">{words.batchColumns.operator}</th>
          {COUNTS.map((column) => (
            <th key={column} scope="col" data-number="">
              {words.batchColumns[column]}
            </th>
          ))}
          <th scope="col">{words.batchColumns.state}</th>
          <th scope="col">{words.batchActionsColumn}</th>
        </tr>
      </thead>
      <tbody>
        {batches.map((batch) => {
          const paused = batch.pausedAt !== null;
          const actionName = paused ? words.batchResume : words.batchPause;
          return (
            <tr key={batch.id}>
              <th scope="row">{format.dateTime(batch.createdAt)}</th>
              <td>{batch.operator}</td>
              {COUNTS.map((column) => (
                <td key={column} data-number="">
                  {format.count(batch[column])}
                </td>
              ))}
              <td>{paused ? words.batchPaused : words.batchStates[batch.state]}</td>
              <td>
                {!canAct || (batch.state === "done" && !paused) ? null : (
                  <ActionDialog
                    copy={copy}
                    personName={fill(words.batchName, { date: format.dateTime(batch.createdAt) })}
                    actionName={actionName}
                    perform={(reason) => postBatchAction(batch.id, paused ? "resume" : "pause", { reason })}
                    onDone={() => onChanged(fill(copy.dialog.done, { action: actionName }))}
                  />
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </CaptionedTable>
  );
}
