/**
 * The toasts in the layout. The Radix toaster (the larger part of the toast code) is
 * not needed to show the page, so it is not part of hydration: its code is requested
 * as soon as the page has hydrated, before any toast can be due, not on first use.
 * Until it has arrived, and for good if it cannot arrive (offline), <PlainToaster>
 * draws the same queue, so no toast is ever lost or held back. Rendered after
 * hydration only: the region is fixed-position and empty until a toast is due, so
 * adding it shifts no layout.
 */
import { useEffect, useState, type ComponentType } from "react";
import { graphql } from "gatsby";
import PlainToaster from "./PlainToaster";
import type { ToasterCopy } from "./toastStyles";
import { useToasts } from "./ToastProvider";

type ToasterComponent = ComponentType<{ copy: ToasterCopy }>;

/** The Radix toaster's code, fetched once per page view; a failed fetch is tried again on the next call. */
export function loadRadixToaster(): Promise<ToasterComponent> {
  return import("./Toaster").then((module) => module.default);
}

/**
 * Draws the toast queue: plainly at first, with Radix once its code is here. The swap
 * waits until no toast is showing, so a toast on screen is never drawn (or announced) twice.
 */
export function Toasts({ content }: { content: Queries.ToastsContentFragment }) {
  const copy = content.toasts;
  const { toasts } = useToasts();
  const [mounted, setMounted] = useState(false);
  const [Radix, setRadix] = useState<ToasterComponent | null>(null);
  const [radixShown, setRadixShown] = useState(false);

  useEffect(() => {
    setMounted(true);
    let live = true;
    const load = () => {
      void loadRadixToaster().then(
        (component) => {
          if (live) setRadix(() => component);
          removeEventListener("online", load);
        },
        () => {
          // Offline or the file is gone: keep the plain toaster, try again when the browser is back online.
        },
      );
    };
    addEventListener("online", load);
    load();
    return () => {
      live = false;
      removeEventListener("online", load);
    };
  }, []);

  useEffect(() => {
    if (Radix && toasts.length === 0) setRadixShown(true);
  }, [Radix, toasts.length]);

  if (!mounted) return null;
  if (Radix && radixShown) return <Radix copy={copy} />;
  return <PlainToaster copy={copy} />;
}

export const query = graphql`
  fragment ToastsContent on SiteContent {
    toasts {
      closeLabel
      regionLabel
      announceLabel
    }
  }
`;
