import styled from "styled-components";
import { theme } from "../styles/theme";

/** Rendered size of the logo (px); width and height are set so no layout shift happens while it loads. */
export const LOGO_SIZE_PX = 56;

/** The brand logo and name (product rule 1). */
export function Logo({ src, alt, brandName }: { src: string; alt: string; brandName: string }) {
  return (
    <Brand>
      <img src={src} alt={alt} width={LOGO_SIZE_PX} height={LOGO_SIZE_PX} />
      <span>{brandName}</span>
    </Brand>
  );
}

const Brand = styled.div`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space.lg};
  font-size: 1.35rem;
  font-weight: 800;
  letter-spacing: 0.02em;
  img {
    display: block;
    width: ${LOGO_SIZE_PX}px;
    height: ${LOGO_SIZE_PX}px;
  }
`;
