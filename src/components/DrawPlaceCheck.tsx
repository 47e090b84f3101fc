import { useState } from "react";
import { graphql } from "gatsby";
import styled from "styled-components";
import type { PlaceCheck } from "../referrals/drawPlace";
import { Failure, OutlineButton as Button } from "./StatusParts";

export interface DrawPlaceCheckProps {
  content: Queries.DrawPlaceCheckContentFragment;
  /** The status page's token; null until it is read. */
  token: string | null;
}

/**
 * On the status page: the button that finds the person's line in the published giveaway draw and checks its proof on
 * their device (referrals/drawPlace.ts, loaded on the click), then says so: their entries, the check, their ticket.
 * Its room is kept, hidden, until the status is read, so nothing below it moves when it appears.
 */
export function DrawPlaceCheck({ content, token }: DrawPlaceCheckProps) {
  const copy = content.status.drawPlace;
  const [check, setCheck] = useState<PlaceCheck | "checking" | null>(null);
  const ready = token !== null;
  const run = async (readToken: string) => {
    setCheck("checking");
    const { checkDrawPlace } = await import("../referrals/drawPlace");
    setCheck(await checkDrawPlace(readToken));
  };
  return (
    <Section data-covered={!ready} aria-hidden={!ready}>
      <Button type="button" disabled={!ready || check === "checking"} onClick={() => token !== null && void run(token)}>
        {check === "checking" ? copy.checking : copy.check}
      </Button>
      <div role="status">
        {check !== null && check !== "checking" && check.kind === "checked" ? (
          <>
            <p>{copy.inDraw.replace("{entries}", String(check.place.entries)).replace("{draw}", check.place.draw)}</p>
            {check.proven ? (
              <p>
                {copy.proven
                  .replace("{line}", String(check.place.index + 1))
                  .replace("{n}", String(check.place.n))
                  .replace("{root}", check.place.merkleRoot)}
              </p>
            ) : null}
            <p>
              <code>{copy.ticket.replace("{ticket}", check.place.ticket).replace("{pseudonym}", check.place.pseudonym)}</code>
            </p>
          </>
        ) : check !== null && check !== "checking" && check.kind !== "failed" ? (
          <p>{check.kind === "notInDraw" ? copy.notInDraw : copy.notPublished}</p>
        ) : null}
      </div>
      {check !== null && check !== "checking" && (check.kind === "failed" || (check.kind === "checked" && !check.proven)) ? (
        <Failure role="alert">{check.kind === "failed" ? copy.failed : copy.proofFailed}</Failure>
      ) : null}
    </Section>
  );
}

const Section = styled.section`
  display: grid;
  justify-items: center;
  gap: ${({ theme }) => theme.space.md};
  width: 100%;
  text-align: center;
  p {
    margin: 0;
  }
  code {
    overflow-wrap: anywhere;
  }
  &[data-covered="true"] {
    visibility: hidden;
  }
`;

export const query = graphql`
  fragment DrawPlaceCheckContent on SiteContent {
    status {
      drawPlace {
        check
        checking
        inDraw
        proven
        ticket
        proofFailed
        notPublished
        notInDraw
        failed
      }
    }
  }
`;
