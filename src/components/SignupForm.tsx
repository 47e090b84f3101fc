/**
 * The signup form (spec §2, §4, §5, §7, §8): email, first name, last name.
 *
 * Without JavaScript (or before hydration) it is a plain form POST to the provider
 * endpoint with the list id in `g`. With JavaScript the handler prevents the native
 * submit, validates in the spec's order, and sends through the signup client.
 */
import React, { useRef, useState } from "react";
import styled, { keyframes } from "styled-components";
import { SignupConfigurationError, type ProviderConfig, type Submission } from "../signup/client";
import { useSignup } from "../signup/useSignup";
import { firstValidationFailure, trimSubmission, type ValidationFailure } from "../signup/validation";
import { useToasts } from "../toasts/ToastProvider";
import { DiscordButton } from "./DiscordButton";

interface FieldCopy {
  readonly label: string;
  readonly placeholder: string;
}
interface ToastCopy {
  readonly title: string;
  readonly message: string;
}

/** Copy the form shows (content/site.yaml → home.form, home.inlineSuccess, toasts). */
export interface SignupFormCopy {
  form: {
    readonly heading: string;
    readonly email: FieldCopy;
    readonly firstName: FieldCopy;
    readonly lastName: FieldCopy;
    readonly honeypotLabel: string;
    readonly submit: string;
    readonly submitting: string;
  };
  inlineSuccess: { readonly heading: string; readonly text: string; readonly button: string };
  /** Screen-reader hint after links that open a new tab. */
  readonly newTabHint: string;
  toasts: Record<ValidationFailure | "success", ToastCopy> & {
    readonly subscriptionFailed: { readonly title: string; readonly fallbackMessage: string; readonly missingConfigurationMessage: string };
  };
}

export interface SignupFormProps {
  copy: SignupFormCopy;
  /** Where signups go; neither key nor list id → demo mode (simulated success after 1.5 s). */
  provider: ProviderConfig;
  /** Invite behind the inline success state's JOIN DISCORD button. */
  inlineInviteUrl: string;
  /** Called after a successful signup; when absent the form shows its inline success state. */
  onSubscribed?: () => void;
}

const EMPTY: Submission = { email: "", firstName: "", lastName: "" };

/**
 * The three inputs: `name`s are the provider's form fields (spec §7), so the plain-HTML
 * fallback posts exactly what the script sends; `autoComplete` lets browsers fill them.
 */
const FIELDS: Record<keyof Submission, React.InputHTMLAttributes<HTMLInputElement> & { id: string }> = {
  email: { id: "signup-email", name: "email", type: "email", inputMode: "email", autoComplete: "email", spellCheck: false },
  firstName: { id: "signup-first-name", name: "first_name", type: "text", autoComplete: "given-name" },
  lastName: { id: "signup-last-name", name: "last_name", type: "text", autoComplete: "family-name" },
};

/** The signup form with its states idle → submitting → success | failure (spec §4). */
export function SignupForm({ copy, provider, inlineInviteUrl, onSubscribed }: SignupFormProps) {
  const [values, setValues] = useState<Submission>(EMPTY);
  const [honeypot, setHoneypot] = useState("");
  const [subscribed, setSubscribed] = useState(false);
  const { showToast } = useToasts();
  const signup = useSignup(provider);
  // A ref, not state: a double click or a second Enter arrives before React re-renders.
  const inFlight = useRef(false);
  const fieldRefs = {
    email: useRef<HTMLInputElement>(null),
    firstName: useRef<HTMLInputElement>(null),
    lastName: useRef<HTMLInputElement>(null),
  };
  const submitRef = useRef<HTMLButtonElement>(null);
  const busy = signup.isPending;

  const succeed = () => {
    showToast({ variant: "success", ...copy.toasts.success });
    if (onSubscribed) onSubscribed();
    else setSubscribed(true);
  };

  const handleSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current) return;
    const submission = trimSubmission(values);
    const failure = firstValidationFailure(submission);
    if (failure) {
      showToast({ variant: "error", ...copy.toasts[failure] });
      const field = failure === "invalidEmail" || failure === "emailRequired" ? "email" : failure === "firstNameRequired" ? "firstName" : "lastName";
      fieldRefs[field].current?.focus();
      return;
    }
    // Honeypot: people never see or reach this field, so only a bot fills it in.
    // Pretend success so the bot learns nothing, and send nothing.
    if (honeypot) {
      succeed();
      return;
    }
    inFlight.current = true;
    signup.mutate(submission, {
      onSuccess: succeed,
      onError: (error) => {
        const failed = copy.toasts.subscriptionFailed;
        const message = error instanceof SignupConfigurationError ? failed.missingConfigurationMessage : error.message || failed.fallbackMessage;
        showToast({ variant: "error", title: failed.title, message });
        // The button was disabled (and lost focus) while sending; give focus back for a retry.
        setTimeout(() => submitRef.current?.focus(), 0);
      },
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };

  if (subscribed) {
    return (
      <InlineSuccess role="status">
        <h2>{copy.inlineSuccess.heading}</h2>
        <p>{copy.inlineSuccess.text}</p>
        <DiscordButton href={inlineInviteUrl} label={copy.inlineSuccess.button} newTabHint={copy.newTabHint} />
      </InlineSuccess>
    );
  }

  const field = (key: keyof Submission) => (
    <Field>
      <Label htmlFor={FIELDS[key].id}>{copy.form[key].label}</Label>
      <Input
        {...FIELDS[key]}
        ref={fieldRefs[key]}
        required
        disabled={busy}
        placeholder={copy.form[key].placeholder}
        value={values[key]}
        onChange={(event) => {
          const { value } = event.target;
          setValues((current) => ({ ...current, [key]: value }));
        }}
      />
    </Field>
  );

  return (
    <Form
      method="post"
      action={provider.endpointUrl}
      onSubmit={handleSubmit}
      aria-labelledby="signup-heading"
      aria-busy={busy}
    >
      <Heading id="signup-heading">{copy.form.heading}</Heading>
      <input type="hidden" name="g" value={provider.listId ?? ""} />
      {field("email")}
      <NameRow>
        {field("firstName")}
        {field("lastName")}
      </NameRow>
      <Honeypot aria-hidden="true">
        <label htmlFor="signup-website">{copy.form.honeypotLabel}</label>
        <input id="signup-website" name="website" type="text" tabIndex={-1} autoComplete="off" value={honeypot} onChange={(e) => setHoneypot(e.target.value)} />
      </Honeypot>
      <Submit ref={submitRef} type="submit" disabled={busy}>
        {busy ? (
          <>
            <Spinner role="img" aria-label={copy.form.submitting} viewBox="0 0 24 24" width="20" height="20">
              <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="3" strokeOpacity="0.3" />
              <path d="M21 12a9 9 0 0 0-9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
            </Spinner>
            <span aria-hidden="true">{copy.form.submitting}</span>
          </>
        ) : (
          copy.form.submit
        )}
      </Submit>
    </Form>
  );
}

const spin = keyframes`
  to { transform: rotate(360deg); }
`;

const Form = styled.form`
  display: grid;
  gap: 14px;
  width: 100%;
  text-align: left;
`;

const Heading = styled.h2`
  margin: 0 0 2px;
  font-size: 1.125rem;
  font-weight: 700;
  text-align: center;
`;

const NameRow = styled.div`
  display: grid;
  gap: 14px;
  @media (min-width: ${({ theme }) => theme.breakpoints.tablet}) {
    grid-template-columns: 1fr 1fr;
  }
`;

const Field = styled.div`
  display: grid;
  gap: 6px;
  min-width: 0;
`;

const Label = styled.label`
  font-size: 0.9rem;
  font-weight: 600;
  color: ${({ theme }) => theme.colors.text};
`;

const Input = styled.input`
  width: 100%;
  min-height: 48px;
  padding: 12px 14px;
  border: 1px solid ${({ theme }) => theme.colors.inputBorder};
  border-radius: ${({ theme }) => theme.radii.small};
  background: ${({ theme }) => theme.colors.background};
  color: ${({ theme }) => theme.colors.text};
  font: inherit;
  font-size: 1rem;
  &::placeholder { color: ${({ theme }) => theme.colors.placeholder}; opacity: 1; }
  &:focus-visible { outline: 3px solid ${({ theme }) => theme.colors.focus}; outline-offset: 1px; border-color: transparent; }
  &:disabled { opacity: 0.7; cursor: not-allowed; }
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
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 10px;
  min-height: 52px;
  margin-top: 4px;
  padding: 12px 20px;
  border: 0;
  border-radius: ${({ theme }) => theme.radii.small};
  background: linear-gradient(135deg, ${({ theme }) => theme.colors.accent}, ${({ theme }) => theme.colors.accentStrong});
  color: ${({ theme }) => theme.colors.onAccent};
  font: inherit;
  font-size: 1.05rem;
  font-weight: 800;
  cursor: pointer;
  transition: transform 120ms ease-out;
  &:hover:not(:disabled) { transform: translateY(-1px); }
  &:disabled { cursor: progress; opacity: 0.85; }
`;

const Spinner = styled.svg`
  flex: none;
  animation: ${spin} 800ms linear infinite;
`;

const InlineSuccess = styled.div`
  display: grid;
  justify-items: center;
  gap: 10px;
  text-align: center;
  h2 { margin: 0; font-size: 1.5rem; }
  p { margin: 0 0 8px; color: ${({ theme }) => theme.colors.textMuted}; }
`;
