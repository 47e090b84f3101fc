import { useEffect, useState } from "react";
import { graphql } from "gatsby";
import styled from "styled-components";
import type { Commitment } from "../../shared/api/draw";
import { commitmentPath } from "../../shared/giveaway/list";
import { theme } from "../styles/theme";
import { DrawCheck } from "./DrawCheck";
import { DrawLookup } from "./DrawLookup";

type Loaded = { kind: "loading" } | { kind: "none" } | { kind: "published"; commitment: Commitment };

/**
 * The published draw, read from the site when the page opens (/giveaway/draw/<id>/draw.json, served by the Worker
 * the moment the operator commits, so no rebuild is needed): the commitment, the winners once drawn, the lookup box
 * and the Verify button. A few KB at any size: the list itself is only ever read by the lookup and by Verify.
 */
export function PublishedDraw({ content }: { content: Queries.PublishedDrawContentFragment }) {
  const { draw } = content;
  const [loaded, setLoaded] = useState<Loaded>({ kind: "loading" });
  useEffect(() => {
    let current = true;
    fetch(commitmentPath(draw.id), { headers: { accept: "application/json" } })
      .then(async (response) => (response.ok ? ((await response.json()) as Commitment) : null))
      .then(
        (commitment) => current && setLoaded(commitment ? { kind: "published", commitment } : { kind: "none" }),
        () => current && setLoaded({ kind: "none" }),
      );
    return () => {
      current = false;
    };
  }, [draw.id]);

  if (loaded.kind === "loading") return <Section aria-busy="true" />;
  if (loaded.kind === "none") return <p>{draw.notCommitted}</p>;
  const file = loaded.commitment;
  return (
    <>
      <Section aria-labelledby="draw-commitment">
        <h2 id="draw-commitment">{draw.commitmentHeading}</h2>
        <Facts>
          <dt>{draw.listHashLabel}</dt>
          <dd>
            <code>{file.listHash}</code>
          </dd>
          <dt>{draw.merkleRootLabel}</dt>
          <dd>
            <code>{file.merkleRoot}</code>
          </dd>
          <dt>{draw.entrantsLabel}</dt>
          <dd>{file.n}</dd>
          <dt>{draw.totalEntriesLabel}</dt>
          <dd>{file.totalEntries}</dd>
          <dt>{draw.roundLabel}</dt>
          <dd>{file.round}</dd>
          <dt>{draw.roundAtLabel}</dt>
          <dd>
            <time dateTime={file.roundAt}>{file.roundAt}</time>
          </dd>
          <dt>{draw.chainLabel}</dt>
          <dd>
            <code>{file.chain.hash}</code>
          </dd>
        </Facts>
        <a href={file.listUrl}>{draw.listLink}</a>
      </Section>
      <Section aria-labelledby="draw-winners">
        <h2 id="draw-winners">{draw.winnersHeading}</h2>
        {file.result ? (
          <ol>
            {file.result.winners.map(({ pseudonym }) => (
              <li key={pseudonym}>
                <code>{pseudonym}</code>
              </li>
            ))}
          </ol>
        ) : (
          <p>{draw.notDrawnYet.replace("{round}", String(file.round))}</p>
        )}
      </Section>
      <DrawCheck content={content} commitment={file} listBytes={file.listBytes} />
      <DrawLookup content={content} drawId={file.draw} listUrl={file.listUrl} n={file.n} />
    </>
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
  ol {
    margin: 0;
    padding: 0;
    list-style-position: inside;
  }
  code {
    font-family: ${theme.fonts.mono};
  }
`;

const Facts = styled.dl`
  display: grid;
  gap: ${theme.space.xxs};
  margin: 0;
  dt {
    color: ${theme.colors.textMuted};
    font-size: 0.85rem;
  }
  dd {
    margin: 0 0 ${theme.space.sm};
    overflow-wrap: anywhere;
  }
`;

export const query = graphql`
  fragment PublishedDrawContent on SiteContent {
    ...DrawCheckContent
    ...DrawLookupContent
    draw {
      id
      notCommitted
      commitmentHeading
      listHashLabel
      merkleRootLabel
      entrantsLabel
      totalEntriesLabel
      listLink
      roundLabel
      roundAtLabel
      chainLabel
      winnersHeading
      notDrawnYet
    }
  }
`;
