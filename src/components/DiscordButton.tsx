import { VisuallyHidden } from "../ui/VisuallyHidden";
import styled from "styled-components";
import { theme } from "../styles/theme";

/** A link styled as a button that opens a Discord invite in a new tab (product rule 3). */
export interface DiscordButtonProps {
  /** The invite URL (https, Discord invite host; checked at build time). */
  href: string;
  label: string;
  /** Screen-reader-only hint that the link opens a new tab. */
  newTabHint: string;
}

/** JOIN DISCORD: opens the invite in a new tab with `rel="noopener noreferrer"`. */
export function DiscordButton({ href, label, newTabHint }: DiscordButtonProps) {
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer">
      <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="currentColor">
        <path d="M20.3 4.4A19.6 19.6 0 0 0 15.4 3l-.6 1.3a18.2 18.2 0 0 0-5.6 0L8.6 3a19.5 19.5 0 0 0-4.9 1.5C.6 9.1-.3 13.6.1 18.1a19.8 19.8 0 0 0 6 3l1.3-2.1a12.8 12.8 0 0 1-2-1l.5-.4a14 14 0 0 0 12.2 0l.5.4c-.6.4-1.3.7-2 1l1.3 2.1a19.7 19.7 0 0 0 6-3c.5-5.2-.9-9.7-3.6-13.7ZM8 15.3c-1.2 0-2.2-1.1-2.2-2.4S6.8 10.5 8 10.5s2.2 1.1 2.2 2.4-1 2.4-2.2 2.4Zm8 0c-1.2 0-2.2-1.1-2.2-2.4s1-2.4 2.2-2.4 2.2 1.1 2.2 2.4-1 2.4-2.2 2.4Z" />
      </svg>
      {label}
      <VisuallyHidden> {newTabHint}</VisuallyHidden>
    </Link>
  );
}

const Link = styled.a`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: ${theme.space.md};
  min-height: 52px;
  padding: ${theme.space.lg} ${theme.space.huge};
  border-radius: ${theme.radii.small};
  background: ${theme.colors.discord};
  color: ${theme.colors.onDiscord};
  font-weight: 800;
  letter-spacing: 0.04em;
  text-decoration: none;
  transition: transform 120ms ease-out;
  &:hover {
    transform: translateY(-1px);
  }
`;
