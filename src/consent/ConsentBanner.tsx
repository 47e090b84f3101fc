import { useEffect, useState } from "react";
import { graphql } from "gatsby";
import styled from "styled-components";
import { loadMetaPixel, loadPixelIfConsented, readConsent, writeConsent, type ConsentChoice } from "./pixel";

/**
 * Asks before the ad pixel loads (product rule 21). Shown only when a pixel id is
 * configured and the visitor has not answered yet; Accept and Decline are
 * equal buttons side by side. The choice is remembered in localStorage.
 * Rendered after hydration only (the answer lives in the browser), as a fixed
 * bar, so it shifts no layout.
 */
export function ConsentBanner({ content }: { content: Queries.ConsentBannerContentFragment }) {
  const { consent: copy } = content;
  const pixelId = content.adPixel?.id;
  const [choice, setChoice] = useState<ConsentChoice | null | "unknown">("unknown");

  useEffect(() => {
    // Without a pixel there is nothing to ask: not even localStorage is touched. A first storage read
    // opens the browser's storage (several ms on a phone), which would land right after hydration.
    if (!pixelId) return;
    setChoice(readConsent());
    loadPixelIfConsented(pixelId);
  }, [pixelId]);

  if (!pixelId || choice !== null) return null;

  const answer = (value: ConsentChoice) => {
    writeConsent(value);
    setChoice(value);
    if (value === "accepted") loadMetaPixel(pixelId);
  };

  return (
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
  );
}

const Bar = styled.div`
  position: fixed;
  left: 50%;
  bottom: ${({ theme }) => theme.space.base};
  z-index: ${({ theme }) => theme.layers.consent};
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => `${theme.space.lg} ${theme.space.base}`};
  width: min(640px, calc(100vw - ${({ theme }) => theme.space.vast}));
  padding: ${({ theme }) => `${theme.space.xl} ${theme.space.base}`};
  transform: translateX(-50%);
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.medium};
  background: ${({ theme }) => theme.colors.surfaceRaised};
  box-shadow: ${({ theme }) => theme.shadows.popup};
  p {
    flex: 1 1 260px;
    margin: 0;
    font-size: 0.9rem;
  }
`;

const Buttons = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space.md};
`;

// Both buttons share one style: declining is exactly as easy as accepting.
const Choice = styled.button`
  min-width: 96px;
  min-height: 44px;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.base}`};
  border: 1px solid ${({ theme }) => theme.colors.text};
  border-radius: ${({ theme }) => theme.radii.small};
  background: transparent;
  color: ${({ theme }) => theme.colors.text};
  font: inherit;
  font-weight: 700;
  cursor: pointer;
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
