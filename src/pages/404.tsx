import React, { useEffect } from "react";
import { graphql, Link, type PageProps } from "gatsby";
import styled from "styled-components";
import { Card, Centered } from "../ui/Card";
import { Seo } from "../components/Seo";
import { requireSiteContent } from "../lib/requireSiteContent";
import { HOME_PATH } from "../../shared/routes";
import { theme } from "../styles/theme";

/**
 * Any unknown path (product rule 4): the not-found heading, code 404 and a link home.
 * The requested path (as the visitor typed it, not /404.html) is logged to the console.
 */
const NotFoundPage: React.FC<PageProps<Queries.NotFoundPageQuery>> = ({ data, location }) => {
  const content = requireSiteContent(data.siteContent);
  const { notFound } = content;

  useEffect(() => {
    console.error(notFound.consoleMessage, location.pathname);
  }, [notFound.consoleMessage, location.pathname]);

  return (
    <Centered>
      <Seo content={content} title={notFound.pageTitle} path={null} noindex />
      <Card>
        <Code>{notFound.code}</Code>
        <Heading>{notFound.heading}</Heading>
        <HomeLink to={HOME_PATH}>{notFound.homeLink}</HomeLink>
      </Card>
    </Centered>
  );
};

export default NotFoundPage;

const Code = styled.p`
  margin: 0;
  font-family: ${theme.fonts.mono};
  font-size: clamp(3.5rem, 18vw, 6rem);
  font-weight: 800;
  line-height: 1;
  color: ${theme.colors.accent};
`;

const Heading = styled.h1`
  margin: 0;
  font-size: 1.6rem;
`;

const HomeLink = styled(Link)`
  font-weight: 700;
  text-underline-offset: 3px;
`;

export const query = graphql`
  query NotFoundPage {
    siteContent(derived: { pagePath: { eq: "/" } }) {
      ...LayoutContent
      ...SeoContent
      notFound {
        pageTitle
        code
        heading
        homeLink
        consoleMessage
      }
    }
  }
`;
