import React from "react";
import { graphql, type PageProps } from "gatsby";
import { Card, Centered } from "../ui/Card";
import { PageHeading, PageIntro, PageLink } from "../ui/PageText";
import { Seo } from "../components/Seo";
import { TransparencyRecord } from "../components/TransparencyRecord";
import { ReferralQueries } from "../referrals/ReferralQueries";
import { requireSiteContent } from "../lib/requireSiteContent";
import { HOME_PATH, TRANSPARENCY_PATH } from "../../shared/routes";

/** Route /transparency/: the public record, its words static, its figures from the service's published files. */
const TransparencyPage: React.FC<PageProps<Queries.TransparencyPageQuery>> = ({ data }) => {
  const content = requireSiteContent(data.siteContent);
  const { transparency } = content;
  return (
    <Centered>
      <Seo content={content} title={transparency.pageTitle} path={TRANSPARENCY_PATH} />
      <Card>
        <PageHeading>{transparency.heading}</PageHeading>
        <PageIntro>{transparency.intro}</PageIntro>
        <ReferralQueries>
          <TransparencyRecord content={content} />
        </ReferralQueries>
        <PageLink to={HOME_PATH}>{transparency.joinLink}</PageLink>
      </Card>
    </Centered>
  );
};

export default TransparencyPage;

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
