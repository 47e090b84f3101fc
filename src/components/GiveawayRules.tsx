import { VisuallyHidden } from "../ui/VisuallyHidden";
import { graphql } from "gatsby";
import styled from "styled-components";
import { theme } from "../styles/theme";

/** What the rules line reads from the page's query (fragment GiveawayRulesContent below). */
export type GiveawayRulesContent = Queries.GiveawayRulesContentFragment;

/** The giveaway's legal line and rules link: sweepstakes rules expect both wherever entries are counted. */
export function GiveawayRules({ content }: { content: GiveawayRulesContent }) {
  const { giveaway, links } = content;
  return (
    <Rules>
      {giveaway.noPurchaseNecessary}{" "}
      <a href={giveaway.rulesUrl} target="_blank" rel="noopener noreferrer">
        {giveaway.rulesLink}
        <VisuallyHidden> {links.newTabHint}</VisuallyHidden>
      </a>
    </Rules>
  );
}

const Rules = styled.p`
  margin: 0;
  max-width: 52ch;
  font-size: 0.8rem;
  color: ${theme.colors.textMuted};
  a {
    color: ${theme.colors.text};
    font-weight: 600;
    text-underline-offset: 3px;
  }
`;

export const query = graphql`
  fragment GiveawayRulesContent on SiteContent {
    giveaway {
      rulesUrl
      rulesLink
      noPurchaseNecessary
    }
    links {
      newTabHint
    }
  }
`;
