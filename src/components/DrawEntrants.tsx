import { useEffect, useId, useState } from "react";
import { graphql } from "gatsby";
import styled from "styled-components";
import type { Entrant } from "../../shared/giveaway/draw-file";
import { pseudonymOf } from "../../shared/giveaway/pseudonym";
import { theme } from "../styles/theme";

/** What the table reads from the page's query (fragment DrawEntrantsContent below). */
export type DrawEntrantsContent = Queries.DrawEntrantsContentFragment;

/**
 * The draw's entrants (pseudonym, entries) with a box to find oneself: a visitor types their referral code, which the
 * page turns into their pseudonym on their own device (nothing is sent), or the start of a pseudonym.
 */
export function DrawEntrants({
  content,
  drawId,
  entrants,
}: {
  content: DrawEntrantsContent;
  drawId: string;
  entrants: readonly Entrant[];
}) {
  const { draw } = content;
  const inputId = useId();
  const helpId = useId();
  const headingId = useId();
  const [query, setQuery] = useState("");
  const [ownPseudonym, setOwnPseudonym] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    const code = query.trim();
    if (!code) setOwnPseudonym(null);
    else void pseudonymOf(drawId, code).then((pseudonym) => current && setOwnPseudonym(pseudonym));
    return () => {
      current = false;
    };
  }, [drawId, query]);

  const prefix = query.trim().toLowerCase();
  const shown = prefix ? entrants.filter(({ pseudonym }) => pseudonym.startsWith(prefix) || pseudonym === ownPseudonym) : entrants;
  return (
    <Section aria-labelledby={headingId}>
      <h2 id={headingId}>{draw.entrantsHeading}</h2>
      <label htmlFor={inputId}>{draw.findLabel}</label>
      <input
        id={inputId}
        type="search"
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        aria-describedby={helpId}
      />
      <Help id={helpId}>{draw.findHelp.replace("{draw}", drawId)}</Help>
      {shown.length === 0 ? <p role="status">{draw.findNoMatch}</p> : <EntrantsTable draw={draw} headingId={headingId} shown={shown} />}
    </Section>
  );
}

/** The entrants shown, by pseudonym, with their entries. */
function EntrantsTable({ draw, headingId, shown }: { draw: DrawEntrantsContent["draw"]; headingId: string; shown: readonly Entrant[] }) {
  return (
    <table aria-labelledby={headingId}>
      <thead>
        <tr>
          <th scope="col">{draw.pseudonymColumn}</th>
          <th scope="col">{draw.entriesColumn}</th>
        </tr>
      </thead>
      <tbody>
        {shown.map(({ pseudonym, entries }) => (
          <tr key={pseudonym}>
            <td>
              <code>{pseudonym}</code>
            </td>
            <td>{entries}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const Section = styled.section`
  display: grid;
  gap: ${theme.space.sm};
  width: 100%;
  h2 {
    margin: 0;
    font-size: 1.2rem;
  }
  input {
    min-height: 44px;
    padding: ${theme.space.sm} ${theme.space.md};
    border: 1px solid ${theme.colors.inputBorder};
    border-radius: ${theme.radii.small};
    background: ${theme.colors.surface};
    color: ${theme.colors.text};
    font: inherit;
  }
  table {
    width: 100%;
    border-collapse: collapse;
  }
  th,
  td {
    padding: ${theme.space.xs} ${theme.space.sm};
    border-bottom: 1px solid ${theme.colors.border};
  }
  code {
    font-family: ${theme.fonts.mono};
  }
`;

const Help = styled.p`
  margin: 0;
  font-size: 0.85rem;
  color: ${theme.colors.textMuted};
`;

export const query = graphql`
  fragment DrawEntrantsContent on SiteContent {
    draw {
      entrantsHeading
      pseudonymColumn
      entriesColumn
      findLabel
      findHelp
      findNoMatch
    }
  }
`;
