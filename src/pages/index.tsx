import React, { useEffect } from "react";
import { VisuallyHidden } from "../ui/VisuallyHidden";
import { graphql, navigate, type PageProps } from "gatsby";
import styled from "styled-components";
import { Badges } from "../components/Badges";
import { Card, Centered } from "../ui/Card";
import { Countdown } from "../components/Countdown";
import { Logo } from "../components/Logo";
import { Seo } from "../components/Seo";
import { SignupForm } from "../components/SignupForm";
import { keepReferralCode, referralCodeForSignup } from "../referrals/referralCode";
import { requireSiteContent } from "../lib/requireSiteContent";
import { SUCCESS_PATH } from "../../shared/routes";
import { currentAttribution } from "../signup/attribution";
import { theme } from "../styles/theme";

/**
 * Route / (product rule 1) and every campaign page (product rule 2): the query picks the content node
 * whose `derived.pagePath` is the page's own path. On success it navigates to /success/.
 */
const IndexPage: React.FC<PageProps<Queries.HomePageQuery>> = ({ data }) => {
  const content = requireSiteContent(data.siteContent);
  const { home, links, derived } = content;
  const referralsOn = content.referrals.enabled;

  useEffect(() => {
    if (referralsOn) keepReferralCode(window.location.search);
  }, [referralsOn]);

  const subscribed = () => void navigate(SUCCESS_PATH);
  return (
    <Centered>
      <Seo content={content} title={home.pageTitle} description={content.campaign?.metaDescription} path={derived.pagePath} />
      <Card>
        <Logo src={content.site.logo.src} alt={content.site.logo.alt} brandName={content.site.brandName} />
        <Title>{home.title}</Title>
        <Countdown content={content} />
        <Tagline>{home.tagline}</Tagline>
        <SignupForm
          content={content}
          profileProperties={currentAttribution}
          referralCode={referralsOn ? () => referralCodeForSignup(window.location.search) : undefined}
          onSubscribed={subscribed}
        />
        <SocialLink href={links.social.url} target="_blank" rel="noopener noreferrer">
          {links.social.label}
          <VisuallyHidden> {links.newTabHint}</VisuallyHidden>
        </SocialLink>
        <Privacy>{home.privacyNote}</Privacy>
        <Badges content={content} />
      </Card>
    </Centered>
  );
};

export default IndexPage;

const Title = styled.h1`
  margin: 0;
  font-size: clamp(1.75rem, 6.5vw, 2.5rem);
  line-height: 1.15;
  letter-spacing: -0.01em;
`;

const Tagline = styled.p`
  margin: 0;
  max-width: 44ch;
  font-size: 1.05rem;
  color: ${theme.colors.textMuted};
`;

const SocialLink = styled.a`
  font-weight: 600;
  text-underline-offset: 3px;
`;

const Privacy = styled.p`
  margin: 0;
  max-width: 48ch;
  font-size: 0.85rem;
  color: ${theme.colors.textMuted};
`;

export const query = graphql`
  query HomePage($path: String!) {
    siteContent(derived: { pagePath: { eq: $path } }) {
      ...LayoutContent
      ...SeoContent
      ...CountdownContent
      ...SignupFormContent
      ...BadgesContent
      site {
        brandName
        logo {
          src
          alt
        }
      }
      home {
        pageTitle
        title
        tagline
        privacyNote
      }
      links {
        newTabHint
        social {
          url
          label
        }
      }
      derived {
        pagePath
      }
      referrals {
        enabled
      }
      campaign {
        metaDescription
      }
    }
  }
`;
