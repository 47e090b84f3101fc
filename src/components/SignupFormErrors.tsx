/** The no-JavaScript form's failure messages (waitlist-api only), each shown by CSS `:target` alone (formErrors.ts). */
import styled from "styled-components";
import { FORM_ERROR_KEYS, formErrorId, type FormErrorKey } from "../../shared/form-errors";
import { theme } from "../styles/theme";

/** The toasts' copy, as the signup form's fragment reads it. */
type ToastsContent = Queries.SignupFormContentFragment["toasts"];

/** Each failure's words: the toast a visitor with JavaScript would see for it. */
function messageFor(key: FormErrorKey, toasts: ToastsContent): { title: string; message: string } {
  const failed = toasts.subscriptionFailed;
  switch (key) {
    case "subscriptionFailed":
      return { title: failed.title, message: failed.fallbackMessage };
    case "verificationFailed":
      return { title: failed.title, message: failed.verificationMessage };
    default:
      return toasts[key];
  }
}

/**
 * One hidden message per failure, at the top of the form. Each is an alert, and focusable (tabIndex -1) so that a
 * screen reader, which starts reading at the fragment's target, lands on it.
 */
export function SignupFormErrors({ toasts }: { toasts: ToastsContent }) {
  return (
    <>
      {FORM_ERROR_KEYS.map((key) => {
        const { title, message } = messageFor(key, toasts);
        return (
          <Message key={key} id={formErrorId(key)} role="alert" tabIndex={-1}>
            <strong>{title}</strong> {message}
          </Message>
        );
      })}
    </>
  );
}

const Message = styled.p`
  display: none;
  margin: 0;
  padding: ${theme.space.lg} ${theme.space.xl};
  border: 1px solid ${theme.colors.errorBorder};
  border-radius: ${theme.radii.small};
  background: ${theme.colors.errorSurface};
  color: ${theme.colors.errorText};
  &:target {
    display: block;
  }
  strong {
    display: block;
  }
`;
