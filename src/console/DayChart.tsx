/**
 * Numbers per day as a chart.js bar chart (only the parts it uses registered, so the rest of chart.js is shaken out)
 * over a real table holding the same numbers, which is what a screen reader reads: the dashboard's signups by source
 * (stacked) and the Launch screen's people by launch state (side by side).
 */
import { useEffect, useRef } from "react";
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type ChartConfiguration } from "chart.js";
import styled from "styled-components";
import { theme } from "./theme";
import type { ConsoleFormat } from "./format";
import { FiguresTable, Muted, SubHeading } from "./parts";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** A chart's height on screen (px); its width follows the section. */
const CHART_HEIGHT_PX = 280;

/** What the chart and the table show: one row per day (YYYY-MM-DD), one count per series, in the series' order. */
export interface DayTable {
  series: { key: string; name: string }[];
  rows: { date: string; counts: number[] }[];
}

/** A day chart's words: its heading, what screen readers hear for the chart, the table's caption and headings. */
export interface DayChartWords {
  heading: string;
  chartLabel: string;
  caption: string;
  dayColumn: string;
  /** Shown instead of the chart and the table when every count is 0. */
  empty: string;
  /** The heading of a last column with each day's total; none without it. */
  totalColumn?: string;
}

/**
 * A chart of the table, and the table under it; the words' `empty` when every count is 0.
 * @param stacked whether the series stack into one bar a day (parts of a whole) or stand side by side
 */
export function DayChart({
  words,
  format,
  table,
  stacked,
}: {
  words: DayChartWords;
  format: ConsoleFormat;
  table: DayTable;
  stacked: boolean;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const empty = table.rows.every((row) => row.counts.every((count) => count === 0));

  useEffect(() => {
    const element = canvas.current;
    // Without a 2D context (an old browser, a test's DOM) the table below says it all.
    if (!element || empty || !element.getContext("2d")) return;
    const chart = new Chart(element, chartConfiguration(table, format, stacked));
    return () => chart.destroy();
    // A new table (a new answer) draws a new chart.
  }, [table, format, stacked, empty]);

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
          <DayTableView words={words} format={format} table={table} />
        </>
      )}
    </>
  );
}

/** The bar chart of the table: a bar (or a stack) per day, a colour of the theme's series per series, drawn once. */
function chartConfiguration(table: DayTable, format: ConsoleFormat, stacked: boolean): ChartConfiguration<"bar"> {
  return {
    type: "bar",
    data: {
      labels: table.rows.map((row) => format.day(row.date)),
      datasets: table.series.map((series, index) => ({
        label: series.name,
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
        x: { stacked, ticks: { color: theme.colors.textMuted }, grid: { color: theme.colors.chartGrid } },
        y: {
          stacked,
          beginAtZero: true,
          ticks: { color: theme.colors.textMuted, precision: 0, callback: (value) => format.count(Number(value)) },
          grid: { color: theme.colors.chartGrid },
        },
      },
      plugins: { legend: { labels: { color: theme.colors.text } } },
    },
  };
}

/** The chart's numbers as a table: a row per day, a column per series, and the day's total when the words name one. */
function DayTableView({ words, format, table }: { words: DayChartWords; format: ConsoleFormat; table: DayTable }) {
  return (
    <FiguresTable
      caption={words.caption}
      nameColumn={words.dayColumn}
      columns={[...table.series.map((series) => series.name), ...(words.totalColumn === undefined ? [] : [words.totalColumn])]}
      rows={table.rows.map((row) => ({
        key: row.date,
        name: format.day(row.date),
        figures: [
          ...row.counts.map((count) => format.count(count)),
          ...(words.totalColumn === undefined ? [] : [format.count(row.counts.reduce((sum, count) => sum + count, 0))]),
        ],
      }))}
    />
  );
}

const ChartBox = styled.div`
  position: relative;
  height: ${CHART_HEIGHT_PX}px;
  min-width: 0;
`;
