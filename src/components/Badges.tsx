import * as Tooltip from "@radix-ui/react-tooltip";
import styled from "styled-components";

interface BadgeCopy {
  readonly label: string;
  readonly tooltip: string;
}

/** Badge copy (content/site.yaml → home.badges). */
export interface BadgesCopy {
  readonly ssl: BadgeCopy;
  readonly gdpr: BadgeCopy;
}

const ICONS = {
  ssl: <path d="M7 10V7a5 5 0 0 1 10 0v3M5 10h14v11H5z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />,
  gdpr: <path d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5l-8-3Zm-3.5 10 2.5 2.5 4.5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" strokeLinecap="round" />,
};

/**
 * The 'SSL Secured' and 'GDPR Compliant' badges (spec §2), each with a Radix
 * tooltip explaining it in one sentence. Triggers are buttons so keyboard users
 * reach the tooltip too; delays come from the Tooltip.Provider (spec §9).
 */
export function Badges({ copy }: { copy: BadgesCopy }) {
  return (
    <List>
      {(["ssl", "gdpr"] as const).map((key) => (
        <li key={key}>
          <Tooltip.Root>
            <Tooltip.Trigger asChild>
              <Badge type="button">
                <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24">
                  {ICONS[key]}
                </svg>
                {copy[key].label}
              </Badge>
            </Tooltip.Trigger>
            <Tooltip.Portal>
              <Content side="top" sideOffset={6}>
                {copy[key].tooltip}
                <Arrow />
              </Content>
            </Tooltip.Portal>
          </Tooltip.Root>
        </li>
      ))}
    </List>
  );
}

const List = styled.ul`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 10px;
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Badge = styled.button`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 36px;
  padding: 6px 12px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.surfaceRaised};
  color: ${({ theme }) => theme.colors.accent};
  font: inherit;
  font-size: 0.85rem;
  font-weight: 600;
  cursor: help;
`;

const Content = styled(Tooltip.Content)`
  max-width: 260px;
  padding: 8px 12px;
  border-radius: ${({ theme }) => theme.radii.small};
  background: ${({ theme }) => theme.colors.text};
  color: ${({ theme }) => theme.colors.background};
  font-size: 0.85rem;
  line-height: 1.4;
  box-shadow: 0 8px 24px rgb(0 0 0 / 40%);
  z-index: 50;
`;

const Arrow = styled(Tooltip.Arrow)`
  fill: ${({ theme }) => theme.colors.text};
`;
