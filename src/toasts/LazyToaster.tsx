import React, { lazy, Suspense } from "react";
import styled from "styled-components";
import type { ToasterCopy } from "./Toaster";
import { useToasts } from "./ToastProvider";

const loadToaster = () => import("./Toaster");

/**
 * Start loading the toast UI (Radix Toast). Called when a visitor starts on the
 * form, so the code is there before the first toast is due; safe to call often.
 * A failed preload (offline) is left for the lazy load to retry: unhandled, Gatsby
 * takes a chunk error for a stale deploy and reloads the page, losing what was typed.
 */
export const preloadToaster = () => {
  loadToaster().catch(() => undefined);
};

const Toaster = lazy(loadToaster);

/**
 * The toasts, with Radix Toast loaded only once there is something to show: most
 * visits never need it on first load (a budget of issue 5). When its code cannot be
 * loaded (the visitor went offline, issue 6), plain toasts show instead.
 */
export function LazyToaster({ copy }: { copy: ToasterCopy }) {
  const { toasts, everShown } = useToasts();
  if (!everShown && toasts.length === 0) return null;
  return (
    <LoadFailureBoundary fallback={<PlainToasts copy={copy} />}>
      <Suspense fallback={null}>
        <Toaster copy={copy} />
      </Suspense>
    </LoadFailureBoundary>
  );
}

/** Shows `fallback` instead of its children once they failed to load; without it the whole page would unmount. */
class LoadFailureBoundary extends React.Component<{ fallback: React.ReactNode; children: React.ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** The queued toasts without Radix: same roles and region label, dismissed by their close button. */
function PlainToasts({ copy }: { copy: ToasterCopy }) {
  const { toasts, dismissToast } = useToasts();
  // Radix fills in its hotkey; these toasts have none.
  const label = copy.regionLabel.replace(/\s*\(?\{hotkey\}\)?/, "");
  return (
    <PlainRegion aria-label={label}>
      {toasts.map((toast) => (
        <PlainToast key={toast.id} role={toast.variant === "error" ? "alert" : "status"} data-variant={toast.variant}>
          <strong>{toast.title}</strong>
          <p>{toast.message}</p>
          <button type="button" aria-label={copy.closeLabel} onClick={() => dismissToast(toast.id)}>
            ×
          </button>
        </PlainToast>
      ))}
    </PlainRegion>
  );
}

const PlainRegion = styled.section`
  position: fixed;
  top: 0;
  right: 0;
  z-index: 100;
  display: grid;
  gap: 10px;
  width: min(380px, 100vw);
  padding: 16px;
`;

const PlainToast = styled.div`
  position: relative;
  padding: 14px 40px 14px 16px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.small};
  background: ${({ theme }) => theme.colors.surfaceRaised};
  color: ${({ theme }) => theme.colors.text};
  p { margin: 4px 0 0; }
  button { position: absolute; top: 8px; right: 8px; border: 0; background: none; color: inherit; font-size: 1.25rem; cursor: pointer; }
`;
