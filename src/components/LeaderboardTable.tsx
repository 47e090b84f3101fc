import { graphql } from "gatsby";
import styled from "styled-components";
import { formatCount } from "../referrals/numbers";
import type { LeaderboardEntry } from "../../shared/api/referrals";
import { Note, NoteCover } from "../ui/Note";
import { ruledTable } from "../ui/ruledTable";
import { theme } from "../styles/theme";

/** What the table reads from the page's query (fragment LeaderboardTableContent below). */
export type LeaderboardTableContent = Queries.LeaderboardTableContentFragment;

/**
 * What the table shows: `pending` until the board arrives (and in the prerendered HTML),
 * `ready` with its rows (best first), `failed` when it cannot be loaded.
 */
export type LeaderboardView = { kind: "pending" } | { kind: "ready"; entries: readonly LeaderboardEntry[] } | { kind: "failed" };

export interface LeaderboardTableProps {
  content: LeaderboardTableContent;
  view: LeaderboardView;
  /** The id of the heading that names the table. */
  labelledBy: string;
}

/** Shown in place of a value that is not known yet. */
const UNKNOWN = "—";

/**
 * The top referrers, with names as the service shortens them (never an address). No layout shift: always `leaderboard.size` rows of one height, dashes until the
 * board arrives, unfilled rows kept as space; a message covers the table's own space.
 */
export function LeaderboardTable({ content, view, labelledBy }: LeaderboardTableProps) {
  const { site, leaderboard } = content;
  const rows = Array.from({ length: leaderboard.size }, (_, index) => (view.kind === "ready" ? (view.entries[index] ?? null) : undefined));
  const message =
    view.kind === "failed" ? leaderboard.unavailable : view.kind === "ready" && view.entries.length === 0 ? leaderboard.empty : null;
  const count = (value: number | undefined) => (value === undefined ? UNKNOWN : formatCount(value, site.language));

  return (
    <Reserved>
      <Table aria-labelledby={labelledBy} aria-busy={view.kind === "pending"} data-leaderboard-table="" data-covered={message !== null}>
        <colgroup>
          <RankColumn />
          <col />
          <CountColumn />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">{leaderboard.columns.rank}</th>
            <th scope="col">{leaderboard.columns.name}</th>
            <th scope="col">{leaderboard.columns.referrals}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((entry, index) =>
            entry === null ? (
              // A place the board does not fill: kept as space, so that the page below stays where it was.
              <Filler key={`${view.kind}-${index}`} aria-hidden="true">
                <td colSpan={3} />
              </Filler>
            ) : (
              // Keyed by the view too: arriving values are new rows, not the dashes' text changed, so nothing on screen moves.
              <tr key={`${view.kind}-${index}`}>
                <Figure>{count(entry?.rank)}</Figure>
                <Name scope="row">{entry?.name ?? UNKNOWN}</Name>
                <Figure>{count(entry?.referrals)}</Figure>
              </tr>
            ),
          )}
        </tbody>
      </Table>
      {message !== null ? <NoteCover role="status">{message}</NoteCover> : null}
      <noscript>
        <Note>{leaderboard.noScript}</Note>
        {/* Without JavaScript the board never arrives; nothing changes after load, so the note simply takes its place. */}
        <style>{"[data-leaderboard-table]{display:none}"}</style>
      </noscript>
    </Reserved>
  );
}

const Reserved = styled.div`
  position: relative;
  width: 100%;
`;

const Table = styled.table`
  ${ruledTable}
  table-layout: fixed;
  text-align: left;
  th,
  td {
    height: 2.75rem;
    padding: 0 ${theme.space.md};
  }
  thead th {
    font-size: 0.8rem;
    letter-spacing: 0.06em;
    text-transform: uppercase;
    color: ${theme.colors.textMuted};
  }
  /* Figures and their headings line up on the right, as columns of figures do. */
  thead th:first-child,
  thead th:last-child {
    text-align: right;
  }
  &[data-covered="true"] {
    visibility: hidden;
  }
`;

const RankColumn = styled.col`
  width: 3.75rem;
`;

const CountColumn = styled.col`
  width: 6.5rem;
`;

/** Tabular digits, aligned on the right as figures in a column are. */
const Figure = styled.td`
  font-family: ${theme.fonts.mono};
  font-variant-numeric: tabular-nums;
  font-weight: 700;
  text-align: right;
`;

const Name = styled.th`
  overflow: hidden;
  font-weight: 600;
  text-overflow: ellipsis;
  white-space: nowrap;
`;

/** A place the board does not fill: its room is kept, and nothing of it is drawn (not even its rule). */
const Filler = styled.tr`
  visibility: hidden;
  td {
    border-bottom-color: transparent;
  }
`;

/** A message in the reserved box's place, for visitors without JavaScript (nothing changes after load, so it need not cover anything). */
/** A message that covers the reserved box, which keeps its size: nothing below it moves. */
export const query = graphql`
  fragment LeaderboardTableContent on SiteContent {
    site {
      language
    }
    leaderboard {
      size
      columns {
        rank
        name
        referrals
      }
      empty
      unavailable
      noScript
    }
  }
`;
