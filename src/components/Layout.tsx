import React, { useState } from "react";
import { graphql } from "gatsby";
import styled from "styled-components";
import { ConsentBanner, type ConsentCopy } from "../consent/ConsentBanner";
import { GlobalStyle } from "../styles/GlobalStyle";
import { Toaster, type ToasterCopy } from "../toasts/Toaster";
import { ErrorBoundary } from "./ErrorBoundary";
import { FloatingDecor, MotionToggle, type FloatingDecorCopy } from "./FloatingDecor";

/** What the layout reads from every page's query (fragment LayoutContent). */
export interface LayoutContent {
  readonly toasts: ToasterCopy;
  readonly errorScreen: { readonly title: string; readonly pageTitle: string };
  readonly decorations: FloatingDecorCopy;
  readonly consent: ConsentCopy;
  readonly adPixel?: { readonly id?: string | null } | null;
}

export interface LayoutProps {
  /** From the page's query; null only if a page forgot the fragment. */
  content: LayoutContent | null | undefined;
  /** The current path; resets the error boundary on navigation. */
  pathname: string;
  children: React.ReactNode;
}

/**
 * Around every page (via `wrapPageElement`): the floating background, the
 * error boundary, the toasts and (with a pixel id) the consent banner.
 */
export function Layout({ content, pathname, children }: LayoutProps) {
  const [motionPaused, setMotionPaused] = useState(false);
  if (!content) return <>{children}</>;
  return (
    <>
      {/* Here, not in wrapRootElement: gatsby-plugin-styled-components collects the prerendered CSS
          only inside its own root wrapper, which sits inside ours. */}
      <GlobalStyle />
      <FloatingDecor odds={content.decorations.odds} paused={motionPaused} />
      <Main>
        <ErrorBoundary key={pathname} title={content.errorScreen.title} pageTitle={content.errorScreen.pageTitle}>
          {children}
        </ErrorBoundary>
      </Main>
      <Toaster copy={content.toasts} />
      <MotionToggle copy={content.decorations} paused={motionPaused} onToggle={() => setMotionPaused((paused) => !paused)} />
      <ConsentBanner pixelId={content.adPixel?.id} copy={content.consent} />
    </>
  );
}

const Main = styled.main`
  position: relative;
  z-index: 1;
  display: flex;
  flex-direction: column;
  align-items: center;
  min-height: 100vh;
  padding: 32px 16px 48px;
`;

export const query = graphql`
  fragment LayoutContent on SiteContent {
    toasts {
      closeLabel
      regionLabel
      announceLabel
    }
    errorScreen {
      title
      pageTitle
    }
    decorations {
      odds
      pauseLabel
      playLabel
    }
    consent {
      message
      accept
      decline
    }
    adPixel {
      id
    }
  }
`;
