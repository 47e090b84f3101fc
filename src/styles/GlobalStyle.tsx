import { createGlobalStyle } from "styled-components";

/**
 * Page-wide base styles: dark background, system fonts (no webfont, so no
 * font-swap layout shift), a visible focus ring for keyboard users, and
 * reduced motion honoured everywhere.
 */
export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  html { -webkit-text-size-adjust: 100%; color-scheme: dark; }
  body {
    margin: 0;
    min-height: 100vh;
    background: radial-gradient(120% 80% at 50% 0%, ${({ theme }) => theme.colors.backgroundGlow} 0%, ${({ theme }) => theme.colors.background} 60%) fixed,
      ${({ theme }) => theme.colors.background};
    color: ${({ theme }) => theme.colors.text};
    font-family: ${({ theme }) => theme.fonts.body};
    line-height: 1.5;
    -webkit-font-smoothing: antialiased;
  }
  a { color: ${({ theme }) => theme.colors.accent}; }
  :focus-visible { outline: 3px solid ${({ theme }) => theme.colors.focus}; outline-offset: 3px; }
  @media (prefers-reduced-motion: reduce) {
    *, *::before, *::after { animation: none !important; transition: none !important; }
  }
`;
