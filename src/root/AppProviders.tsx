/**
 * Providers around the whole app, mounted once by `wrapRootElement`
 * (gatsby-browser.tsx and gatsby-ssr.tsx): the theme and the toast queue. Global
 * styles are plain CSS in every page's head (src/styles/globalCss.tsx); tooltips carry
 * their own provider, loaded lazily (see Badges); the referral pages their own query
 * client (src/referrals/ReferralQueries.tsx).
 */
import React from "react";
import { ThemeProvider } from "styled-components";
import { theme } from "../styles/theme";
import { ToastProvider } from "../toasts/ToastProvider";

/** Wraps `children` in every app-wide provider. */
export function AppProviders({ children }: { children: React.ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <ToastProvider>{children}</ToastProvider>
    </ThemeProvider>
  );
}
