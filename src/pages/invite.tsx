import React, { useEffect, useState } from "react";
import { graphql, type PageProps } from "gatsby";
import styled from "styled-components";
import { Card, Centered } from "../ui/Card";
import { Seo } from "../components/Seo";
import { requireSiteContent } from "../lib/requireSiteContent";
import { INVITE_PATH } from "../../shared/routes";
import { acceptInvitation, type Acceptance, inviteTokenIn } from "../launch/acceptInvitation";

/** The page's moment: reading the link, ready to accept, asking, or the answer. */
type PageState = { kind: "reading" } | { kind: "ready"; token: string } | { kind: "asking" } | Acceptance | { kind: "missing" };

/**
 * Route /invite/ (never indexed, no ad pixel): where invitation links lead while the content names no product sign-up
 * page. The token is read from `?invite=` after hydration and moved out of the address bar; the button accepts it
 * (never the page load, so a link scanner cannot use an invitation up). On `npm start` the service accepts it; the
 * live site's service answers that it does not, and the page says so.
 */
const InvitePage: React.FC<PageProps<Queries.InvitePageQuery>> = ({ data }) => {
  const content = requireSiteContent(data.siteContent);
  const { invite } = content;
  const [state, setState] = useState<PageState>({ kind: "reading" });

  useEffect(() => {
    const token = inviteTokenIn(window.location.search);
    // Gatsby's router keeps its own state in history.state: replace the address only.
    if (window.location.search) window.history.replaceState(window.history.state, "", INVITE_PATH);
    setState(token ? { kind: "ready", token } : { kind: "missing" });
  }, []);

  const accept = async (token: string) => {
    setState({ kind: "asking" });
    setState(await acceptInvitation(token));
  };

  const message: Record<Exclude<PageState["kind"], "reading" | "ready" | "asking">, string> = {
    missing: invite.missingToken,
    accepted: state.kind === "accepted" ? invite.accepted.replace("{firstName}", state.firstName) : "",
    used: invite.used,
    expired: invite.expired,
    revoked: invite.revoked,
    unknown: invite.unknown,
    unavailable: invite.unavailable,
  };

  return (
    <Centered>
      <Seo content={content} title={invite.pageTitle} path={INVITE_PATH} noindex />
      <Card>
        <Heading>{invite.heading}</Heading>
        <noscript>
          <p>{invite.noScript}</p>
        </noscript>
        {state.kind === "ready" || state.kind === "asking" ? (
          <>
            <p>{invite.intro}</p>
            <Accept type="button" disabled={state.kind === "asking"} onClick={() => state.kind === "ready" && void accept(state.token)}>
              {invite.accept}
            </Accept>
          </>
        ) : null}
        <p role="status">{state.kind in message ? message[state.kind as keyof typeof message] : ""}</p>
      </Card>
    </Centered>
  );
};

export default InvitePage;

const Heading = styled.h1`
  margin: 0;
  font-size: clamp(1.75rem, 6vw, 2.4rem);
`;

const Accept = styled.button`
  min-height: 48px;
  padding: ${({ theme }) => `0 ${theme.space.huge}`};
  border: 0;
  border-radius: ${({ theme }) => theme.radii.small};
  background: ${({ theme }) => theme.colors.accent};
  color: ${({ theme }) => theme.colors.onAccent};
  font: inherit;
  font-weight: 800;
  cursor: pointer;
  &:disabled {
    opacity: 0.6;
  }
`;

export const query = graphql`
  query InvitePage {
    siteContent(derived: { pagePath: { eq: "/" } }) {
      ...LayoutContent
      ...SeoContent
      invite {
        pageTitle
        heading
        intro
        accept
        accepted
        used
        expired
        revoked
        unknown
        missingToken
        unavailable
        noScript
      }
    }
  }
`;
