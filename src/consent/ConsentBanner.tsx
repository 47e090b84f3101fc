import { useEffect, useState } from "react";
import { graphql } from "gatsby";
import styled from "styled-components";
import {
  CONSENT_QUESTION_ATTRIBUTE,
  CONSENT_QUESTION_SCRIPT,
  loadMetaPixel,
  loadPixelIfConsented,
  pixelAllowedOn,
  readConsent,
  showConsentQuestion,
  writeConsent,
  type ConsentChoice,
} from "./pixel";
import { outlineButton } from "../ui/buttonLooks";
import { theme } from "../styles/theme";

/**
 * Asks before the ad pixel loads (product rule 21), with equal Accept and Decline buttons. A bar in the
 * page's flow, shown by the inline script before the first paint, so it shifts no layout and never
 * covers the focused field (WCAG 2.4.11), as a fixed bar would. Never on PIXEL_FREE_PATHS.
 */
export function ConsentBanner({ content, pathname }: { content: Queries.ConsentBannerContentFragment; pathname: string }) {
  const { consent: copy } = content;
  // On a pixel-free page (the status page) there is neither a pixel nor a question about it.
  const pixelId = pixelAllowedOn(pathname) ? content.adPixel?.id : null;
  // "unknown" until the browser's storage is read after hydration: the server's HTML and the first render agree.
  const [choice, setChoice] = useState<ConsentChoice | null | "unknown">("unknown");

  useEffect(() => {
    // Without a pixel there is nothing to ask: not even localStorage is touched, since a first read opens
    // the browser's storage right after hydration.
    if (!pixelId) return;
    const remembered = readConsent();
    // The inline script decided at parse time; this decides again for a banner that React mounted without running
    // it (React never runs a script it inserts), and agrees with it otherwise.
    showConsentQuestion(remembered === null);
    setChoice(remembered);
    loadPixelIfConsented(pixelId);
  }, [pixelId]);

  if (!pixelId || choice === "accepted" || choice === "declined") return null;

  const answer = (value: ConsentChoice) => {
    writeConsent(value);
    showConsentQuestion(false);
    setChoice(value);
    if (value === "accepted") loadMetaPixel(pixelId);
  };

  return (
    <>
      <Bar role="region" aria-labelledby="consent-message">
        <p id="consent-message">{copy.message}</p>
        <Buttons>
          <Choice type="button" onClick={() => answer("declined")}>
            {copy.decline}
          </Choice>
          <Choice type="button" onClick={() => answer("accepted")}>
            {copy.accept}
          </Choice>
        </Buttons>
      </Bar>
      <script dangerouslySetInnerHTML={{ __html: CONSENT_QUESTION_SCRIPT }} />
    </>
  );
}

/** Hidden until CONSENT_QUESTION_ATTRIBUTE is on `<html>`; the page's width, its contents in a centred column. */
const Bar = styled.div`
  display: none;
  :root[${CONSENT_QUESTION_ATTRIBUTE}] & {
    display: flex;
  }
  flex-wrap: wrap;
  align-items: center;
  justify-content: center;
  gap: ${theme.space.lg} ${theme.space.base};
  padding: ${theme.space.xl} max(${theme.space.base}, calc((100% - 640px) / 2));
  border-bottom: 1px solid ${theme.colors.border};
  background: ${theme.colors.surfaceRaised};
  p {
    flex: 1 1 260px;
    margin: 0;
    font-size: 0.9rem;
  }
`;

const Buttons = styled.div`
  display: flex;
  gap: ${theme.space.md};
`;

// Both buttons share one style: declining is exactly as easy as accepting.
const Choice = styled.button`
  ${outlineButton}
  min-width: 96px;
  padding: ${theme.space.sm} ${theme.space.base};
`;

export const query = graphql`
  fragment ConsentBannerContent on SiteContent {
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
