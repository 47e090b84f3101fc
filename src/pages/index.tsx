import React from "react";
import { VisuallyHidden } from "@radix-ui/react-visually-hidden";
import { graphql, navigate, type PageProps } from "gatsby";
import styled from "styled-components";
import { Badges } from "../components/Badges";
import { Card, Centered } from "../components/Card";
import { Countdown } from "../components/Countdown";
import { Logo } from "../components/Logo";
import { Seo } from "../components/Seo";
import { SignupForm } from "../components/SignupForm";
import { currentAttribution } from "../signup/attribution";

/** The path of the confirmation page (spec §2). */
export const SUCCESS_PATH = "/success/";

/**
 * Route / (spec §2): title, logo, countdown, tagline, signup form, social link,
 * privacy note and badges. On success it navigates to /success.
 * Also every campaign page (`/<slug>/`, created in gatsby-node): the query picks the
 * content node whose `derived.pagePath` is the page's own path. Each signup records
 * where it came from: the custom source, and the landing's UTM values, path and referrer.
 */
const IndexPage: React.FC<PageProps<Queries.HomePageQuery>> = ({ data }) => {
  const content = data.siteContent;
  if (!content) throw new Error("No site content: the build did not create the SiteContent node.");
  const { home, provider, links, derived } = content;
  const demo = derived.demoMode;
  return (
    <Centered>
      <Seo site={content.site} title={home.pageTitle} description={content.campaign?.metaDescription} path={derived.pagePath} />
      <Card>
        <Logo src={content.site.logo.src} alt={content.site.logo.alt} brandName={content.site.brandName} />
        <Title>{home.title}</Title>
        <Countdown copy={home.countdown} label={derived.countdownLabel} launchAtMs={derived.launchAtMs} builtAtMs={derived.builtAtMs} />
        <Tagline>{home.tagline}</Tagline>
        <SignupForm
          copy={{ form: home.form, inlineSuccess: home.inlineSuccess, toasts: content.toasts, newTabHint: links.newTabHint }}
          provider={{
            transport: provider.transport === "client-api" ? "client-api" : "legacy-form",
            endpointUrl: provider.endpointUrl ?? "",
            publicApiKey: demo ? null : provider.publicApiKey,
            listId: demo ? null : provider.listId,
            // Klaviyo's custom source: the campaign's on a campaign page, the site's on /.
            customSource: content.campaign?.source ?? provider.source,
          }}
          profileProperties={currentAttribution}
          noScriptFormUrl={provider.noScriptFormUrl}
          inlineInviteUrl={links.inlineDiscordInviteUrl}
          onSubscribed={() => navigate(SUCCESS_PATH)}
        />
        <SocialLink href={links.social.url} target="_blank" rel="noopener noreferrer">
          {links.social.label}
          <VisuallyHidden> {links.newTabHint}</VisuallyHidden>
        </SocialLink>
        <Privacy>{home.privacyNote}</Privacy>
        <Badges copy={home.badges} />
      </Card>
    </Centered>
  );
};

export default IndexPage;

const Title = styled.h1`
  margin: 0;
  font-size: clamp(1.75rem, 6.5vw, 2.5rem);
  line-height: 1.15;
  letter-spacing: -0.01em;
`;

const Tagline = styled.p`
  margin: 0;
  max-width: 44ch;
  font-size: 1.05rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const SocialLink = styled.a`
  font-weight: 600;
  text-underline-offset: 3px;
`;

const Privacy = styled.p`
  margin: 0;
  max-width: 48ch;
  font-size: 0.85rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

export const query = graphql`
  query HomePage($path: String!) {
    siteContent(derived: { pagePath: { eq: $path } }) {
      ...LayoutContent
      ...SeoContent
      site {
        brandName
        logo {
          src
          alt
        }
      }
      home {
        pageTitle
        title
        tagline
        countdown {
          days
          hours
          minutes
          seconds
        }
        form {
          heading
          email {
            label
            placeholder
          }
          firstName {
            label
            placeholder
          }
          lastName {
            label
            placeholder
          }
          honeypotLabel
          submit
          submitting
        }
        privacyNote
        badges {
          ssl {
            label
            tooltip
          }
          gdpr {
            label
            tooltip
          }
        }
        inlineSuccess {
          heading
          text
          button
        }
      }
      toasts {
        emailRequired {
          title
          message
        }
        firstNameRequired {
          title
          message
        }
        lastNameRequired {
          title
          message
        }
        invalidEmail {
          title
          message
        }
        subscriptionFailed {
          title
          fallbackMessage
          networkMessage
          rejectedMessage
          missingConfigurationMessage
        }
        success {
          title
          message
        }
      }
      provider {
        transport
        endpointUrl
        noScriptFormUrl
        source
        publicApiKey
        listId
      }
      links {
        inlineDiscordInviteUrl
        newTabHint
        social {
          url
          label
        }
      }
      derived {
        launchAtMs
        builtAtMs
        countdownLabel
        demoMode
        pagePath
      }
      campaign {
        source
        metaDescription
      }
    }
  }
`;
