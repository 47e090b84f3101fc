/**
 * The signup form (product rules 6–14): a plain form POST without JavaScript (product rule 12), the
 * signup client with it. Inputs are uncontrolled and read at submit, so what a visitor typed before
 * the scripts arrived is exactly what is checked and sent.
 */
import React, { useRef, useState } from "react";
import { graphql } from "gatsby";
import styled, { keyframes } from "styled-components";
import type { ProviderConfig } from "../signup/client";
import {
  SignupConfigurationError,
  SignupEmailRefusedError,
  SignupNetworkError,
  SignupRejectedError,
  SignupVerificationError,
} from "../signup/errors";
import type { SignupTransport } from "../signup/endpoints";
import type { ProfileProperties, Submission } from "../signup/submission";
import { FORM_FIELDS, HONEYPOT_FIELD } from "../../shared/contract";
import { TurnstileChallenge } from "../signup/turnstile";
import { useSignup } from "../signup/useSignup";
import { FAILURE_FIELD, firstValidationFailure, SIGNUP_FIELD_MAX_LENGTH, trimSubmission } from "../../shared/validation";
import { useToasts } from "../toasts/ToastProvider";
import { DiscordButton } from "./DiscordButton";
import { SignupFormErrors } from "./SignupFormErrors";
import { TurnstileWidget } from "./TurnstileWidget";
import { primaryButton } from "../ui/primaryButton";
import { theme } from "../styles/theme";

/** What the form reads from the page's query (fragment SignupFormContent below). */
export type SignupFormContent = Queries.SignupFormContentFragment;

export interface SignupFormProps {
  /** The form's copy, the provider settings and the build's demo-mode decision. */
  content: SignupFormContent;
  /**
   * Extra profile properties sent with each signup (client-api only), e.g. UTM values; a
   * function is called when the signup is sent, so that it reads the browser's location then.
   */
  profileProperties?: ProfileProperties | (() => ProfileProperties);
  /**
   * The referral code of the link the visitor came by, sent as `ref` (waitlist-api only); called when the
   * signup is sent. Null or "" sends none.
   */
  referralCode?: () => string | null;
  /** Called after a successful signup (or a bot caught by the honeypot). When absent the form shows its inline success state. */
  onSubscribed?: () => void;
}

/**
 * Where signups go, from the content: the build's demo-mode decision (product rule 15; a demo
 * build publishes no key or list id, not even in the no-JavaScript form), and Klaviyo's custom
 * source, the campaign's on a campaign page and the site's on / (product rule 16).
 */
function providerConfig({ provider, derived, campaign }: SignupFormContent): ProviderConfig {
  const demo = derived.demoMode;
  return {
    transport: transportOf(provider.transport),
    endpointUrl: provider.endpointUrl ?? "",
    publicApiKey: demo ? null : provider.publicApiKey,
    listId: demo ? null : provider.listId,
    customSource: campaign?.source ?? provider.source,
    demoMode: derived.demoMode,
  };
}

/** The transport as GraphQL gives it (text), read as one the client knows; the schema allows no other. */
function transportOf(value: string): SignupTransport {
  return value === "waitlist-api" || value === "client-api" ? value : "legacy-form";
}

/**
 * The three inputs: `name`s are the form fields the plain-HTML fallback posts (the legacy form's, which the
 * service reads too) and the script reads at submit; `autoComplete` lets browsers fill them; `maxLength` is the
 * shared rules' limit, which the service enforces too.
 */
type FieldKey = "email" | "firstName" | "lastName";
const FIELDS: Record<FieldKey, React.InputHTMLAttributes<HTMLInputElement> & { id: string; name: string }> = {
  email: {
    id: "signup-email",
    name: FORM_FIELDS.email,
    type: "email",
    inputMode: "email",
    autoComplete: "email",
    spellCheck: false,
    maxLength: SIGNUP_FIELD_MAX_LENGTH.email,
  },
  firstName: {
    id: "signup-first-name",
    name: FORM_FIELDS.firstName,
    type: "text",
    autoComplete: "given-name",
    maxLength: SIGNUP_FIELD_MAX_LENGTH.firstName,
  },
  lastName: {
    id: "signup-last-name",
    name: FORM_FIELDS.lastName,
    type: "text",
    autoComplete: "family-name",
    maxLength: SIGNUP_FIELD_MAX_LENGTH.lastName,
  },
};

/** The form's current values, read from its own fields (whatever is in them, typed before or after hydration). */
function formValues(form: HTMLFormElement): { submission: Submission; honeypot: string } {
  const data = new FormData(form);
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === "string" ? value : "";
  };
  return {
    submission: { email: text(FIELDS.email.name), firstName: text(FIELDS.firstName.name), lastName: text(FIELDS.lastName.name) },
    honeypot: text(HONEYPOT_FIELD),
  };
}

/** The form's inputs, by field, for moving focus to the one a failure names. */
type FieldRefs = Record<FieldKey, React.RefObject<HTMLInputElement>>;

/** The signup form with its states idle → submitting → success | failure (product rule 8). */
export function SignupForm(props: SignupFormProps) {
  const { content } = props;
  const { home, links, derived } = content;
  const provider = providerConfig(content);
  // The build sets the script's URL only when the widget belongs on the page (waitlist-api, a site key, not a demo).
  const turnstileSiteKey = derived.turnstileScriptUrl ? content.provider.turnstileSiteKey : null;
  const [turnstile] = useState(() => (turnstileSiteKey ? new TurnstileChallenge() : null));
  const [subscribed, setSubscribed] = useState(false);
  const signup = useSignup(provider, turnstile);
  const { handleSubmit, fieldRefs, submitRef } = useSubmit(props, signup, provider.transport === "waitlist-api", () => setSubscribed(true));
  const busy = signup.isPending;

  if (subscribed) {
    return (
      <InlineSuccess role="status">
        <h2>{home.inlineSuccess.heading}</h2>
        <p>{home.inlineSuccess.text}</p>
        <DiscordButton href={links.inlineDiscordInviteUrl} label={home.inlineSuccess.button} newTabHint={links.newTabHint} />
      </InlineSuccess>
    );
  }

  return (
    <Form
      method="post"
      action={content.provider.noScriptFormUrl ?? undefined}
      onSubmit={handleSubmit}
      // The engine that sends and retries loads once the visitor starts on the form (Safari does not focus a clicked button, hence the press).
      onFocus={signup.prepare}
      onPointerDown={signup.prepare}
      aria-labelledby="signup-heading"
      aria-busy={busy}
    >
      <Heading id="signup-heading">{home.form.heading}</Heading>
      {/* What the no-JavaScript post carries besides the fields: to the service, its failure messages (shown by
          `:target`), the custom source and the page to come back to; to Klaviyo's legacy form, the list id. */}
      {provider.transport === "waitlist-api" ? (
        <>
          <SignupFormErrors toasts={content.toasts} />
          {provider.customSource ? <input type="hidden" name={FORM_FIELDS.source} value={provider.customSource} /> : null}
          <input type="hidden" name={FORM_FIELDS.page} value={derived.pagePath} />
        </>
      ) : (
        <input type="hidden" name="g" value={provider.listId ?? ""} />
      )}
      <SignupFields form={home.form} fieldRefs={fieldRefs} busy={busy} />
      {turnstile && turnstileSiteKey && derived.turnstileScriptUrl ? (
        <TurnstileWidget challenge={turnstile} siteKey={turnstileSiteKey} scriptUrl={derived.turnstileScriptUrl} />
      ) : null}
      <SubmitButton form={home.form} busy={busy} submitRef={submitRef} />
    </Form>
  );
}

/**
 * The form's submit: our checks first (a failure's toast, focus on its field), the honeypot, then the signup, whose
 * failure is told in the content's words. Also the refs of the fields and the button it moves focus to.
 * @param service the transport is the waitlist service, which alone takes a referral code
 * @param showSuccess the form's own success state, for when the page gives no `onSubscribed`
 */
function useSubmit(
  { content: { toasts }, profileProperties, referralCode, onSubscribed }: SignupFormProps,
  signup: ReturnType<typeof useSignup>,
  service: boolean,
  showSuccess: () => void,
) {
  const { showToast } = useToasts();
  // A ref, not state: a double click or a second Enter arrives before React re-renders.
  const inFlight = useRef(false);
  const fieldRefs: FieldRefs = { email: useRef(null), firstName: useRef(null), lastName: useRef(null) };
  const submitRef = useRef<HTMLButtonElement>(null);

  const succeed = () => {
    showToast({ variant: "success", ...toasts.success });
    (onSubscribed ?? showSuccess)();
  };

  const handleSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current) return;
    const { submission: typed, honeypot } = formValues(event.currentTarget);
    const submission = trimSubmission(typed);
    const failure = firstValidationFailure(submission);
    if (failure) {
      showToast({ variant: "error", ...toasts[failure] });
      fieldRefs[FAILURE_FIELD[failure]].current?.focus();
      return;
    }
    // Honeypot: people never see or reach this field, so only a bot fills it in.
    // Pretend success so the bot learns nothing, and send nothing.
    if (honeypot) {
      succeed();
      return;
    }
    inFlight.current = true;
    const properties = typeof profileProperties === "function" ? profileProperties() : profileProperties;
    const ref = service ? referralCode?.() : null;
    signup.mutate(
      { ...submission, ...(properties ? { properties } : {}), ...(ref ? { referralCode: ref } : {}) },
      {
        onSuccess: succeed,
        onError: (error) => {
          // The fields and button were disabled (and lost focus) while sending; focus returns once they are enabled.
          const refocus = (target: React.RefObject<HTMLElement>) => setTimeout(() => target.current?.focus(), 0);
          const toast = failureToast(error, toasts);
          showToast({ variant: "error", ...toast });
          refocus(error instanceof SignupEmailRefusedError ? fieldRefs.email : submitRef);
        },
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };
  return { handleSubmit, fieldRefs, submitRef };
}

/**
 * The toast for a signup that failed for good: the content's words for what the visitor can do about it.
 * A refused address reads as after our own check; a configuration mistake is also logged for whoever runs the site.
 */
function failureToast(error: Error, toasts: SignupFormContent["toasts"]): { title: string; message: string } {
  // The provider's own check of the address: the visitor fixes it as after our check.
  if (error instanceof SignupEmailRefusedError) return toasts.invalidEmail;
  const failed = toasts.subscriptionFailed;
  // Turnstile did not verify the visitor; the widget is already running its check again for the next try.
  if (error instanceof SignupVerificationError) return { title: failed.title, message: failed.verificationMessage };
  // A configuration mistake (public key, list id): the visitor cannot fix it, whoever runs the site can.
  if (error instanceof SignupRejectedError) console.error(`Signup refused by the provider: ${error.message}`);
  return { title: failed.title, message: failureMessage(error, failed) };
}

/** The e-mail and name fields, and the honeypot beside them. */
function SignupFields({ form, fieldRefs, busy }: { form: SignupFormContent["home"]["form"]; fieldRefs: FieldRefs; busy: boolean }) {
  const field = (key: FieldKey) => (
    <Field>
      <Label htmlFor={FIELDS[key].id}>{form[key].label}</Label>
      <Input {...FIELDS[key]} ref={fieldRefs[key]} required disabled={busy} placeholder={form[key].placeholder} />
    </Field>
  );
  return (
    <>
      {field("email")}
      <NameRow>
        {field("firstName")}
        {field("lastName")}
      </NameRow>
      <Honeypot aria-hidden="true">
        <label htmlFor="signup-website">{form.honeypotLabel}</label>
        <input id="signup-website" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
      </Honeypot>
    </>
  );
}

/** The submit button; while the signup is sent it spins and says so. */
function SubmitButton({
  form,
  busy,
  submitRef,
}: {
  form: SignupFormContent["home"]["form"];
  busy: boolean;
  submitRef: React.RefObject<HTMLButtonElement>;
}) {
  return (
    <Submit ref={submitRef} type="submit" disabled={busy}>
      {busy ? (
        <>
          <Spinner role="img" aria-label={form.submitting} viewBox="0 0 24 24" width="20" height="20">
            <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="3" strokeOpacity="0.3" />
            <path d="M21 12a9 9 0 0 0-9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
          </Spinner>
          <span aria-hidden="true">{form.submitting}</span>
        </>
      ) : (
        form.submit
      )}
    </Submit>
  );
}

/**
 * The second line of the failure toast: always the content's words, never the browser's
 * own error text (which a visitor cannot act on, and which is not in their language).
 */
function failureMessage(error: Error, failed: SignupFormContent["toasts"]["subscriptionFailed"]): string {
  if (error instanceof SignupConfigurationError) return failed.missingConfigurationMessage;
  if (error instanceof SignupRejectedError) return failed.rejectedMessage;
  // The browser could not reach the provider at all (offline, connection cut); a timeout is the provider being slow.
  if (error instanceof SignupNetworkError && !error.timedOut) return failed.networkMessage;
  return failed.fallbackMessage;
}

const spin = keyframes`
  to { transform: rotate(360deg); }
`;

const Form = styled.form`
  display: grid;
  gap: ${theme.space.xl};
  width: 100%;
  text-align: left;
`;

const Heading = styled.h2`
  margin: 0 0 ${theme.space.hairline};
  font-size: 1.125rem;
  font-weight: 700;
  text-align: center;
`;

const NameRow = styled.div`
  display: grid;
  gap: ${theme.space.xl};
  @media (min-width: ${theme.breakpoints.tablet}) {
    grid-template-columns: 1fr 1fr;
  }
`;

const Field = styled.div`
  display: grid;
  gap: ${theme.space.xs};
  min-width: 0;
`;

const Label = styled.label`
  font-size: 0.9rem;
  font-weight: 600;
  color: ${theme.colors.text};
`;

const Input = styled.input`
  width: 100%;
  min-height: 48px;
  padding: ${theme.space.lg} ${theme.space.xl};
  border: 1px solid ${theme.colors.inputBorder};
  border-radius: ${theme.radii.small};
  background: ${theme.colors.background};
  color: ${theme.colors.text};
  font: inherit;
  font-size: 1rem;
  &::placeholder {
    color: ${theme.colors.placeholder};
    opacity: 1;
  }
  &:focus-visible {
    outline: 3px solid ${theme.colors.focus};
    outline-offset: 1px;
    border-color: transparent;
  }
  &:disabled {
    opacity: 0.7;
    cursor: not-allowed;
  }
`;

// Off-screen rather than display:none: bots skip fields that are obviously hidden.
const Honeypot = styled.div`
  position: absolute;
  left: -10000px;
  top: auto;
  width: 1px;
  height: 1px;
  overflow: hidden;
`;

const Submit = styled.button`
  ${primaryButton}
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: ${theme.space.md};
  min-height: 52px;
  margin-top: ${theme.space.xxs};
  padding: ${theme.space.lg} ${theme.space.xxl};
  font-size: 1.05rem;
  &:disabled {
    cursor: progress;
    opacity: 0.85;
  }
`;

const Spinner = styled.svg`
  flex: none;
  animation: ${spin} 800ms linear infinite;
`;

const InlineSuccess = styled.div`
  display: grid;
  justify-items: center;
  gap: ${theme.space.md};
  text-align: center;
  h2 {
    margin: 0;
    font-size: 1.5rem;
  }
  p {
    margin: 0 0 ${theme.space.sm};
    color: ${theme.colors.textMuted};
  }
`;

export const query = graphql`
  fragment SignupFormContent on SiteContent {
    home {
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
      firstNameInvalid {
        title
        message
      }
      lastNameInvalid {
        title
        message
      }
      subscriptionFailed {
        title
        fallbackMessage
        networkMessage
        rejectedMessage
        verificationMessage
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
      turnstileSiteKey
    }
    links {
      inlineDiscordInviteUrl
      newTabHint
    }
    derived {
      demoMode
      pagePath
      turnstileScriptUrl
    }
    campaign {
      source
    }
  }
`;
