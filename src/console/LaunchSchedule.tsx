/**
 * The Launch screen's schedule (docs/operators.md: Launch): up to N a day at a time of day in the site's time zone,
 * run by the cron until paused. Saving, pausing and resuming each go through the reason dialog and write an audit
 * entry; the service checks the fields and answers the schedule as it is now.
 */
import { useId, useState } from "react";
import type { LaunchSchedule as Schedule } from "../../shared/api/launch";
import { ActionDialog } from "./ActionDialog";
import { putSchedule } from "./api";
import type { ConsoleContent } from "./content";
import { fill, type ConsoleFormat } from "./format";
import { ButtonRow, Input, Muted, SubHeading, Summary } from "./parts";

type Copy = ConsoleContent["console"];

/** The time of day a new schedule starts with (HH:MM). */
const DEFAULT_TIME_OF_DAY = "09:00";
/** The people a day a new schedule starts with. */
const DEFAULT_DAILY_COUNT = "100";

/** The schedule as it is, its fields, and Save with Pause or Resume; `onSaved` reloads the screen. */
export function LaunchSchedule({
  copy,
  format,
  schedule,
  timeZone,
  onSaved,
  canAct,
}: {
  copy: Copy;
  format: ConsoleFormat;
  schedule: Schedule | null;
  timeZone: string;
  onSaved: (announcement: string) => void;
  /** An operator's session: a viewer sees it with no control to act. */
  canAct: boolean;
}) {
  const words = copy.launch.schedule;
  const countId = useId();
  const timeId = useId();
  const [count, setCount] = useState(String(schedule?.dailyCount ?? DEFAULT_DAILY_COUNT));
  const [time, setTime] = useState(schedule?.timeOfDay ?? DEFAULT_TIME_OF_DAY);
  const values = schedule && {
    count: format.count(schedule.dailyCount),
    time: schedule.timeOfDay,
    next: schedule.nextRunAt ? format.dateTime(schedule.nextRunAt) : copy.none,
    operator: schedule.operator,
    reason: schedule.reason,
  };
  const save = (paused: boolean, dailyCount: number, timeOfDay: string) => (reason: string) =>
    putSchedule({ dailyCount, timeOfDay, paused, reason });

  return (
    <>
      <SubHeading>{words.heading}</SubHeading>
      <Muted>{fill(words.intro, { zone: format.zone(timeZone) })}</Muted>
      {values ? (
        <Summary role="status">{fill(schedule.paused ? words.paused : words.running, values)}</Summary>
      ) : (
        <Muted>{words.none}</Muted>
      )}
      {canAct ? (
        <ButtonRow>
          <label htmlFor={countId}>{words.countLabel}</label>
          <Input id={countId} type="number" min={1} inputMode="numeric" value={count} onChange={(event) => setCount(event.target.value)} />
          <label htmlFor={timeId}>{words.timeLabel}</label>
          <Input id={timeId} type="time" value={time} onChange={(event) => setTime(event.target.value)} />
          <ActionDialog
            copy={copy}
            personName={words.heading}
            actionName={words.save}
            perform={save(false, Number(count), time)}
            onDone={() => onSaved(words.saved)}
          />
          {schedule ? (
            <ActionDialog
              copy={copy}
              personName={words.heading}
              actionName={schedule.paused ? words.resume : words.pause}
              perform={save(!schedule.paused, schedule.dailyCount, schedule.timeOfDay)}
              onDone={() => onSaved(words.saved)}
            />
          ) : null}
        </ButtonRow>
      ) : null}
    </>
  );
}
