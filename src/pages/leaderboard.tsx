import React from "react";
import { graphql, Link, type PageProps } from "gatsby";
import styled from "styled-components";
import { Card, Centered } from "../ui/Card";
import { GiveawayRules } from "../components/GiveawayRules";
import { LeaderboardTable, type LeaderboardView } from "../components/LeaderboardTable";
import { Seo } from "../components/Seo";
import { useLeaderboard } from "../referrals/queries";
import { ReferralQueries } from "../referrals/ReferralQueries";
import { requireSiteContent } from "../lib/requireSiteContent";
import { HOME_PATH, LEADERBOARD_PATH } from "../../shared/routes";
import { theme } from "../styles/theme";

/** The id of the page's heading, which names the table. */
const HEADING_ID = "leaderboard-heading";

/** Route /leaderboard/, built only while the referral program runs. */
const LeaderboardPageBody: React.FC<PageProps<Queries.LeaderboardPageQuery>> = ({ data }) => {
  const content = requireSiteContent(data.siteContent);
  const { leaderboard } = content;
  const board = useLeaderboard();
  const view: LeaderboardView = board.data
    ? { kind: "ready", entries: board.data.slice(0, leaderboard.size) }
    : board.isError
      ? { kind: "failed" }
      : { kind: "pending" };

  return (
    <Centered>
      <Seo content={content} title={leaderboard.pageTitle} path={LEADERBOARD_PATH} />
      <Card>
        <Heading id={HEADING_ID}>{leaderboard.heading}</Heading>
        <Intro>{leaderboard.intro}</Intro>
        <LeaderboardTable content={content} view={view} labelledBy={HEADING_ID} />
        <GiveawayRules content={content} />
        <JoinLink to={HOME_PATH}>{leaderboard.joinLink}</JoinLink>
      </Card>
    </Centered>
  );
};

/** The page inside its query client (the service reads are this page's own). */
const LeaderboardPage: React.FC<PageProps<Queries.LeaderboardPageQuery>> = (props) => (
  <ReferralQueries>
    <LeaderboardPageBody {...props} />
  </ReferralQueries>
);

export default LeaderboardPage;

const Heading = styled.h1`
  margin: 0;
  font-size: clamp(1.75rem, 6vw, 2.4rem);
`;

const Intro = styled.p`
  margin: 0;
  max-width: 46ch;
  color: ${theme.colors.textMuted};
`;

const JoinLink = styled(Link)`
  font-weight: 700;
  text-underline-offset: 3px;
`;

export const query = graphql`
  query LeaderboardPage {
    siteContent(derived: { pagePath: { eq: "/" } }) {
      ...LayoutContent
      ...SeoContent
      ...LeaderboardTableContent
      ...GiveawayRulesContent
      leaderboard {
        pageTitle
        heading
        intro
        size
        joinLink
      }
    }
  }
`;
