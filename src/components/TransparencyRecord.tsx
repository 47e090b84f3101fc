/**
 * The transparency page's record, as the waitlist service publishes it (shared/transparency.ts): the counts per week,
 * every giveaway draw with its state, and the audit log's latest signed checkpoint with the key that checks it. Its
 * space is held from the first paint, so the record arriving moves nothing; without JavaScript, links to the files.
 */
import type React from "react";
import { graphql } from "gatsby";
import styled from "styled-components";
import type { DrawRecord, TransparencyReport } from "../../shared/transparency";
import { TRANSPARENCY_PATHS } from "../../shared/transparency";
import { formatCount } from "../referrals/numbers";
import { useTransparencyReport } from "../transparency/report";
import { Note } from "../ui/Note";
import { ruledTable } from "../ui/ruledTable";
import { theme } from "../styles/theme";

export interface TransparencyRecordProps {
  content: Queries.TransparencyRecordContentFragment;
}

/** A week's Monday (YYYY-MM-DD) as the site's language writes a date. */
function weekLabel(week: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${week}T00:00:00Z`));
}

/** A moment as the site's language writes it, to the minute, in the visitor's own time zone with its name. */
function momentLabel(at: string, language: string): string {
  const parts = { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" } as const;
  return new Intl.DateTimeFormat(language, parts).format(new Date(at));
}

export function TransparencyRecord({ content }: TransparencyRecordProps) {
  const report = useTransparencyReport();
  const { transparency } = content;
  return (
    <Reserved>
      <noscript>
        <Note>{transparency.noScript}</Note>
        <FileLinks content={content} />
        <style>{"[data-transparency-record]{display:none}"}</style>
      </noscript>
      <div data-transparency-record="">
        {report.data ? (
          <Record content={content} report={report.data} />
        ) : (
          <Note role="status">{report.isError ? transparency.unavailable : transparency.loading}</Note>
        )}
      </div>
    </Reserved>
  );
}

function FileLinks({ content }: TransparencyRecordProps) {
  return (
    <Links>
      <li>
        <a href={TRANSPARENCY_PATHS.report}>{content.transparency.reportLink}</a>
      </li>
      <li>
        <a href={TRANSPARENCY_PATHS.checkpoint}>{content.transparency.checkpointLink}</a>
      </li>
    </Links>
  );
}

function Record({ content, report }: TransparencyRecordProps & { report: TransparencyReport }) {
  const { transparency } = content;
  const language = content.site.language;
  const count = (value: number) => formatCount(value, language);
  const { weeks, draws, auditLog } = transparency;
  return (
    <>
      <Updated>{transparency.updated.replace("{time}", momentLabel(report.generatedAt, language))}</Updated>

      <RecordTable
        id="transparency-weeks"
        words={weeks}
        columns={[
          weeks.columns.week,
          weeks.columns.signups,
          weeks.columns.confirmed,
          weeks.columns.disqualified,
          weeks.columns.erased,
          weeks.columns.invited,
        ]}
        rows={report.weeks.map((week) => ({
          key: week.week,
          head: weekLabel(week.week, language),
          cells: [week.signups, week.confirmed, week.disqualified, week.erased, week.invited].map(count),
        }))}
      />

      <RecordTable
        id="transparency-draws"
        words={draws}
        columns={[draws.columns.draw, draws.columns.state, draws.columns.cutoff, draws.columns.entrants, draws.columns.listHash]}
        rows={report.draws.map((draw) => ({
          key: draw.id,
          head: draw.id,
          cells: [
            drawState(draw, draws),
            momentLabel(draw.cutoff, language),
            draw.entrants === null ? NONE : count(draw.entrants),
            draw.listHash ? <Hash>{draw.listHash}</Hash> : NONE,
          ],
        }))}
      />

      <Section aria-labelledby="transparency-audit">
        <h2 id="transparency-audit">{auditLog.heading}</h2>
        <p>{auditLog.intro}</p>
        <p>{auditLog.size.replace("{size}", count(report.auditLog.size))}</p>
        <Label id="transparency-key">{auditLog.keyLabel}</Label>
        <Block aria-labelledby="transparency-key" tabIndex={0}>
          {report.auditLog.verifierKey}
        </Block>
        <Label id="transparency-checkpoint">{auditLog.checkpointLabel}</Label>
        <Block aria-labelledby="transparency-checkpoint" tabIndex={0}>
          {report.auditLog.checkpoint}
        </Block>
        <p>{auditLog.howToCheck}</p>
        <FileLinks content={content} />
      </Section>
    </>
  );
}

/** What a cell shows for a value the record does not have yet (a draw not committed has no list). */
const NONE = "–";

/** One of the record's tables under its heading and note, or its `empty` words when it has no row. */
function RecordTable({
  id,
  words,
  columns,
  rows,
}: {
  id: string;
  words: { heading: string; note: string; empty: string };
  columns: string[];
  rows: { key: string; head: string; cells: React.ReactNode[] }[];
}) {
  return (
    <Section aria-labelledby={id}>
      <h2 id={id}>{words.heading}</h2>
      <p>{words.note}</p>
      {rows.length === 0 ? (
        <Note>{words.empty}</Note>
      ) : (
        <Scroll>
          <Table aria-labelledby={id}>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key}>
                  <th scope="row">{row.head}</th>
                  {row.cells.map((cell, index) => (
                    <td key={index}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </Table>
        </Scroll>
      )}
    </Section>
  );
}

/** A draw's state in the content's words, with why it was replaced or stopped. */
function drawState(draw: DrawRecord, words: Queries.TransparencyRecordContentFragment["transparency"]["draws"]): string {
  const state = words.states[draw.state];
  const why = [
    draw.failure ? words.failure.replace("{reason}", draw.failure) : null,
    draw.replacedBy ? words.replacedBy.replace("{draw}", draw.replacedBy) : null,
  ].filter(Boolean);
  return [state, ...why].join(" ");
}

/**
 * Room for the record from the first paint: its arrival pushes nothing the visitor already sees. It stretches across
 * the card and may shrink below its tables' width (they scroll inside it), so a phone never scrolls sideways; its text
 * reads from the left, as tables and long paragraphs do.
 */
const Reserved = styled.div`
  justify-self: stretch;
  min-width: 0;
  min-height: 40rem;
  text-align: left;
  /* A path or a command in the copy breaks anywhere rather than widen a phone's page. */
  overflow-wrap: anywhere;
`;

const Updated = styled.p`
  margin: 0 0 ${theme.space.lg};
  color: ${theme.colors.textMuted};
`;

const Section = styled.section`
  margin-top: ${theme.space.vast};
  h2 {
    margin: 0 0 ${theme.space.sm};
    font-size: 1.25rem;
  }
  p {
    margin: 0 0 ${theme.space.md};
  }
`;

/** A wide table scrolls inside its own box on a phone instead of widening the page. */
const Scroll = styled.div`
  overflow-x: auto;
`;

const Table = styled.table`
  ${ruledTable}
  text-align: left;
  th,
  td {
    padding: ${theme.space.sm} ${theme.space.md};
    vertical-align: top;
  }
  thead th {
    font-size: 0.8rem;
    color: ${theme.colors.textMuted};
  }
  td {
    font-variant-numeric: tabular-nums;
  }
`;

const Hash = styled.code`
  overflow-wrap: anywhere;
  font-size: 0.8rem;
`;

const Label = styled.p`
  font-weight: 700;
`;

/** Long keys and notes wrap anywhere, so a phone never scrolls sideways for them. */
const Block = styled.pre`
  margin: 0 0 ${theme.space.md};
  padding: ${theme.space.md};
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  font-size: 0.8rem;
  background: ${theme.colors.surfaceRaised};
  border-radius: ${theme.radii.small};
`;

/** Links a finger can hit: each at least a 24 px target (WCAG 2.5.8), as they stand alone, not in running text. */
const Links = styled.ul`
  margin: 0;
  padding-left: ${theme.space.lg};
  a {
    display: inline-block;
    min-height: ${theme.space.xxxl};
    line-height: ${theme.space.xxxl};
  }
`;

export const query = graphql`
  fragment TransparencyRecordContent on SiteContent {
    site {
      language
    }
    transparency {
      updated
      loading
      unavailable
      noScript
      reportLink
      checkpointLink
      weeks {
        heading
        note
        columns {
          week
          signups
          confirmed
          disqualified
          erased
          invited
        }
        empty
      }
      draws {
        heading
        note
        columns {
          draw
          state
          cutoff
          entrants
          listHash
        }
        states {
          announced
          committing
          committed
          drawn
          failed
        }
        replacedBy
        failure
        empty
      }
      auditLog {
        heading
        intro
        size
        keyLabel
        checkpointLabel
        howToCheck
      }
    }
  }
`;
