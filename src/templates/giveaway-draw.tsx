import React from "react";
import { graphql, type PageProps } from "gatsby";
import styled from "styled-components";
import { Card, Centered } from "../ui/Card";
import { GiveawayRules } from "../components/GiveawayRules";
import { PublishedDraw } from "../components/PublishedDraw";
import { Seo } from "../components/Seo";
import { requireSiteContent } from "../lib/requireSiteContent";
import { GIVEAWAY_DRAW_PATH } from "../../shared/routes";
import { cutoffOf, roundOfRules } from "../../shared/giveaway/rules";
import { theme } from "../styles/theme";

/**
 * Route /giveaway/draw/ (docs/operators.md: "The giveaway draw"): the rules fixed before entries close (the draw, its
 * cut-off, its winners and the drand round they name), how winners are selected, then the published draw, read from
 * the site when the page opens (PublishedDraw). The page's HTML is the same at any number of entrants.
 */
const GiveawayDrawPage: React.FC<PageProps<Queries.GiveawayDrawPageQuery>> = ({ data }) => {
  const content = requireSiteContent(data.siteContent);
  const { draw } = content;
  const rules = { id: draw.id, cutoff: draw.cutoff, winners: draw.winners, roundDelayHours: draw.roundDelayHours };
  const { roundAt } = roundOfRules(draw.chain, rules);
  const rulesText = draw.rulesFixed
    .replace("{draw}", draw.id)
    .replace("{cutoff}", cutoffOf(rules))
    .replace("{winners}", String(draw.winners))
    .replace("{delayHours}", String(draw.roundDelayHours))
    .replace("{roundAt}", roundAt);

  return (
    <Centered>
      <Seo content={content} title={draw.pageTitle} path={GIVEAWAY_DRAW_PATH} />
      <Card>
        <Heading>{draw.heading}</Heading>
        <Rules>
          <p>{rulesText}</p>
          <p>{draw.howWinnersAreSelected}</p>
          <p>{draw.odds}</p>
          <p>{draw.wherePublished}</p>
        </Rules>
        <PublishedDraw content={content} />
        <GiveawayRules content={content} />
      </Card>
    </Centered>
  );
};

export default GiveawayDrawPage;

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

export const query = graphql`
  query GiveawayDrawPage {
    siteContent(derived: { pagePath: { eq: "/" } }) {
      ...LayoutContent
      ...SeoContent
      ...GiveawayRulesContent
      ...PublishedDrawContent
      draw {
        id
        cutoff
        winners
        roundDelayHours
        rulesFixed
        pageTitle
        heading
        howWinnersAreSelected
        odds
        wherePublished
        chain {
          hash
          publicKey
          period
          genesis
        }
      }
    }
  }
`;
