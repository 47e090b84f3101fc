/**
 * The toasts in the layout. Most visitors never see one, so the Radix toaster loads on first need (a
 * form touched, or a toast due); until then, or for good offline, <PlainToaster> draws the same queue,
 * so no toast is lost or held back. The region is fixed and empty until a toast is due: no layout shift.
 */
import { useEffect, useState, type ComponentType } from "react";
import { graphql } from "gatsby";
import PlainToaster from "./PlainToaster";
import type { ToasterCopy } from "./toastStyles";
import { useToasts } from "./ToastProvider";

type ToasterComponent = ComponentType<{ copy: ToasterCopy }>;

/** The visitor's first touch of a form, by these events inside one, is when the toaster's code is fetched. */
const FORM_TOUCH_EVENTS = ["focusin", "pointerdown", "keydown"] as const;

/** The Radix toaster once it has been loaded in this page view (the layout, and so this component, is mounted again on each page). */
let loadedToaster: ToasterComponent | null = null;

/** The Radix toaster's code, fetched once per page view; a failed fetch is tried again on the next call. */
export function loadRadixToaster(): Promise<ToasterComponent> {
  return import("./Toaster").then((module) => {
    loadedToaster = module.default;
    return module.default;
  });
}

/**
 * Draws the toast queue: plainly at first, with Radix once its code is here. The swap
 * waits until no toast is showing, so a toast on screen is never drawn (or announced) twice.
 */
export function Toasts({ content }: { content: Queries.ToastsContentFragment }) {
  const copy = content.toasts;
  const { toasts } = useToasts();
  const [Radix, setRadix] = useState<ToasterComponent | null>(() => loadedToaster);
  // On a page after the first, the toaster loaded earlier draws at once (a toast carried over is drawn anew either way).
  const [radixShown, setRadixShown] = useState(() => loadedToaster !== null);
  const [wanted, setWanted] = useState(false);
  const due = toasts.length > 0;

  useEffect(() => {
    if (Radix || wanted) return;
    if (due) {
      setWanted(true);
      return;
    }
    const touched = (event: Event) => {
      if (event.target instanceof Element && event.target.closest("form")) setWanted(true);
    };
    FORM_TOUCH_EVENTS.forEach((type) => document.addEventListener(type, touched, { capture: true, passive: true }));
    return () => FORM_TOUCH_EVENTS.forEach((type) => document.removeEventListener(type, touched, true));
  }, [Radix, wanted, due]);

  useEffect(() => {
    if (!wanted) return;
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
  }, [wanted]);

  useEffect(() => {
    if (Radix && !due) setRadixShown(true);
  }, [Radix, due]);

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
