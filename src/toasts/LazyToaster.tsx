import { lazy, Suspense } from "react";
import type { ToasterCopy } from "./Toaster";
import { useToasts } from "./ToastProvider";

/**
 * Start loading the toast UI (Radix Toast). Called when a visitor starts on the
 * form, so the code is there before the first toast is due; safe to call often.
 */
export const preloadToaster = () => import("./Toaster");

const Toaster = lazy(preloadToaster);

/**
 * The toasts, with Radix Toast loaded only once there is something to show: most
 * visits never need it on first load (a budget of issue 5).
 */
export function LazyToaster({ copy }: { copy: ToasterCopy }) {
  const { toasts, everShown } = useToasts();
  if (!everShown && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster copy={copy} />
    </Suspense>
  );
}
