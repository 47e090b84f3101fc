/**
 * Draws the queued toasts with Radix Toast, dressed by the theme. Error toasts
 * are `foreground` (announced assertively), success toasts `background`.
 */
import * as Toast from "@radix-ui/react-toast";
import styled, { css, keyframes } from "styled-components";
import { useToasts } from "./ToastProvider";

/** How long a toast stays (ms). Not a product rule (spec §9); long enough to read two lines. */
export const TOAST_DURATION_MS = 6_000;

/** Screen-reader labels for the toast region and close buttons (content/site.yaml → toasts). */
export interface ToasterCopy {
  readonly closeLabel: string;
  readonly regionLabel: string;
  /** Spoken before each toast's text when it is announced. */
  readonly announceLabel: string;
}

/**
 * The toast viewport with every queued toast. Bundled with the page, not loaded on
 * demand: the failure toast is needed exactly when the network is gone (issue 6).
 */
export function Toaster({ copy }: { copy: ToasterCopy }) {
  const { toasts, dismissToast } = useToasts();
  return (
    <Toast.Provider label={copy.announceLabel} duration={TOAST_DURATION_MS} swipeDirection="right">
      {toasts.map((toast) => (
        <Root
          key={toast.id}
          $variant={toast.variant}
          type={toast.variant === "error" ? "foreground" : "background"}
          onOpenChange={(open) => {
            if (!open) dismissToast(toast.id);
          }}
        >
          {/* Roles for assistive technology and queries. On an inner element, not on Radix's <li>: a list
              item with role alert/status is no list item, so the viewport's <ol> would hold non-items
              (axe: list, aria-allowed-role). Radix announces each toast once itself, so no second live region. */}
          <div role={toast.variant === "error" ? "alert" : "status"} aria-live="off" data-variant={toast.variant}>
            <Title>{toast.title}</Title>
            <Description>{toast.message}</Description>
          </div>
          <Close aria-label={copy.closeLabel}>
            <svg aria-hidden="true" width="14" height="14" viewBox="0 0 14 14">
              <path d="M2 2l10 10M12 2L2 12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </Close>
        </Root>
      ))}
      <Viewport label={copy.regionLabel} />
    </Toast.Provider>
  );
}

const slideIn = keyframes`
  from { transform: translateY(-12px); opacity: 0; }
  to { transform: translateY(0); opacity: 1; }
`;

const Viewport = styled(Toast.Viewport)`
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

const Root = styled(Toast.Root)<{ $variant: "success" | "error" }>`
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

const Title = styled(Toast.Title)`
  margin: 0 0 2px;
  font-weight: 700;
  font-size: 1rem;
`;

const Description = styled(Toast.Description)`
  margin: 0;
  font-size: 0.925rem;
`;

const Close = styled(Toast.Close)`
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
