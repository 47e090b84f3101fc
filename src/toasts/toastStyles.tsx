/** The look of a toast, shared by the Radix toaster and the plain one, so both draw the same toast. */
import { css, keyframes } from "styled-components";
import type { ToastVariant } from "./ToastProvider";
import { theme } from "../styles/theme";

/** How long a toast stays (ms). Not a product rule: long enough to read two lines. */
export const TOAST_DURATION_MS = 6_000;

/**
 * Screen-reader labels for the toast region and close buttons, as fragment ToastsContent
 * (Toasts.tsx) selects them: `closeLabel`; `regionLabel`, the region's name, where `{hotkey}`
 * stands for the key that moves focus to it (F8); `announceLabel`, spoken before each toast's text.
 */
export type ToasterCopy = Queries.ToastsContentFragment["toasts"];

const slideIn = keyframes`
  from { transform: translateY(-12px); opacity: 0; }
  to { transform: translateY(0); opacity: 1; }
`;

export const viewportStyle = css`
  position: fixed;
  top: 0;
  right: 0;
  z-index: ${theme.layers.toasts};
  display: flex;
  flex-direction: column;
  gap: ${theme.space.md};
  width: min(420px, 100vw);
  margin: 0;
  padding: ${theme.space.base};
  list-style: none;
  /* No outline: none here: F8 moves keyboard focus to this list, and the global :focus-visible ring shows where it went. */
`;

/** The colours of each kind of toast. */
const VARIANT_COLORS = {
  error: css`
    background: ${theme.colors.errorSurface};
    border-color: ${theme.colors.errorBorder};
    color: ${theme.colors.errorText};
  `,
  success: css`
    background: ${theme.colors.successSurface};
    border-color: ${theme.colors.successBorder};
    color: ${theme.colors.successText};
  `,
} satisfies Record<ToastVariant, unknown>;

export const toastStyle = css<{ $variant: ToastVariant }>`
  position: relative;
  padding: ${theme.space.xl} ${theme.space.toastCloseRoom} ${theme.space.xl} ${theme.space.base};
  border-radius: ${theme.radii.medium};
  border: 1px solid;
  box-shadow: ${theme.shadows.popup};
  animation: ${slideIn} 180ms ease-out;
  ${({ $variant }) => VARIANT_COLORS[$variant]}
  &[data-state="closed"] {
    opacity: 0;
  }
  &[data-swipe="move"] {
    transform: translateX(var(--radix-toast-swipe-move-x));
  }
`;

export const titleStyle = css`
  margin: 0 0 ${theme.space.hairline};
  font-weight: 700;
  font-size: 1rem;
`;

export const descriptionStyle = css`
  margin: 0;
  font-size: 0.925rem;
`;

export const closeStyle = css`
  position: absolute;
  top: ${theme.space.md};
  right: ${theme.space.md};
  display: grid;
  place-items: center;
  width: 28px;
  height: 28px;
  border: 0;
  border-radius: ${theme.radii.small};
  background: transparent;
  color: inherit;
  cursor: pointer;
  &:hover {
    background: ${theme.colors.hoverTint};
  }
`;

/** The close button's cross (decorative; the button carries the label). */
export function CloseIcon() {
  return (
    <svg aria-hidden="true" width="14" height="14" viewBox="0 0 14 14">
      <path d="M2 2l10 10M12 2L2 12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
