/**
 * The queued toasts drawn without Radix: what a visitor sees while the Radix toaster's
 * code is still on its way, or when it cannot arrive at all (the browser went offline
 * before it loaded, which is exactly when the "Subscription failed" toast is due).
 * Same look, same roles and region name, a close button, F8 to reach the region, and
 * each toast leaves after TOAST_DURATION_MS.
 */
import { useEffect, useRef } from "react";
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
import { useToasts, type QueuedToast, type ToastVariant } from "./ToastProvider";

/** The key that moves focus to the toast region, as Radix Toast binds it. */
export const TOAST_HOTKEY = "F8";

/** The region with every queued toast; renders nothing while the queue is empty. */
export default function PlainToaster({ copy }: { copy: ToasterCopy }) {
  const { toasts, dismissToast } = useToasts();
  const region = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === TOAST_HOTKEY) region.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  if (toasts.length === 0) return null;
  return (
    <section aria-label={copy.regionLabel.replace("{hotkey}", TOAST_HOTKEY)}>
      <Viewport ref={region} tabIndex={-1}>
        {toasts.map((toast) => (
          <PlainToast key={toast.id} toast={toast} closeLabel={copy.closeLabel} onDismiss={() => dismissToast(toast.id)} />
        ))}
      </Viewport>
    </section>
  );
}

function PlainToast({ toast, closeLabel, onDismiss }: { toast: QueuedToast; closeLabel: string; onDismiss: () => void }) {
  useEffect(() => {
    const timer = setTimeout(onDismiss, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one timer per toast, started when it appears; a new onDismiss each render must not restart it
  }, []);
  return (
    <Root $variant={toast.variant}>
      <div role={toast.variant === "error" ? "alert" : "status"} data-variant={toast.variant}>
        <Title>{toast.title}</Title>
        <Description>{toast.message}</Description>
      </div>
      <Close type="button" aria-label={closeLabel} onClick={onDismiss}>
        <CloseIcon />
      </Close>
    </Root>
  );
}

const Viewport = styled.ol`
  ${viewportStyle}
`;

const Root = styled.li<{ $variant: ToastVariant }>`
  ${toastStyle}
`;

const Title = styled.div`
  ${titleStyle}
`;

const Description = styled.div`
  ${descriptionStyle}
`;

const Close = styled.button`
  ${closeStyle}
`;
