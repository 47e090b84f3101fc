/**
 * The console's building blocks: sections, tables, buttons, the loading and error states, and the names of fair-play
 * flags and holds. Every word comes from the content; every look from the theme.
 */
import React from "react";
import styled from "styled-components";
import { FLAGS, HOLDS, type FlagName, type HoldName } from "../../shared/fair-play-marks";
import { theme } from "./theme";
import type { ConsoleError } from "./api";
import type { ConsoleContent } from "./content";
import type { ConsoleFormat } from "./format";
import { Button as BaseButton } from "../ui/Button";
import { errorNote } from "../ui/errorNote";
import { ruledTable } from "../ui/ruledTable";

type Copy = ConsoleContent["console"];

/** What a console screen that can act is handed. */
export interface ScreenProps {
  copy: Copy;
  format: ConsoleFormat;
  /** Tells screen readers what an action did (the console's live region). */
  announce: (text: string) => void;
  /** An operator's session; a viewer's screen offers no action (the service would refuse it). */
  canAct: boolean;
}

const FLAG_NAME_OF = new Map<string, FlagName>(Object.entries(FLAGS).map(([name, word]) => [word, name as FlagName]));
const HOLD_NAME_OF = new Map<string, HoldName>(Object.entries(HOLDS).map(([name, word]) => [word, name as HoldName]));

/** A flag or hold as the content names and explains it; an unknown word (a newer Worker's) is shown as it is. */
export function markCopy(copy: Copy, word: string): { name: string; explanation: string | null } {
  const flag = FLAG_NAME_OF.get(word);
  if (flag) return copy.flags[flag];
  const hold = HOLD_NAME_OF.get(word);
  if (hold) return copy.holds[hold];
  return { name: word, explanation: null };
}

/** A person's flags and hold as a list of named marks, each with its explanation on hover and for screen readers. */
export function Marks({ copy, flags, hold }: { copy: Copy; flags: readonly string[]; hold?: string | null }) {
  const words = hold ? [...flags, hold] : flags;
  if (words.length === 0) return <>{copy.none}</>;
  return (
    <MarkList>
      {words.map((word) => {
        const mark = markCopy(copy, word);
        return (
          <li key={word}>
            <Mark title={mark.explanation ?? undefined}>{mark.name}</Mark>
            {mark.explanation ? <Explanation>{mark.explanation}</Explanation> : null}
          </li>
        );
      })}
    </MarkList>
  );
}

/** The content's message for a failed request, with a button that asks again. */
export function Failure({ copy, error, onRetry }: { copy: Copy; error: ConsoleError; onRetry?: () => void }) {
  return (
    <Notice role="alert">
      <span>{copy.errors[error.key]}</span>
      {onRetry ? (
        <Button type="button" onClick={onRetry}>
          {copy.retry}
        </Button>
      ) : null}
    </Notice>
  );
}

/** The content's loading words, announced politely. */
export function Loading({ copy }: { copy: Copy }) {
  return <p role="status">{copy.loading}</p>;
}

export const Section = styled.section`
  display: grid;
  gap: ${theme.space.lg};
  min-width: 0;
  padding: ${theme.space.xxl};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radii.medium};
  background: ${theme.colors.surfaceTranslucent};
`;

export const SectionHeading = styled.h2`
  margin: 0;
  font-size: 1.25rem;
`;

export const SubHeading = styled.h3`
  margin: 0;
  font-size: 1.05rem;
`;

/** Lets a wide table scroll inside its section instead of the page scrolling sideways; focusable so keys scroll it. */
export function TableScroll({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Scroll role="region" aria-label={label} tabIndex={0}>
      {children}
    </Scroll>
  );
}

/** A table named by its caption, in a scroll region of the same name. */
export function CaptionedTable({ caption, children }: { caption: string; children: React.ReactNode }) {
  return (
    <TableScroll label={caption}>
      <Table>
        <caption>{caption}</caption>
        {children}
      </Table>
    </TableScroll>
  );
}

/** One row of a FiguresTable: its name (the row's header cell) and its figures, already formatted. */
export interface FiguresRow {
  key: string;
  name: React.ReactNode;
  figures: React.ReactNode[];
}

/**
 * A captioned table of named rows and number columns: the header row (`nameColumn`, then `columns`), then a row each
 * with its name as the row's header and its figures right-aligned.
 */
export function FiguresTable({
  caption,
  nameColumn,
  columns,
  rows,
}: {
  caption: string;
  nameColumn: string;
  columns: string[];
  rows: FiguresRow[];
}) {
  return (
    <CaptionedTable caption={caption}>
      <thead>
        <tr>
          <th scope="col">{nameColumn}</th>
          {columns.map((column) => (
            <th key={column} scope="col" data-number="">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.name}</th>
            {row.figures.map((figure, index) => (
              <td key={columns[index] ?? index} data-number="">
                {figure}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </CaptionedTable>
  );
}

const Scroll = styled.div`
  overflow-x: auto;
  max-width: 100%;
  &:focus-visible {
    outline: 2px solid ${theme.colors.focus};
    outline-offset: 2px;
  }
`;

export const Table = styled.table`
  ${ruledTable}
  font-variant-numeric: tabular-nums;
  caption {
    padding-bottom: ${theme.space.sm};
    color: ${theme.colors.textMuted};
    text-align: start;
  }
  th,
  td {
    padding: ${theme.space.xs} ${theme.space.sm};
    text-align: start;
    vertical-align: top;
  }
  td[data-number],
  th[data-number] {
    text-align: end;
  }
`;

export const Button = styled(BaseButton)`
  min-height: ${theme.controls.compact};
  padding: ${theme.space.xs} ${theme.space.lg};
  border: ${theme.lines.border} solid ${theme.colors.inputBorder};
  border-radius: ${theme.radii.small};
  background: ${theme.colors.surfaceRaised};
  color: ${theme.colors.text};
  &:hover {
    background: ${theme.colors.hoverTint};
  }
  &:focus-visible {
    outline: ${theme.lines.focusThin} solid ${theme.colors.focus};
    outline-offset: 2px;
  }
  &[aria-pressed="true"] {
    border-color: ${theme.colors.accent};
    background: ${theme.colors.accent};
    color: ${theme.colors.onAccent};
  }
  &:disabled {
    cursor: progress;
    opacity: ${theme.opacities.busy};
  }
`;

export const ButtonRow = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm};
`;

/** A framed statement of how things stand or what an action would do (a preview, a schedule): neutral, not a failure. */
export const Summary = styled.p`
  margin: 0;
  padding: ${theme.space.lg};
  border: ${theme.lines.border} solid ${theme.colors.border};
  border-radius: ${theme.radii.small};
  background: ${theme.colors.surfaceRaised};
  color: ${theme.colors.text};
`;

export const Notice = styled.div`
  ${errorNote}
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.lg};
  padding: ${theme.space.lg};
`;

export const Muted = styled.p`
  margin: 0;
  color: ${theme.colors.textMuted};
`;

/** A link to a person's page: at least 24 px tall (WCAG 2.5.8), since in a table cell it is no part of running text. */
export const PersonLink = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: 24px;
  color: ${theme.colors.text};
  font-weight: 600;
  text-underline-offset: 3px;
`;

const MarkList = styled.ul`
  display: grid;
  gap: ${theme.space.xxs};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Mark = styled.span`
  display: inline-block;
  padding: 0 ${theme.space.xs};
  border: 1px solid ${theme.colors.gold};
  border-radius: ${theme.radii.pill};
  color: ${theme.colors.gold};
`;

const Explanation = styled.span`
  display: block;
  color: ${theme.colors.textMuted};
  font-size: 0.875rem;
`;

/** A text, number or date field of a console form: a 40 px target and the focus ring every control has. */
export const Input = styled.input`
  min-width: 0;
  min-height: 40px;
  padding: ${theme.space.xs} ${theme.space.sm};
  border: 1px solid ${theme.colors.inputBorder};
  border-radius: ${theme.radii.small};
  background: ${theme.colors.background};
  color: ${theme.colors.text};
  font: inherit;
  &:focus-visible {
    outline: 2px solid ${theme.colors.focus};
    outline-offset: 2px;
  }
`;

/** Terms and their values in two columns (a person's fields, their invitation). */
export const Details = styled.dl`
  display: grid;
  grid-template-columns: minmax(8rem, max-content) 1fr;
  gap: ${theme.space.xs} ${theme.space.lg};
  margin: 0;
  dt {
    color: ${theme.colors.textMuted};
  }
  dd {
    margin: 0;
    min-width: 0;
    overflow-wrap: anywhere;
  }
`;
