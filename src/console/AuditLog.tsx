/** The audit log, newest first, a page at a time ("show older" follows the answer's cursor). */
import React, { useEffect, useState } from "react";
import { CONSOLE_AUDIT_ENDPOINT } from "../../shared/console";
import { ConsoleError, getConsole, withQuery } from "./api";
import { AuditTable } from "./AuditTable";
import type { ConsoleContent } from "./content";
import type { ConsoleFormat } from "./format";
import { Button, Failure, Loading, Muted, Section, SectionHeading } from "./parts";
import { useAnswer } from "./useAnswer";
import type { AuditAnswer, AuditEntry } from "../../shared/api/console";

type Copy = ConsoleContent["console"];

export function AuditLog({ copy, format }: { copy: Copy; format: ConsoleFormat }) {
  const { state, reload } = useAnswer<AuditAnswer>(CONSOLE_AUDIT_ENDPOINT);
  const [older, setOlder] = useState<{ entries: AuditEntry[]; next: string | null } | null>(null);
  const [moreError, setMoreError] = useState<ConsoleError | null>(null);
  useEffect(() => setOlder(null), [state]);

  if (state.kind === "loading") return <Frame copy={copy}>{<Loading copy={copy} />}</Frame>;
  if (state.kind === "failed")
    return (
      <Frame copy={copy}>
        <Failure copy={copy} error={state.error} onRetry={reload} />
      </Frame>
    );
  const entries = [...state.answer.entries, ...(older?.entries ?? [])];
  const next = older ? older.next : state.answer.next;
  const more = async () => {
    if (!next) return;
    setMoreError(null);
    try {
      const page = await getConsole<AuditAnswer>(withQuery(CONSOLE_AUDIT_ENDPOINT, { before: next }));
      setOlder((current) => ({ entries: [...(current?.entries ?? []), ...page.entries], next: page.next }));
    } catch (error) {
      setMoreError(error instanceof ConsoleError ? error : new ConsoleError("unavailable", null));
    }
  };
  return (
    <Frame copy={copy}>
      {entries.length === 0 ? <Muted>{copy.audit.empty}</Muted> : <AuditTable copy={copy} format={format} entries={entries} showPerson />}
      {moreError ? <Failure copy={copy} error={moreError} /> : null}
      {next ? (
        <Button type="button" onClick={() => void more()}>
          {copy.audit.more}
        </Button>
      ) : null}
    </Frame>
  );
}

function Frame({ copy, children }: { copy: Copy; children: React.ReactNode }) {
  return (
    <Section aria-labelledby="audit-heading">
      <SectionHeading id="audit-heading">{copy.audit.heading}</SectionHeading>
      {children}
    </Section>
  );
}
