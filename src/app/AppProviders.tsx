/**
 * The app-wide providers, mounted once by `wrapRootElement`: the theme and the toast queue.
 * Tooltips and the referral pages' query client bring their own, so no page loads them unasked.
 */
import React from "react";
import { ThemeProvider } from "styled-components";
import { theme } from "../styles/theme";
import { ToastProvider } from "../toasts/ToastProvider";

export function AppProviders({ children }: { children: React.ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <ToastProvider>{children}</ToastProvider>
    </ThemeProvider>
  );
}
