/**
 * Providers around the whole app, mounted once by `wrapRootElement`
 * (gatsby-browser.tsx and gatsby-ssr.tsx): the theme, the query client and the
 * toast queue. Global styles live in the Layout (see there why); tooltips carry
 * their own provider, loaded lazily (see Badges).
 */
import React, { useState } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { ThemeProvider } from "styled-components";
import { createQueryClient } from "../signup/queryClient";
import { theme } from "../styles/theme";
import { ToastProvider } from "../toasts/ToastProvider";

/** Wraps `children` in every app-wide provider. */
export function AppProviders({ children }: { children: React.ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <ThemeProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <ToastProvider>{children}</ToastProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
