/** The app's toast queue, in `wrapRootElement` so that a toast survives navigation; <Toasts> draws it. */
import React, { createContext, useCallback, useContext, useMemo, useState } from "react";

/** "error" toasts are styled as errors and announced assertively: they stop the signup and the visitor must act (product rules 7, 8). */
export type ToastVariant = "success" | "error";

/** A toast to show: copy comes from content/site.yaml. */
export interface ToastInput {
  variant: ToastVariant;
  title: string;
  message: string;
}

/** A queued toast with its id. */
export interface QueuedToast extends ToastInput {
  id: number;
}

interface ToastContextValue {
  toasts: QueuedToast[];
  showToast: (toast: ToastInput) => void;
  dismissToast: (id: number) => void;
}

const ToastContext = createContext<ToastContextValue | null>(null);

/** Holds the toast queue; wrap the app in it once (gatsby-browser/gatsby-ssr). */
export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [toasts, setToasts] = useState<QueuedToast[]>([]);
  const showToast = useCallback((toast: ToastInput) => {
    setToasts((current) => [...current, { ...toast, id: (current[current.length - 1]?.id ?? 0) + 1 }]);
  }, []);
  const dismissToast = useCallback((id: number) => setToasts((current) => current.filter((t) => t.id !== id)), []);
  const value = useMemo(() => ({ toasts, showToast, dismissToast }), [toasts, showToast, dismissToast]);
  return <ToastContext.Provider value={value}>{children}</ToastContext.Provider>;
}

/**
 * The toast queue.
 * @throws Error when used outside <ToastProvider>
 */
export function useToasts(): ToastContextValue {
  const value = useContext(ToastContext);
  if (!value) throw new Error("useToasts must be used inside <ToastProvider>");
  return value;
}
