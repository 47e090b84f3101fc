/**
 * The status page on launch day: the visitor's invitation in place of their place in line (invited, with the button
 * to accept it by its expiry; joined; expired; withdrawn), in the content's words.
 */
import { graphql } from "gatsby";
import styled from "styled-components";
import type { StatusInvitation } from "../../shared/api/referrals";

interface InvitationNoticeProps {
  content: Queries.InvitationNoticeContentFragment;
  invitation: StatusInvitation;
}

export function InvitationNotice({ content, invitation }: InvitationNoticeProps) {
  const words = content.status.invitation;
  // The visitor's own clock and the site's language: the moment is the same wherever they read it.
  const date = new Intl.DateTimeFormat(content.site.language, { dateStyle: "long", timeStyle: "short" }).format(
    new Date(invitation.expiresAt),
  );
  const text = {
    invited: words.invited.replace("{date}", date),
    accepted: words.joined,
    expired: words.expired.replace("{date}", date),
    revoked: words.revoked,
  }[invitation.state];
  return (
    <Notice>
      <p>{text}</p>
      {invitation.state === "invited" ? <Accept href={invitation.inviteUrl ?? undefined}>{words.accept}</Accept> : null}
    </Notice>
  );
}

const Notice = styled.div`
  display: grid;
  justify-items: center;
  gap: ${({ theme }) => theme.space.lg};
  text-align: center;
  p {
    margin: 0;
    font-size: 1.15rem;
  }
`;

const Accept = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: 48px;
  padding: ${({ theme }) => `0 ${theme.space.huge}`};
  border-radius: ${({ theme }) => theme.radii.small};
  background: ${({ theme }) => theme.colors.accent};
  color: ${({ theme }) => theme.colors.onAccent};
  font-weight: 800;
  text-decoration: none;
  &:hover {
    background: ${({ theme }) => theme.colors.accentStrong};
  }
`;

export const query = graphql`
  fragment InvitationNoticeContent on SiteContent {
    site {
      language
    }
    status {
      invitation {
        invited
        accept
        joined
        expired
        revoked
      }
    }
  }
`;
