import { useEffect, useId, useRef, useState } from "react";
import { VisuallyHidden } from "../ui/VisuallyHidden";
import { graphql } from "gatsby";
import styled from "styled-components";
import { copyOrSelect } from "../referrals/clipboard";
import { canWebShare, openShareMenu, SHARE_NETWORKS, shareLinks, webShareData } from "../referrals/share";
import { useToasts } from "../toasts/ToastProvider";
import { primaryButton } from "../ui/primaryButton";
import { theme } from "../styles/theme";

/** What the share controls read from the page's query (fragment ShareControlsContent below). */
export type ShareControlsContent = Queries.ShareControlsContentFragment;

/** How long the copy button says "Copied" (ms): long enough to read, short enough to copy again. */
export const COPIED_FEEDBACK_MS = 2_000;

export interface ShareControlsProps {
  content: ShareControlsContent;
  /** The visitor's referral link; null while it is not known yet (the controls keep their place, disabled). */
  link: string | null;
}

/**
 * The referral link with copy, share-menu and network controls. Nothing moves when the link or the
 * share button arrives: every box is in the HTML, the copy button is as wide as its longer label.
 * "Copied" is announced through a polite live region.
 */
export function ShareControls({ content, link }: ShareControlsProps) {
  const { referrals: copy, links } = content;
  const fieldId = useId();
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const [canShare, setCanShare] = useState(false);
  const { showToast } = useToasts();
  const shareData = link ? webShareData(copy.shareMessage, link) : null;
  const networkLinks = link ? shareLinks(copy.shareMessage, link) : null;

  useEffect(() => {
    // navigator is only known in the browser, after hydration: the button is added then.
    setCanShare(link !== null && canWebShare(navigator, webShareData(copy.shareMessage, link)));
  }, [link, copy.shareMessage]);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copyLink = async () => {
    if (!link) return;
    if ((await copyOrSelect(link, field.current)) === "copied") setCopied(true);
    else showToast({ variant: "success", title: copy.linkLabel, message: copy.copyManually });
  };

  return (
    <Controls>
      <Label htmlFor={fieldId}>{copy.linkLabel}</Label>
      <LinkBox id={fieldId} ref={field} type="url" readOnly value={link ?? ""} onFocus={(event) => event.currentTarget.select()} />
      <Buttons>
        <Button type="button" disabled={!link} onClick={() => void copyLink()}>
          <Stacked aria-hidden={copied} data-shown={!copied}>
            {copy.copyButton}
          </Stacked>
          <Stacked aria-hidden={!copied} data-shown={copied}>
            {copy.copied}
          </Stacked>
        </Button>
        {canShare && shareData ? (
          <Button type="button" onClick={() => void openShareMenu(navigator, shareData)}>
            {copy.shareButton}
          </Button>
        ) : null}
      </Buttons>
      <VisuallyHidden role="status">{copied ? copy.copied : ""}</VisuallyHidden>
      <Networks aria-label={copy.shareLinks.label}>
        {SHARE_NETWORKS.map((network) => (
          <li key={network}>
            <NetworkLink href={networkLinks?.[network]} target="_blank" rel="noopener noreferrer" aria-disabled={!networkLinks}>
              {copy.shareLinks[network]}
              <VisuallyHidden> {links.newTabHint}</VisuallyHidden>
            </NetworkLink>
          </li>
        ))}
      </Networks>
    </Controls>
  );
}

const Controls = styled.div`
  display: grid;
  gap: ${theme.space.md};
  width: 100%;
  text-align: left;
`;

const Label = styled.label`
  font-size: 0.9rem;
  font-weight: 600;
`;

const LinkBox = styled.input`
  width: 100%;
  min-height: 48px;
  padding: ${theme.space.lg} ${theme.space.xl};
  border: 1px solid ${theme.colors.inputBorder};
  border-radius: ${theme.radii.small};
  background: ${theme.colors.background};
  color: ${theme.colors.text};
  font-family: ${theme.fonts.mono};
  font-size: 0.95rem;
  &:focus-visible {
    outline: 3px solid ${theme.colors.focus};
    outline-offset: 1px;
  }
`;

const Buttons = styled.div`
  display: grid;
  grid-auto-flow: column;
  grid-auto-columns: minmax(0, 1fr);
  gap: ${theme.space.md};
`;

const Button = styled.button`
  ${primaryButton}
  display: grid;
  place-items: center;
  min-height: 48px;
  padding: ${theme.space.md} ${theme.space.xl};
  &:disabled {
    cursor: default;
    opacity: 0.6;
  }
  &:focus-visible {
    outline: 3px solid ${theme.colors.focus};
    outline-offset: 2px;
  }
`;

/** Both labels share one grid cell, so the button is as wide as the longer one whichever is shown. */
const Stacked = styled.span`
  grid-area: 1 / 1;
  &[data-shown="false"] {
    visibility: hidden;
  }
`;

const Networks = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm} ${theme.space.lg};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const NetworkLink = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: 44px;
  padding: 0 ${theme.space.lg};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radii.pill};
  color: ${theme.colors.text};
  font-size: 0.9rem;
  font-weight: 600;
  text-decoration: none;
  &:hover {
    background: ${theme.colors.hoverTint};
  }
  &[aria-disabled="true"] {
    opacity: 0.6;
  }
`;

export const query = graphql`
  fragment ShareControlsContent on SiteContent {
    referrals {
      linkLabel
      copyButton
      copied
      copyManually
      shareButton
      shareMessage
      shareLinks {
        label
        x
        whatsapp
        telegram
        facebook
        reddit
      }
    }
    links {
      newTabHint
    }
  }
`;
