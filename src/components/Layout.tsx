import React, { Suspense, useState } from "react";
import { graphql } from "gatsby";
import styled from "styled-components";
import { ConsentBanner } from "../consent/ConsentBanner";
import { Toasts } from "../toasts/Toasts";
import { ErrorBoundary } from "./ErrorBoundary";
import { FloatingDecor, MotionToggle } from "./FloatingDecor";
import { theme } from "../styles/theme";

/** What the layout reads from every page's query (fragment LayoutContent below). */
export type LayoutContent = Queries.LayoutContentFragment;

export interface LayoutProps {
  /** From the page's query; null only if a page forgot the fragment. */
  content: LayoutContent | null | undefined;
  /** The current path; resets the error boundary on navigation. */
  pathname: string;
  children: React.ReactNode;
}

/**
 * Around every page: the background, the consent banner, the error boundary, a footer and the toasts.
 * Nothing but the toasts is drawn over the page. The Suspense boundaries suspend nothing: they let
 * React hydrate in interruptible pieces, so a visitor's input is handled between them.
 */
export function Layout({ content, pathname, children }: LayoutProps) {
  const [motionPaused, setMotionPaused] = useState(false);
  if (!content) return <>{children}</>;
  return (
    <>
      <Suspense fallback={null}>
        <FloatingDecor odds={content.decorations.odds} paused={motionPaused} />
      </Suspense>
      <Page>
        <ConsentBanner content={content} pathname={pathname} />
        <Main>
          <ErrorBoundary key={pathname} title={content.errorScreen.title} pageTitle={content.errorScreen.pageTitle}>
            <Suspense fallback={null}>{children}</Suspense>
          </ErrorBoundary>
        </Main>
        <Footer>
          <Suspense fallback={null}>
            <MotionToggle copy={content.decorations} paused={motionPaused} onToggle={() => setMotionPaused((paused) => !paused)} />
          </Suspense>
        </Footer>
      </Page>
      <Toasts content={content} />
    </>
  );
}

/** At least the viewport's height, so that a short page's footer rests at its bottom. */
const Page = styled.div`
  position: relative;
  z-index: ${theme.layers.page};
  display: flex;
  flex-direction: column;
  min-height: 100vh;
`;

const Main = styled.main`
  display: flex;
  flex: 1 0 auto;
  flex-direction: column;
  align-items: center;
  padding: ${theme.space.vast} ${theme.space.base} ${theme.space.xxxl};
`;

// In the page flow, below the content: it covers nothing at any screen size, scroll position or zoom.
const Footer = styled.footer`
  display: flex;
  justify-content: center;
  padding: 0 ${theme.space.base} ${theme.space.vast};
  /* Its one control pauses the background, which the visitor's system already stops (the global CSS, src/styles/globalCss.tsx):
     nothing to offer, and an empty footer landmark would only be noise to a screen reader. */
  @media (prefers-reduced-motion: reduce) {
    display: none;
  }
`;

export const query = graphql`
  fragment LayoutContent on SiteContent {
    ...FloatingDecorContent
    ...ToastsContent
    ...ConsentBannerContent
    errorScreen {
      title
      pageTitle
    }
  }
`;
