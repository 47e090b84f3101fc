import React from "react";
import { graphql, type PageProps } from "gatsby";
import styled from "styled-components";
import { Card, Centered } from "../ui/Card";
import { DrawCheck } from "../components/DrawCheck";
import { DrawEntrants } from "../components/DrawEntrants";
import { GiveawayRules } from "../components/GiveawayRules";
import { Seo } from "../components/Seo";
import { requireSiteContent } from "../lib/requireSiteContent";
import { GIVEAWAY_DRAW_PATH } from "../../shared/routes";
import type { DrawFile } from "../../shared/giveaway/draw-file";
import { theme } from "../styles/theme";

/** gatsby-node's context: the draw file's text as the draw command wrote it, or null before the draw is committed. */
interface DrawPageContext {
  drawFile: string | null;
}

/**
 * Route /giveaway/draw/ (docs/operators.md: "The giveaway draw"): how winners are selected, then the commitment (the list's
 * SHA-256, the drand round and when it is published), the winners once drawn, the Verify button and the entrants with
 * a box to find oneself. Before the draw is committed: the rules' wording and the content's "not committed yet".
 */
const GiveawayDrawPage: React.FC<PageProps<Queries.GiveawayDrawPageQuery, DrawPageContext>> = ({ data, pageContext }) => {
  const content = requireSiteContent(data.siteContent);
  const { draw } = content;
  const file = pageContext.drawFile === null ? null : (JSON.parse(pageContext.drawFile) as DrawFile);

  return (
    <Centered>
      <Seo content={content} title={draw.pageTitle} path={GIVEAWAY_DRAW_PATH} />
      <Card>
        <Heading>{draw.heading}</Heading>
        <Rules>
          <p>{draw.howWinnersAreSelected}</p>
          <p>{draw.odds}</p>
          <p>{draw.wherePublished}</p>
        </Rules>
        {file === null || pageContext.drawFile === null ? (
          <p>{draw.notCommitted}</p>
        ) : (
          <>
            <Commitment draw={draw} file={file} />
            <Section aria-labelledby="draw-winners">
              <h2 id="draw-winners">{draw.winnersHeading}</h2>
              {file.result ? (
                <ol>
                  {file.result.winners.map((pseudonym) => (
                    <li key={pseudonym}>
                      <code>{pseudonym}</code>
                    </li>
                  ))}
                </ol>
              ) : (
                <p>{draw.notDrawnYet.replace("{round}", String(file.round))}</p>
              )}
            </Section>
            <DrawCheck content={content} drawFile={pageContext.drawFile} />
            <DrawEntrants content={content} drawId={file.draw} entrants={file.entrants} />
          </>
        )}
        <GiveawayRules content={content} />
      </Card>
    </Centered>
  );
};

export default GiveawayDrawPage;

type DrawCopy = NonNullable<Queries.GiveawayDrawPageQuery["siteContent"]>["draw"];

/** What the draw committed to before anyone could know the round: the list's hash, the round, the cut-off, the chain. */
function Commitment({ draw, file }: { draw: DrawCopy; file: DrawFile }) {
  return (
    <Section aria-labelledby="draw-commitment">
      <h2 id="draw-commitment">{draw.commitmentHeading}</h2>
      <Facts>
        <dt>{draw.listHashLabel}</dt>
        <dd>
          <code>{file.listHash}</code>
        </dd>
        <dt>{draw.roundLabel}</dt>
        <dd>{file.round}</dd>
        <dt>{draw.roundAtLabel}</dt>
        <dd>
          <time dateTime={file.roundAt}>{file.roundAt}</time>
        </dd>
        <dt>{draw.cutoffLabel}</dt>
        <dd>
          <time dateTime={file.cutoff}>{file.cutoff}</time>
        </dd>
        <dt>{draw.winnerCountLabel}</dt>
        <dd>{file.winnerCount}</dd>
        <dt>{draw.chainLabel}</dt>
        <dd>
          <code>{draw.chain.hash}</code>
        </dd>
      </Facts>
    </Section>
  );
}

const Heading = styled.h1`
  margin: 0;
  font-size: clamp(1.75rem, 6vw, 2.4rem);
`;

const Rules = styled.div`
  display: grid;
  gap: ${theme.space.sm};
  max-width: 52ch;
  color: ${theme.colors.textMuted};
  p {
    margin: 0;
  }
`;

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
  code {
    font-family: ${theme.fonts.mono};
  }
`;

export const query = graphql`
  query GiveawayDrawPage {
    siteContent(derived: { pagePath: { eq: "/" } }) {
      ...LayoutContent
      ...SeoContent
      ...GiveawayRulesContent
      ...DrawCheckContent
      ...DrawEntrantsContent
      draw {
        pageTitle
        heading
        howWinnersAreSelected
        odds
        wherePublished
        notCommitted
        commitmentHeading
        listHashLabel
        roundLabel
        roundAtLabel
        chainLabel
        cutoffLabel
        winnerCountLabel
        winnersHeading
        notDrawnYet
        chain {
          hash
        }
      }
    }
  }
`;
