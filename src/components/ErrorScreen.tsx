import { Helmet } from "react-helmet";
import styled from "styled-components";
import { theme } from "../styles/theme";

/** The screen shown when a page throws while rendering (product rule 5), with the copy of content/site.yaml → errorScreen. */
export default function ErrorScreen({ title, pageTitle, message }: { title: string; pageTitle: string; message: string }) {
  return (
    <Panel role="alert">
      <Helmet>
        <title>{pageTitle}</title>
        <meta name="robots" content="noindex" />
      </Helmet>
      <h1>{title}</h1>
      {message ? <pre>{message}</pre> : null}
    </Panel>
  );
}

const Panel = styled.div`
  position: relative;
  z-index: ${theme.layers.page};
  max-width: 640px;
  margin: 15vh auto 0;
  padding: ${theme.space.xxxl};
  h1 {
    margin: 0 0 ${theme.space.lg};
    font-size: 1.75rem;
  }
  pre {
    margin: 0;
    padding: ${theme.space.lg} ${theme.space.xl};
    overflow-x: auto;
    border-radius: ${theme.radii.small};
    background: ${theme.colors.errorSurface};
    color: ${theme.colors.errorText};
    white-space: pre-wrap;
  }
`;
