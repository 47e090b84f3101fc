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
  CaptionedTable,
  Failure,
  FiguresTable,
  Loading,
  Marks,
  Muted,
  PersonLink,
  Section,
  SectionHeading,
  SubHeading,
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

type PartProps = { copy: Copy; format: ConsoleFormat; answer: DashboardAnswer };

/** The dashboard of one range: the chart, then one part per measure. */
function DashboardBody({ copy, format, answer, nowMs }: PartProps & { nowMs: () => number }) {
  const words = copy.dashboard;
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
      <FunnelPart copy={copy} format={format} answer={answer} />
      <DeliveryPart copy={copy} format={format} answer={answer} nowMs={nowMs} />
      <TopReferrersPart copy={copy} format={format} answer={answer} />
    </Grid>
  );
}

/**
 * The funnel from signup to counted referral and on to launch day's invited and accepted, each step's share of the one
 * it follows (invited: of the confirmed), and the viral coefficient.
 */
function FunnelPart({ copy, format, answer: { funnel } }: PartProps) {
  const words = copy.dashboard.funnel;
  const steps = [
    { name: words.signedUp, people: funnel.signedUp, before: null },
    { name: words.confirmed, people: funnel.confirmed, before: funnel.signedUp },
    { name: words.referred, people: funnel.referred, before: funnel.confirmed },
    { name: words.referralCounted, people: funnel.referralCounted, before: funnel.referred },
    { name: words.invited, people: funnel.invited, before: funnel.confirmed },
    { name: words.accepted, people: funnel.accepted, before: funnel.invited },
  ];
  return (
    <Part>
      <SubHeading>{words.heading}</SubHeading>
      <FiguresTable
        caption={words.caption}
        nameColumn={words.stepColumn}
        columns={[words.peopleColumn, words.shareColumn]}
        rows={steps.map((step) => ({
          key: step.name,
          name: step.name,
          figures: [
            format.count(step.people),
            step.before === null ? "" : step.before === 0 ? copy.none : format.share(step.people / step.before),
          ],
        }))}
      />
      <Figure>
        <dt>{words.viralCoefficient}</dt>
        <dd>{format.ratio(funnel.viralCoefficient)}</dd>
      </Figure>
    </Part>
  );
}

/** Delivery health: people per delivery state, the oldest pending signup's age and the dead-lettered count. */
function DeliveryPart({ copy, format, answer: { delivery }, nowMs }: PartProps & { nowMs: () => number }) {
  const words = copy.dashboard.delivery;
  return (
    <Part>
      <SubHeading>{words.heading}</SubHeading>
      <FiguresTable
        caption={words.caption}
        nameColumn={words.stateColumn}
        columns={[words.countColumn]}
        rows={(["pending", "delivered", "refused", "demo"] as const).map((state) => ({
          key: state,
          name: copy.deliveryStates[state],
          figures: [format.count(delivery[state])],
        }))}
      />
      <Figure>
        <dt>{words.oldestPending}</dt>
        <dd>{delivery.oldestPendingAt ? format.age(delivery.oldestPendingAt, nowMs()) : copy.none}</dd>
        <dt>{words.deadLettered}</dt>
        <dd>{format.count(delivery.deadLettered)}</dd>
        <dt>{words.erasuresRefused}</dt>
        <dd>{format.count(delivery.erasuresRefused)}</dd>
        <dt>{words.erasuresOverdue}</dt>
        <dd>{format.count(delivery.erasuresOverdue)}</dd>
      </Figure>
    </Part>
  );
}

/** The top referrers with their code, counted referrals and flags; a disqualified one is marked so. */
function TopReferrersPart({ copy, format, answer: { topReferrers } }: PartProps) {
  const words = copy.dashboard.topReferrers;
  return (
    <Wide>
      <SubHeading>{words.heading}</SubHeading>
      {topReferrers.length === 0 ? (
        <Muted>{words.empty}</Muted>
      ) : (
        <CaptionedTable caption={words.caption}>
          <thead>
            <tr>
              <th scope="col">{words.nameColumn}</th>
              <th scope="col">{words.codeColumn}</th>
              <th scope="col" data-number="">
                {words.referralsColumn}
              </th>
              <th scope="col">{words.flagsColumn}</th>
            </tr>
          </thead>
          <tbody>
            {topReferrers.map((referrer) => (
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
        </CaptionedTable>
      )}
    </Wide>
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
    <FiguresTable
      caption={caption}
      nameColumn={words.valueColumn}
      columns={[words.signupsColumn]}
      rows={[
        ...values.map((value) => ({ key: `value:${value.value}`, name: value.value, figures: [format.count(value.signups)] })),
        ...(other > 0 ? [{ key: "other", name: <Muted as="span">{words.otherValues}</Muted>, figures: [format.count(other)] }] : []),
      ]}
    />
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
