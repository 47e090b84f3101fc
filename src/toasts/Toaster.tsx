/**
 * Draws the queued toasts with Radix Toast, dressed by the theme. Error toasts
 * are `foreground` (announced assertively), success toasts `background`.
 */
import * as Toast from "@radix-ui/react-toast";
import styled from "styled-components";
import {
  CloseIcon,
  closeStyle,
  descriptionStyle,
  titleStyle,
  TOAST_DURATION_MS,
  toastStyle,
  viewportStyle,
  type ToasterCopy,
} from "./toastStyles";
import { useToasts, type ToastVariant } from "./ToastProvider";

/** The toast viewport on Radix Toast (swipe, F8, pause on hover, announcements); loaded on first need by <Toasts>. */
export default function Toaster({ copy }: { copy: ToasterCopy }) {
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
            <CloseIcon />
          </Close>
        </Root>
      ))}
      <Viewport label={copy.regionLabel} />
    </Toast.Provider>
  );
}

const Viewport = styled(Toast.Viewport)`
  ${viewportStyle}
`;

const Root = styled(Toast.Root)<{ $variant: ToastVariant }>`
  ${toastStyle}
`;

const Title = styled(Toast.Title)`
  ${titleStyle}
`;

const Description = styled(Toast.Description)`
  ${descriptionStyle}
`;

const Close = styled(Toast.Close)`
  ${closeStyle}
`;
