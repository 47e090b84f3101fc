/**
 * The look of a toast, shared by the Radix toaster and the plain one that stands in
 * for it until its code has arrived (see Toasts.tsx): both draw the same toast.
 */
import { css, keyframes } from "styled-components";
import type { ToastVariant } from "./ToastProvider";

/** How long a toast stays (ms). Not a product rule: long enough to read two lines. */
export const TOAST_DURATION_MS = 6_000;

/** Screen-reader labels for the toast region and close buttons (content/site.yaml → toasts). */
export interface ToasterCopy {
  readonly closeLabel: string;
  /** The region's name; `{hotkey}` stands for the key that moves focus to it (F8). */
  readonly regionLabel: string;
  /** Spoken before each toast's text when it is announced. */
  readonly announceLabel: string;
}

const slideIn = keyframes`
  from { transform: translateY(-12px); opacity: 0; }
  to { transform: translateY(0); opacity: 1; }
`;

export const viewportStyle = css`
  position: fixed;
  top: 0;
  right: 0;
  z-index: 100;
  display: flex;
  flex-direction: column;
  gap: 10px;
  width: min(420px, 100vw);
  margin: 0;
  padding: 16px;
  list-style: none;
  /* No outline: none here: F8 moves keyboard focus to this list, and the global :focus-visible ring shows where it went. */
`;

export const toastStyle = css<{ $variant: ToastVariant }>`
  position: relative;
  padding: 14px 44px 14px 16px;
  border-radius: ${({ theme }) => theme.radii.medium};
  border: 1px solid;
  box-shadow: 0 12px 32px rgb(0 0 0 / 45%);
  animation: ${slideIn} 180ms ease-out;
  ${({ $variant, theme }) =>
    $variant === "error"
      ? css`
          background: ${theme.colors.errorSurface};
          border-color: ${theme.colors.errorBorder};
          color: ${theme.colors.errorText};
        `
      : css`
          background: ${theme.colors.successSurface};
          border-color: ${theme.colors.successBorder};
          color: ${theme.colors.successText};
        `}
  &[data-state="closed"] { opacity: 0; }
  &[data-swipe="move"] { transform: translateX(var(--radix-toast-swipe-move-x)); }
`;

export const titleStyle = css`
  margin: 0 0 2px;
  font-weight: 700;
  font-size: 1rem;
`;

export const descriptionStyle = css`
  margin: 0;
  font-size: 0.925rem;
`;

export const closeStyle = css`
  position: absolute;
  top: 10px;
  right: 10px;
  display: grid;
  place-items: center;
  width: 28px;
  height: 28px;
  border: 0;
  border-radius: ${({ theme }) => theme.radii.small};
  background: transparent;
  color: inherit;
  cursor: pointer;
  &:hover { background: rgb(255 255 255 / 10%); }
`;

/** The close button's cross (decorative; the button carries the label). */
export function CloseIcon() {
  return (
    <svg aria-hidden="true" width="14" height="14" viewBox="0 0 14 14">
      <path d="M2 2l10 10M12 2L2 12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
