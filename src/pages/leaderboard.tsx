import React from "react";
import { graphql, type PageProps } from "gatsby";
import { Card, Centered } from "../ui/Card";
import { PageHeading, PageIntro, PageLink } from "../ui/PageText";
import { GiveawayRules } from "../components/GiveawayRules";
import { LeaderboardTable, type LeaderboardView } from "../components/LeaderboardTable";
import { Seo } from "../components/Seo";
import { useLeaderboard } from "../referrals/queries";
import { ReferralQueries } from "../referrals/ReferralQueries";
import { requireSiteContent } from "../lib/requireSiteContent";
import { HOME_PATH, LEADERBOARD_PATH } from "../../shared/routes";

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
        <PageHeading id={HEADING_ID}>{leaderboard.heading}</PageHeading>
        <PageIntro>{leaderboard.intro}</PageIntro>
        <LeaderboardTable content={content} view={view} labelledBy={HEADING_ID} />
        <GiveawayRules content={content} />
        <PageLink to={HOME_PATH}>{leaderboard.joinLink}</PageLink>
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
