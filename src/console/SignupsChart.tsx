/**
 * Signups per day, stacked by source: a chart.js stacked bar chart (only the parts it uses registered, so the rest of
 * chart.js is shaken out) over a real table holding the same numbers, which is what a screen reader reads.
 */
import { useEffect, useRef } from "react";
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type ChartConfiguration } from "chart.js";
import { theme } from "./theme";
import type { ConsoleContent } from "./content";
import type { ConsoleFormat } from "./format";
import { Muted, SubHeading, Table, TableScroll } from "./parts";
import styled from "styled-components";
import type { DashboardDay, DashboardSource } from "../../shared/api/console";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** A chart's height on screen (px); its width follows the section. */
const CHART_HEIGHT_PX = 280;

/** What the chart and the table show: one row per day, one column per source, and each day's total. */
export interface SignupsTable {
  sources: { key: string; name: string }[];
  rows: { date: string; counts: number[]; total: number }[];
}

/** The table of a dashboard answer's days by its sources (a source missing from a day counts 0). */
export function signupsTable(days: readonly DashboardDay[], sources: readonly DashboardSource[], noSource: string): SignupsTable {
  const named = sources.map((source) => ({ key: source.key, name: source.path ?? (source.key || noSource) }));
  return {
    sources: named,
    rows: days.map((day) => {
      const counts = named.map((source) => day.signups[source.key] ?? 0);
      return { date: day.date, counts, total: counts.reduce((sum, count) => sum + count, 0) };
    }),
  };
}

type Copy = ConsoleContent["console"];

/** The chart of a dashboard answer's days, and the table under it; the content's words when no one signed up. */
export function SignupsChart({
  copy,
  format,
  days,
  sources,
}: {
  copy: Copy;
  format: ConsoleFormat;
  days: readonly DashboardDay[];
  sources: readonly DashboardSource[];
}) {
  const words = copy.dashboard.signups;
  const table = signupsTable(days, sources, words.noSource);
  const canvas = useRef<HTMLCanvasElement>(null);
  const empty = table.rows.every((row) => row.total === 0);

  useEffect(() => {
    const element = canvas.current;
    // Without a 2D context (an old browser, a test's DOM) the table below says it all.
    if (!element || empty || !element.getContext("2d")) return;
    const chart = new Chart(element, chartConfiguration(table, format));
    return () => chart.destroy();
    // The table is derived from these; a new answer draws a new chart.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [days, sources, format, empty]);

  return (
    <>
      <SubHeading>{words.heading}</SubHeading>
      {empty ? (
        <Muted>{words.empty}</Muted>
      ) : (
        <>
          <ChartBox>
            <canvas ref={canvas} role="img" aria-label={words.chartLabel} />
          </ChartBox>
          <SignupsTableView copy={copy} format={format} table={table} />
        </>
      )}
    </>
  );
}

/** The stacked bar chart of the table: a bar per day, a colour of the theme's series per source, drawn once. */
function chartConfiguration(table: SignupsTable, format: ConsoleFormat): ChartConfiguration<"bar"> {
  return {
    type: "bar",
    data: {
      labels: table.rows.map((row) => format.day(row.date)),
      datasets: table.sources.map((source, index) => ({
        label: source.name,
        data: table.rows.map((row) => row.counts[index]),
        backgroundColor: theme.colors.chartSeries[index % theme.colors.chartSeries.length],
      })),
    },
    options: {
      // Drawn once: nothing moves on screen.
      animation: false,
      maintainAspectRatio: false,
      responsive: true,
      scales: {
        x: { stacked: true, ticks: { color: theme.colors.textMuted }, grid: { color: theme.colors.chartGrid } },
        y: {
          stacked: true,
          beginAtZero: true,
          ticks: { color: theme.colors.textMuted, precision: 0, callback: (value) => format.count(Number(value)) },
          grid: { color: theme.colors.chartGrid },
        },
      },
      plugins: { legend: { labels: { color: theme.colors.text } } },
    },
  };
}

/** The chart's numbers as a table: a row per day, a column per source and the day's total. */
function SignupsTableView({ copy, format, table }: { copy: Copy; format: ConsoleFormat; table: SignupsTable }) {
  const words = copy.dashboard.signups;
  return (
    <TableScroll label={words.caption}>
      <Table>
        <caption>{words.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{words.dayColumn}</th>
            {table.sources.map((source) => (
              <th key={source.key} scope="col" data-number="">
                {source.name}
              </th>
            ))}
            <th scope="col" data-number="">
              {words.totalColumn}
            </th>
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr key={row.date}>
              <th scope="row">{format.day(row.date)}</th>
              {row.counts.map((count, index) => (
                <td key={table.sources[index].key} data-number="">
                  {format.count(count)}
                </td>
              ))}
              <td data-number="">{format.count(row.total)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </TableScroll>
  );
}

const ChartBox = styled.div`
  position: relative;
  height: ${CHART_HEIGHT_PX}px;
  min-width: 0;
`;
