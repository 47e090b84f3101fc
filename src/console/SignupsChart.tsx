/** The dashboard's signups per day, stacked by source (DayChart). */
import { useMemo } from "react";
import type { DashboardDay, DashboardSource } from "../../shared/api/console";
import type { ConsoleContent } from "./content";
import { DayChart, type DayTable } from "./DayChart";
import type { ConsoleFormat } from "./format";

/** The table of a dashboard answer's days by its sources (a source missing from a day counts 0). */
export function signupsTable(days: readonly DashboardDay[], sources: readonly DashboardSource[], noSource: string): DayTable {
  const series = sources.map((source) => ({ key: source.key, name: source.path ?? (source.key || noSource) }));
  return { series, rows: days.map((day) => ({ date: day.date, counts: series.map((source) => day.signups[source.key] ?? 0) })) };
}

/** The chart of a dashboard answer's days, and the table under it with each day's total. */
export function SignupsChart({
  copy,
  format,
  days,
  sources,
}: {
  copy: ConsoleContent["console"];
  format: ConsoleFormat;
  days: readonly DashboardDay[];
  sources: readonly DashboardSource[];
}) {
  const words = copy.dashboard.signups;
  const table = useMemo(() => signupsTable(days, sources, words.noSource), [days, sources, words.noSource]);
  return <DayChart words={words} format={format} table={table} stacked />;
}
