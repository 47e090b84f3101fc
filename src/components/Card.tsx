import styled from "styled-components";

/** The raised panel that holds each page's content. */
export const Card = styled.div`
  display: grid;
  justify-items: center;
  gap: 20px;
  width: 100%;
  max-width: 560px;
  padding: 28px 20px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.large};
  background: rgb(18 26 46 / 88%);
  box-shadow: 0 24px 64px rgb(0 0 0 / 45%);
  text-align: center;
  @media (min-width: ${({ theme }) => theme.breakpoints.tablet}) {
    padding: 40px 40px 32px;
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
