/**
 * The toasts drawn without Radix, until the Radix toaster arrives or for good when it cannot (offline,
 * exactly when the failure toast is due). It keeps Radix Toast's contract, so which of the two
 * draws a toast makes no difference: same look, roles and F8 region; one announcement per toast from
 * a live region that exists before it; TOAST_DURATION_MS paused on hover, focus or a hidden window.
 * Drawn after hydration only: the region is fixed-position and empty until a toast is due.
 */
import { useEffect, useRef, useState } from "react";
import { VisuallyHidden } from "../ui/VisuallyHidden";
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

/** How long an announcement stays in its live region (ms), as Radix Toast keeps it: long enough for screen readers to pick it up. */
const ANNOUNCEMENT_MS = 1_000;

interface Announcement {
  id: number;
  live: "assertive" | "polite";
  text: string;
}

/** The region with every queued toast and the live regions that announce them. */
export default function PlainToaster({ copy }: { copy: ToasterCopy }) {
  const { toasts, dismissToast } = useToasts();
  const region = useRef<HTMLOListElement>(null);
  const [mounted, paused, setPointerIn, setFocusIn] = usePause(region, toasts.length);
  const announcements = useAnnouncements(toasts, copy.announceLabel);

  if (!mounted) return null;
  return (
    <section aria-label={copy.regionLabel.replace("{hotkey}", TOAST_HOTKEY)}>
      {(["assertive", "polite"] as const).map((live) => (
        // A live region by aria-live alone: a role would make it one of the region's toasts for anyone looking them up by role.
        <VisuallyHidden key={live} aria-live={live} aria-atomic="true">
          {announcements
            .filter((announcement) => announcement.live === live)
            .map((announcement) => (
              <span key={announcement.id}>{announcement.text}</span>
            ))}
        </VisuallyHidden>
      ))}
      {/* Only while a toast is due: the list's styles are not in the prerendered page, and drawing it
          empty would make styled-components compile them during hydration for nothing. */}
      {toasts.length > 0 ? (
        <Viewport
          ref={region}
          tabIndex={-1}
          onPointerEnter={() => setPointerIn(true)}
          onPointerLeave={() => setPointerIn(false)}
          onFocus={() => setFocusIn(true)}
          onBlur={(event) => setFocusIn(event.currentTarget.contains(event.relatedTarget))}
        >
          {toasts.map((toast) => (
            <PlainToast
              key={toast.id}
              toast={toast}
              closeLabel={copy.closeLabel}
              paused={paused}
              onDismiss={() => dismissToast(toast.id)}
            />
          ))}
        </Viewport>
      ) : null}
    </section>
  );
}

/**
 * Whether the toasts' time stands still, as Radix Toast pauses it: while the pointer or focus is in the list or the
 * window is in the background. Also binds TOAST_HOTKEY to the list. Returns [mounted, paused, setPointerIn, setFocusIn].
 */
function usePause(region: React.RefObject<HTMLOListElement>, count: number) {
  const [mounted, setMounted] = useState(false);
  const [pointerIn, setPointerIn] = useState(false);
  const [focusIn, setFocusIn] = useState(false);
  const [windowAway, setWindowAway] = useState(false);

  useEffect(() => {
    setMounted(true);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === TOAST_HOTKEY) region.current?.focus();
    };
    const away = () => setWindowAway(true);
    const back = () => setWindowAway(false);
    document.addEventListener("keydown", onKey);
    addEventListener("blur", away);
    addEventListener("focus", back);
    return () => {
      document.removeEventListener("keydown", onKey);
      removeEventListener("blur", away);
      removeEventListener("focus", back);
    };
  }, [region]);

  useEffect(() => {
    // The list goes away with the last toast, and with it the pointer and focus it held: the next toast starts its time.
    if (count > 0) return;
    setPointerIn(false);
    setFocusIn(false);
  }, [count]);

  return [mounted, pointerIn || focusIn || windowAway, setPointerIn, setFocusIn] as const;
}

/**
 * One announcement per toast that appears: put into its live region a frame after the toast
 * (so that the region's change is what screen readers hear) and taken out ANNOUNCEMENT_MS later.
 * @param announceLabel spoken before each toast's title and message, e.g. "Notification"
 */
function useAnnouncements(toasts: QueuedToast[], announceLabel: string): Announcement[] {
  const [announcements, setAnnouncements] = useState<Announcement[]>([]);
  const lastAnnounced = useRef(toasts.at(-1)?.id ?? 0);
  useEffect(() => {
    const fresh = toasts.filter((toast) => toast.id > lastAnnounced.current);
    if (fresh.length === 0) return;
    lastAnnounced.current = fresh[fresh.length - 1].id;
    const added = fresh.map((toast) => ({
      id: toast.id,
      live: toast.variant === "error" ? ("assertive" as const) : ("polite" as const),
      text: `${announceLabel} ${toast.title} ${toast.message}`,
    }));
    const ids = new Set(added.map((announcement) => announcement.id));
    const frame = requestAnimationFrame(() => setAnnouncements((current) => [...current, ...added]));
    const timer = setTimeout(
      () => setAnnouncements((current) => current.filter((announcement) => !ids.has(announcement.id))),
      ANNOUNCEMENT_MS,
    );
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [toasts, announceLabel]);
  return announcements;
}

/**
 * Calls `onDismiss` once TOAST_DURATION_MS of unpaused time have passed since the toast appeared.
 * @param paused whether the toast's time stands still now
 */
function useDismissTimer(onDismiss: () => void, paused: boolean): void {
  const remainingMs = useRef(TOAST_DURATION_MS);
  const dismiss = useRef(onDismiss);
  useEffect(() => {
    dismiss.current = onDismiss;
  });
  useEffect(() => {
    if (paused) return;
    const startedAt = Date.now();
    const timer = setTimeout(() => dismiss.current(), remainingMs.current);
    return () => {
      clearTimeout(timer);
      remainingMs.current -= Date.now() - startedAt;
    };
  }, [paused]);
}

function PlainToast({
  toast,
  closeLabel,
  paused,
  onDismiss,
}: {
  toast: QueuedToast;
  closeLabel: string;
  paused: boolean;
  onDismiss: () => void;
}) {
  useDismissTimer(onDismiss, paused);
  return (
    <Root $variant={toast.variant}>
      {/* The role tells what the toast is; the announcement above is what is spoken, once. */}
      <div role={toast.variant === "error" ? "alert" : "status"} aria-live="off" data-variant={toast.variant}>
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
