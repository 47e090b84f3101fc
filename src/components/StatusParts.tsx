/** The status page's plain parts, shared by its sections: an outlined button and a failure note. */
import styled from "styled-components";

export const OutlineButton = styled.button`
  min-height: 44px;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.xl}`};
  border: 1px solid ${({ theme }) => theme.colors.text};
  border-radius: ${({ theme }) => theme.radii.small};
  background: transparent;
  color: ${({ theme }) => theme.colors.text};
  font: inherit;
  font-weight: 700;
  cursor: pointer;
  &:disabled {
    cursor: default;
    opacity: 0.6;
  }
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

export const Failure = styled.p`
  margin: 0;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border: 1px solid ${({ theme }) => theme.colors.errorBorder};
  border-radius: ${({ theme }) => theme.radii.small};
  background: ${({ theme }) => theme.colors.errorSurface};
  color: ${({ theme }) => theme.colors.errorText};
`;
