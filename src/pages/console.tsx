import React, { useEffect, useState } from "react";
import { graphql, type PageProps } from "gatsby";
import styled from "styled-components";
import { Seo } from "../components/Seo";
import type { ConsoleAppProps } from "../console/ConsoleApp";
import { requireSiteContent } from "../lib/requireSiteContent";
import { theme } from "../styles/theme";
import { CONSOLE_PATH } from "../../shared/routes";

/** Where the console app stands while its chunk loads, or that it could not be loaded. */
type AppState = { kind: "loading" } | { kind: "ready"; App: React.ComponentType<ConsoleAppProps> } | { kind: "failed" };

/**
 * Route /console/ (never indexed, not in the sitemap, no ad pixel): the operator's console. The prerendered page is a
 * shell, its heading and a message for a browser without JavaScript; the app is a chunk of its own, imported after
 * hydration, so no public page's scripts carry the console, its chart or its dialog.
 */
const ConsolePage: React.FC<PageProps<Queries.ConsolePageQuery>> = ({ data }) => {
  const content = requireSiteContent(data.siteContent);
  const copy = content.console;
  const [state, setState] = useState<AppState>({ kind: "loading" });

  useEffect(() => {
    let live = true;
    import("../console/ConsoleApp").then(
      (module) => live && setState({ kind: "ready", App: module.ConsoleApp }),
      () => live && setState({ kind: "failed" }),
    );
    return () => {
      live = false;
    };
  }, []);

  return (
    <Wide>
      <Seo content={content} title={copy.pageTitle} path={CONSOLE_PATH} noindex />
      <Heading>{copy.heading}</Heading>
      <noscript>
        <p>{copy.noScript}</p>
      </noscript>
      {state.kind === "ready" ? (
        <state.App content={content} />
      ) : (
        <p role={state.kind === "failed" ? "alert" : "status"}>{state.kind === "failed" ? copy.errors.unavailable : copy.loading}</p>
      )}
    </Wide>
  );
};

export default ConsolePage;

/** The console uses the page's width: its tables and chart need it. */
const Wide = styled.div`
  display: grid;
  gap: ${theme.space.xxl};
  width: 100%;
  max-width: 1200px;
  align-content: start;
`;

const Heading = styled.h1`
  margin: 0;
  font-size: clamp(1.5rem, 5vw, 2.2rem);
`;

export const query = graphql`
  query ConsolePage {
    siteContent(derived: { pagePath: { eq: "/" } }) {
      ...LayoutContent
      ...SeoContent
      ...ConsoleContent
    }
  }
`;
