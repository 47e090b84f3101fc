import React, { useEffect } from "react";
import { graphql, Link, type PageProps } from "gatsby";
import styled from "styled-components";
import { Card, Centered } from "../ui/Card";
import { DiscordButton } from "../components/DiscordButton";
import { GiveawayRules } from "../components/GiveawayRules";
import { Seo } from "../components/Seo";
import { loadPixelIfConsented, trackLead } from "../consent/pixel";
import { requireSiteContent } from "../lib/requireSiteContent";
import { LEADERBOARD_PATH, SUCCESS_PATH } from "../../shared/routes";
import { theme } from "../styles/theme";

/**
 * Route /success/ (product rules 3, 22): welcome card and one `Lead`; while the referral program runs, a second card
 * sending the visitor to their inbox for their place in line and referral link. The same page for everyone, with or
 * without JavaScript: the signup's answer says nothing about the person, so a newcomer and someone already on the list
 * read the same words, which speak to both.
 */
const SuccessPage: React.FC<PageProps<Queries.SuccessPageQuery>> = ({ data }) => {
  const content = requireSiteContent(data.siteContent);
  const { success, links, referrals } = content;

  const pixelId = content.adPixel?.id;
  useEffect(() => {
    // Page effects run before the layout's, so make sure a consented pixel exists before tracking.
    loadPixelIfConsented(pixelId);
    trackLead();
  }, [pixelId]);

  const welcome = (
    <Card>
      <Check aria-hidden="true" viewBox="0 0 48 48" width="64" height="64">
        <circle cx="24" cy="24" r="22" fill="none" stroke="currentColor" strokeWidth="3" />
        <path d="M14 25l7 7 13-15" fill="none" stroke="currentColor" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
      </Check>
      <Heading>{success.heading}</Heading>
      <Text>{success.text}</Text>
      <Subtext>{success.subtext}</Subtext>
      <DiscordButton href={links.discordInviteUrl} label={success.button} newTabHint={links.newTabHint} />
    </Card>
  );

  return (
    <Centered>
      <Seo content={content} title={success.pageTitle} path={SUCCESS_PATH} noindex />
      {referrals.enabled ? (
        <Cards>
          {welcome}
          <Card>
            <Envelope aria-hidden="true" viewBox="0 0 48 48" width="56" height="56">
              <rect x="5" y="11" width="38" height="26" rx="3" fill="none" stroke="currentColor" strokeWidth="3" />
              <path d="M7 14l17 13 17-13" fill="none" stroke="currentColor" strokeWidth="3" strokeLinejoin="round" />
            </Envelope>
            <InboxHeading>{referrals.checkInbox.heading}</InboxHeading>
            <Text>{referrals.checkInbox.text}</Text>
            <LeaderboardLink to={LEADERBOARD_PATH}>{referrals.leaderboardLink}</LeaderboardLink>
            <GiveawayRules content={content} />
          </Card>
        </Cards>
      ) : (
        welcome
      )}
    </Centered>
  );
};

export default SuccessPage;

/** The welcome card and the referral card, one above the other. */
const Cards = styled.div`
  display: grid;
  justify-items: center;
  gap: ${theme.space.xxl};
  width: 100%;
`;

const Check = styled.svg`
  color: ${theme.colors.accent};
`;

const Envelope = styled.svg`
  color: ${theme.colors.gold};
`;

const InboxHeading = styled.h2`
  margin: 0;
  font-size: clamp(1.4rem, 5.5vw, 1.9rem);
  line-height: 1.2;
`;

const LeaderboardLink = styled(Link)`
  font-weight: 600;
  text-underline-offset: 3px;
`;

const Heading = styled.h1`
  margin: 0;
  font-size: clamp(1.75rem, 6vw, 2.4rem);
`;

const Text = styled.p`
  margin: 0;
  max-width: 42ch;
  font-size: 1.05rem;
`;

const Subtext = styled.p`
  margin: 0;
  color: ${theme.colors.gold};
  font-weight: 700;
`;

export const query = graphql`
  query SuccessPage {
    siteContent(derived: { pagePath: { eq: "/" } }) {
      ...LayoutContent
      ...SeoContent
      ...GiveawayRulesContent
      success {
        pageTitle
        heading
        text
        subtext
        button
      }
      links {
        discordInviteUrl
        newTabHint
      }
      adPixel {
        id
      }
      referrals {
        enabled
        leaderboardLink
        checkInbox {
          heading
          text
        }
      }
    }
  }
`;
