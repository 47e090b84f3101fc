/**
 * Text for screen readers only: a span with the visually-hidden rule Radix's VisuallyHidden applies (Bootstrap's).
 * Radix's component renders that span through its Primitive and Slot, which every page would then load for one span,
 * and importing only its style constant still brings them (webpack keeps the module's imports).
 */
import React from "react";

/** Radix's VISUALLY_HIDDEN_STYLES: out of sight and out of the layout, still read by screen readers. */
const VISUALLY_HIDDEN_STYLES: React.CSSProperties = {
  position: "absolute",
  border: 0,
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0, 0, 0, 0)",
  whiteSpace: "nowrap",
  wordWrap: "normal",
};

/** A `<span>` hidden from sight and read by screen readers; its props are a span's (`style` is merged over the rule). */
export const VisuallyHidden = React.forwardRef<HTMLSpanElement, React.ComponentPropsWithoutRef<"span">>(function VisuallyHidden(
  { style, ...props },
  ref,
) {
  return <span {...props} ref={ref} style={{ ...VISUALLY_HIDDEN_STYLES, ...style }} />;
});
