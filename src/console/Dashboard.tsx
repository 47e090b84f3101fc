/**
 * The dashboard, the console's first screen: for a range (7 days, 30 days, everything), signups per day by source,
 * the top UTM values, the funnel and the viral coefficient, delivery health and the top referrers with their flags.
 */
import { useState } from "react";
import styled from "styled-components";
import { CONSOLE_DASHBOARD_ENDPOINT, DASHBOARD_RANGES, type DashboardRange } from "../../shared/console";
import { theme } from "../styles/theme";
import { withQuery } from "./api";
import type { ConsoleContent } from "./content";
import { fill, type ConsoleFormat } from "./format";
import {
  Button,
  ButtonRow,
  Failure,
  Loading,
  Marks,
  Muted,
  PersonLink,
  Section,
  SectionHeading,
  SubHeading,
  Table,
  TableScroll,
} from "./parts";
import { routeHash } from "./route";
import { SignupsChart } from "./SignupsChart";
import { useAnswer } from "./useAnswer";
import type { CountedValue, DashboardAnswer } from "../../shared/api/console";

type Copy = ConsoleContent["console"];

/** The content's name of each range. */
const RANGE_WORD = { "7d": "last7Days", "30d": "last30Days", all: "all" } as const satisfies Record<DashboardRange, keyof Copy["ranges"]>;

/** Shown first: the last 7 days. */
const DEFAULT_RANGE: DashboardRange = "7d";

export function Dashboard({ copy, format, nowMs }: { copy: Copy; format: ConsoleFormat; nowMs: () => number }) {
  const [range, setRange] = useState<DashboardRange>(DEFAULT_RANGE);
  const { state, reload } = useAnswer<DashboardAnswer>(withQuery(CONSOLE_DASHBOARD_ENDPOINT, { range }));
  const words = copy.dashboard;

  return (
    <Section aria-labelledby="dashboard-heading">
      <SectionHeading id="dashboard-heading">{words.heading}</SectionHeading>
      <ButtonRow role="group" aria-label={copy.ranges.label}>
        {DASHBOARD_RANGES.map((value) => (
          <Button key={value} type="button" aria-pressed={range === value} onClick={() => setRange(value)}>
            {copy.ranges[RANGE_WORD[value]]}
          </Button>
        ))}
      </ButtonRow>
      {state.kind === "loading" ? (
        <Loading copy={copy} />
      ) : state.kind === "failed" ? (
        <Failure copy={copy} error={state.error} onRetry={reload} />
      ) : (
        <DashboardBody copy={copy} format={format} answer={state.answer} nowMs={nowMs} />
      )}
    </Section>
  );
}

function DashboardBody({
  copy,
  format,
  answer,
  nowMs,
}: {
  copy: Copy;
  format: ConsoleFormat;
  answer: DashboardAnswer;
  nowMs: () => number;
}) {
  const words = copy.dashboard;
  const { funnel, delivery } = answer;
  const steps = [
    { name: words.funnel.signedUp, people: funnel.signedUp, before: null },
    { name: words.funnel.confirmed, people: funnel.confirmed, before: funnel.signedUp },
    { name: words.funnel.referred, people: funnel.referred, before: funnel.confirmed },
    { name: words.funnel.referralCounted, people: funnel.referralCounted, before: funnel.referred },
  ];
  return (
    <Grid>
      <Wide>
        <Muted>{fill(words.daysIn, { timeZone: format.zone(answer.timeZone) })}</Muted>
        <SignupsChart copy={copy} format={format} days={answer.days} sources={answer.sources} />
      </Wide>
      <Part>
        <SubHeading>{words.utm.heading}</SubHeading>
        <CountedTable
          copy={copy}
          format={format}
          caption={words.utm.sourcesCaption}
          values={answer.utmSources}
          other={answer.utmSourcesOther}
        />
        <CountedTable
          copy={copy}
          format={format}
          caption={words.utm.campaignsCaption}
          values={answer.utmCampaigns}
          other={answer.utmCampaignsOther}
        />
      </Part>
      <Part>
        <SubHeading>{words.funnel.heading}</SubHeading>
        <TableScroll label={words.funnel.caption}>
          <Table>
            <caption>{words.funnel.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{words.funnel.stepColumn}</th>
                <th scope="col" data-number="">
                  {words.funnel.peopleColumn}
                </th>
                <th scope="col" data-number="">
                  {words.funnel.shareColumn}
                </th>
              </tr>
            </thead>
            <tbody>
              {steps.map((step) => (
                <tr key={step.name}>
                  <th scope="row">{step.name}</th>
                  <td data-number="">{format.count(step.people)}</td>
                  <td data-number="">
                    {step.before === null ? "" : step.before === 0 ? copy.none : format.share(step.people / step.before)}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </TableScroll>
        <Figure>
          <dt>{words.funnel.viralCoefficient}</dt>
          <dd>{format.ratio(funnel.viralCoefficient)}</dd>
        </Figure>
      </Part>
      <Part>
        <SubHeading>{words.delivery.heading}</SubHeading>
        <TableScroll label={words.delivery.caption}>
          <Table>
            <caption>{words.delivery.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{words.delivery.stateColumn}</th>
                <th scope="col" data-number="">
                  {words.delivery.countColumn}
                </th>
              </tr>
            </thead>
            <tbody>
              {(["pending", "delivered", "refused", "demo"] as const).map((state) => (
                <tr key={state}>
                  <th scope="row">{copy.deliveryStates[state]}</th>
                  <td data-number="">{format.count(delivery[state])}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </TableScroll>
        <Figure>
          <dt>{words.delivery.oldestPending}</dt>
          <dd>{delivery.oldestPendingAt ? format.age(delivery.oldestPendingAt, nowMs()) : copy.none}</dd>
          <dt>{words.delivery.deadLettered}</dt>
          <dd>{format.count(delivery.deadLettered)}</dd>
          <dt>{words.delivery.erasuresRefused}</dt>
          <dd>{format.count(delivery.erasuresRefused)}</dd>
          <dt>{words.delivery.erasuresOverdue}</dt>
          <dd>{format.count(delivery.erasuresOverdue)}</dd>
        </Figure>
      </Part>
      <Wide>
        <SubHeading>{words.topReferrers.heading}</SubHeading>
        {answer.topReferrers.length === 0 ? (
          <Muted>{words.topReferrers.empty}</Muted>
        ) : (
          <TableScroll label={words.topReferrers.caption}>
            <Table>
              <caption>{words.topReferrers.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{words.topReferrers.nameColumn}</th>
                  <th scope="col">{words.topReferrers.codeColumn}</th>
                  <th scope="col" data-number="">
                    {words.topReferrers.referralsColumn}
                  </th>
                  <th scope="col">{words.topReferrers.flagsColumn}</th>
                </tr>
              </thead>
              <tbody>
                {answer.topReferrers.map((referrer) => (
                  <tr key={referrer.id}>
                    <td>
                      <PersonLink href={routeHash({ view: "person", id: referrer.id })}>
                        {referrer.firstName} {referrer.lastName}
                      </PersonLink>
                      {referrer.disqualified ? <Muted as="span"> ({copy.people.disqualified})</Muted> : null}
                    </td>
                    <td>{referrer.referralCode}</td>
                    <td data-number="">{format.count(referrer.referrals)}</td>
                    <td>
                      <Marks copy={copy} flags={referrer.flags} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </TableScroll>
        )}
      </Wide>
    </Grid>
  );
}

/** A table of counted values (top UTM sources or campaigns), or the content's "none" when there are none. */
function CountedTable({
  copy,
  format,
  caption,
  values,
  other,
}: {
  copy: Copy;
  format: ConsoleFormat;
  caption: string;
  values: readonly CountedValue[];
  /** Signups with a value not listed, in a last row when there are any. */
  other: number;
}) {
  const words = copy.dashboard.utm;
  if (values.length === 0 && other === 0)
    return (
      <Muted>
        {caption}: {words.empty}
      </Muted>
    );
  return (
    <TableScroll label={caption}>
      <Table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{words.valueColumn}</th>
            <th scope="col" data-number="">
              {words.signupsColumn}
            </th>
          </tr>
        </thead>
        <tbody>
          {values.map((value) => (
            <tr key={value.value}>
              <td>{value.value}</td>
              <td data-number="">{format.count(value.signups)}</td>
            </tr>
          ))}
          {other > 0 && (
            <tr>
              <td>
                <Muted as="span">{words.otherValues}</Muted>
              </td>
              <td data-number="">{format.count(other)}</td>
            </tr>
          )}
        </tbody>
      </Table>
    </TableScroll>
  );
}

const Grid = styled.div`
  display: grid;
  gap: ${theme.space.xxxl};
  min-width: 0;
  @media (min-width: ${theme.breakpoints.tablet}) {
    grid-template-columns: repeat(3, minmax(0, 1fr));
  }
`;

const Part = styled.div`
  display: grid;
  gap: ${theme.space.md};
  align-content: start;
  min-width: 0;
`;

const Wide = styled(Part)`
  grid-column: 1 / -1;
`;

const Figure = styled.dl`
  display: grid;
  grid-template-columns: 1fr auto;
  gap: ${theme.space.xs} ${theme.space.lg};
  margin: 0;
  dd {
    margin: 0;
    font-variant-numeric: tabular-nums;
    text-align: end;
  }
`;
