import styled from "styled-components";

/** The raised panel that holds each page's content. */
export const Card = styled.div`
  display: grid;
  justify-items: center;
  gap: ${({ theme }) => theme.space.xxl};
  width: 100%;
  max-width: 560px;
  padding: ${({ theme }) => `${theme.space.huge} ${theme.space.xxl}`};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.large};
  background: ${({ theme }) => theme.colors.surfaceTranslucent};
  box-shadow: ${({ theme }) => theme.shadows.card};
  text-align: center;
  @media (min-width: ${({ theme }) => theme.breakpoints.tablet}) {
    padding: ${({ theme }) => `${theme.space.giant} ${theme.space.giant} ${theme.space.vast}`};
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
