import React from "react";
import { VisuallyHidden } from "../ui/VisuallyHidden";
import { graphql, type PageProps } from "gatsby";
import styled from "styled-components";
import { Card, Centered } from "../ui/Card";
import { InvitationNotice } from "../components/InvitationNotice";
import { DrawPlaceCheck } from "../components/DrawPlaceCheck";
import { LeaderboardChoice } from "../components/LeaderboardChoice";
import { ReferralPanel, type ReferralPanelView } from "../components/ReferralPanel";
import { Seo } from "../components/Seo";
import { StatusTokenRefusedError } from "../referrals/api";
import { useStatus } from "../referrals/queries";
import { useStatusToken } from "../referrals/useStatusToken";
import { ReferralQueries } from "../referrals/ReferralQueries";
import { requireSiteContent } from "../lib/requireSiteContent";
import { STATUS_PATH } from "../../shared/routes";

/**
 * Route /status/ (built only while the referral program runs; never indexed): a person's standing by
 * the token in the fragment (moved out of the address bar once read: useStatusToken), and their choice to be
 * shown on the leaderboard. A missing or unknown token or an unreachable service gets the content's words.
 */
const StatusPageBody: React.FC<PageProps<Queries.StatusPageQuery>> = ({ data }) => {
  const content = requireSiteContent(data.siteContent);
  const { status } = content;
  const token = useStatusToken();
  const personal = useStatus(token ?? null);
  const view: ReferralPanelView =
    token === undefined
      ? { kind: "pending" }
      : token === null
        ? { kind: "message", text: status.missingToken }
        : personal.data?.standing
          ? { kind: "ready", standing: personal.data.standing }
          : personal.error instanceof StatusTokenRefusedError
            ? { kind: "message", text: status.unknownToken }
            : personal.isError
              ? { kind: "message", text: status.unavailable }
              : { kind: "pending" };

  return (
    <Centered>
      <Seo content={content} title={status.pageTitle} path={STATUS_PATH} noindex />
      <Card>
        <Heading>{status.heading}</Heading>
        {/* For screen readers, only until the first answer: the dashes on screen say the same to sighted visitors. */}
        <VisuallyHidden role="status">{typeof token === "string" && personal.isPending ? status.loading : ""}</VisuallyHidden>
        {personal.data?.invitation ? (
          <InvitationNotice content={content} invitation={personal.data.invitation} />
        ) : (
          <ReferralPanel content={content} view={view} noScriptText={status.noScript} />
        )}
        <LeaderboardChoice content={content} token={token ?? null} shown={personal.data?.leaderboardShown ?? null} />
        <DrawPlaceCheck content={content} token={personal.data ? (token ?? null) : null} />
      </Card>
    </Centered>
  );
};

/** The page inside its query client (the service reads are this page's own). */
const StatusPage: React.FC<PageProps<Queries.StatusPageQuery>> = (props) => (
  <ReferralQueries>
    <StatusPageBody {...props} />
  </ReferralQueries>
);

export default StatusPage;

const Heading = styled.h1`
  margin: 0;
  font-size: clamp(1.75rem, 6vw, 2.4rem);
`;

export const query = graphql`
  query StatusPage {
    siteContent(derived: { pagePath: { eq: "/" } }) {
      ...LayoutContent
      ...SeoContent
      ...ReferralPanelContent
      ...LeaderboardChoiceContent
      ...InvitationNoticeContent
      ...DrawPlaceCheckContent
      status {
        pageTitle
        heading
        loading
        missingToken
        unknownToken
        unavailable
        noScript
      }
    }
  }
`;
