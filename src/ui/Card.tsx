import styled from "styled-components";
import { theme } from "../styles/theme";

/** The raised panel that holds each page's content. */
export const Card = styled.div`
  display: grid;
  justify-items: center;
  gap: ${theme.space.xxl};
  width: 100%;
  max-width: 560px;
  padding: ${theme.space.huge} ${theme.space.xxl};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radii.large};
  background: ${theme.colors.surfaceTranslucent};
  box-shadow: ${theme.shadows.card};
  text-align: center;
  @media (min-width: ${theme.breakpoints.tablet}) {
    padding: ${theme.space.giant} ${theme.space.giant} ${theme.space.vast};
  }
`;

/** Centres a page's card vertically in the viewport. */
export const Centered = styled.div`
  display: flex;
  flex: 1;
  align-items: center;
  justify-content: center;
  width: 100%;
`;
