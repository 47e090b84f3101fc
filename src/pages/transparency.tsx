import React from "react";
import { graphql, Link, type PageProps } from "gatsby";
import styled from "styled-components";
import { Card, Centered } from "../ui/Card";
import { Seo } from "../components/Seo";
import { TransparencyRecord } from "../components/TransparencyRecord";
import { ReferralQueries } from "../referrals/ReferralQueries";
import { requireSiteContent } from "../lib/requireSiteContent";
import { HOME_PATH, TRANSPARENCY_PATH } from "../../shared/routes";
import { theme } from "../styles/theme";

/** Route /transparency/: the public record, its words static, its figures from the service's published files. */
const TransparencyPage: React.FC<PageProps<Queries.TransparencyPageQuery>> = ({ data }) => {
  const content = requireSiteContent(data.siteContent);
  const { transparency } = content;
  return (
    <Centered>
      <Seo content={content} title={transparency.pageTitle} path={TRANSPARENCY_PATH} />
      <Card>
        <Heading>{transparency.heading}</Heading>
        <Intro>{transparency.intro}</Intro>
        <ReferralQueries>
          <TransparencyRecord content={content} />
        </ReferralQueries>
        <JoinLink to={HOME_PATH}>{transparency.joinLink}</JoinLink>
      </Card>
    </Centered>
  );
};

export default TransparencyPage;

const Heading = styled.h1`
  margin: 0;
  font-size: clamp(1.75rem, 6vw, 2.4rem);
`;

const Intro = styled.p`
  margin: 0;
  max-width: 60ch;
  color: ${theme.colors.textMuted};
`;

const JoinLink = styled(Link)`
  font-weight: 700;
  text-underline-offset: 3px;
`;

export const query = graphql`
  query TransparencyPage {
    siteContent(derived: { pagePath: { eq: "/" } }) {
      ...LayoutContent
      ...SeoContent
      ...TransparencyRecordContent
      transparency {
        pageTitle
        heading
        intro
        joinLink
      }
    }
  }
`;
