/**
 * The dialog every action on a person goes through, the export of their data too (Radix Dialog: focus kept inside,
 * Escape closes, focus returns to the button that opened it). It requires a reason, checked by the rule the Worker
 * applies (shared/console-reason.ts), before anything is sent; an erase also asks the operator to confirm in plain words.
 */
import React, { useId, useState } from "react";
import * as Dialog from "@radix-ui/react-dialog";
import styled, { keyframes } from "styled-components";
import { REASON_MAX_LENGTH, type PersonAction } from "../../shared/console";
import { type ReasonProblem, reasonProblem, type ReasonSubject } from "../../shared/console-reason";
import { theme } from "./theme";
import { ConsoleError, postAction } from "./api";
import type { ConsoleContent } from "./content";
import { fill } from "./format";
import { Button, ButtonRow, Input, Notice } from "./parts";
import type { ActionAnswer } from "../../shared/api/console";

type Copy = ConsoleContent["console"];

/** The content's name of each action. */
export const ACTION_WORD = {
  disqualify: "disqualify",
  requalify: "requalify",
  approve: "approve",
  "send-again": "sendAgain",
  erase: "erase",
} as const satisfies Record<PersonAction, keyof Copy["actions"]>;

export interface ActionDialogProps<T> {
  copy: Copy;
  /** The name the dialog's title gives the person. */
  personName: string;
  /** The action's name: its button's words and the dialog's title. */
  actionName: string;
  /** An erase, which also asks the operator to tick that the person is deleted for good. */
  erase?: boolean;
  /** The person the action is about, if it is about one: the reason may not name them (shared/console-reason.ts). */
  subject?: ReasonSubject;
  /**
   * Carry the action out with the reason given.
   * @throws ConsoleError when the service refuses or cannot be reached (shown in the dialog, which stays open)
   */
  perform: (reason: string) => Promise<T>;
  /** Called with perform's result once the action is done (the dialog has closed). */
  onDone: (result: T) => void;
}

/** The dialog of one PersonAction on a person: posts the action with its reason (ActionAnswer to onDone). */
export function PersonActionDialog({
  copy,
  person,
  action,
  onDone,
}: {
  copy: Copy;
  person: { id: string; name: string } & ReasonSubject;
  action: PersonAction;
  onDone: (answer: ActionAnswer) => void;
}) {
  return (
    <ActionDialog
      copy={copy}
      personName={person.name}
      actionName={copy.actions[ACTION_WORD[action]]}
      erase={action === "erase"}
      subject={person}
      perform={(reason) => postAction(person.id, action, { reason })}
      onDone={onDone}
    />
  );
}

/** The dialog's trigger, then its form: the reason, for an erasure its confirmation, and the failure if any. */
export function ActionDialog<T>({ copy, personName, actionName, erase = false, subject, perform, onDone }: ActionDialogProps<T>) {
  const words = copy.dialog;
  const form = useActionForm({ copy, erase, subject, perform, onDone });
  const { ids } = form;

  return (
    <Dialog.Root open={form.open} onOpenChange={form.reset}>
      <Dialog.Trigger asChild>
        <Button type="button">{actionName}</Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Overlay />
        <Content>
          <Title>{fill(words.title, { action: actionName, name: personName })}</Title>
          <Dialog.Description>{erase ? words.eraseWarning : words.description}</Dialog.Description>
          <Form onSubmit={(event) => void form.submit(event)} noValidate>
            <Field>
              <label htmlFor={ids.reason}>{words.reasonLabel}</label>
              <Input
                id={ids.reason}
                type="text"
                autoComplete="off"
                value={form.reason}
                onChange={(event) => form.setReason(event.target.value)}
                aria-invalid={form.problem ? true : undefined}
                aria-describedby={form.problem ? ids.reasonError : undefined}
                aria-required="true"
              />
              {form.problem ? <Problem id={ids.reasonError}>{form.problem}</Problem> : null}
            </Field>
            {erase ? <EraseCheck copy={copy} form={form} /> : null}
            {form.failure ? <Notice role="alert">{copy.errors[form.failure.key]}</Notice> : null}
            <ButtonRow>
              <Button type="submit" disabled={form.sending}>
                {form.sending ? words.working : words.confirm}
              </Button>
              <Dialog.Close asChild>
                <Button type="button">{words.cancel}</Button>
              </Dialog.Close>
            </ButtonRow>
          </Form>
        </Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * The dialog's state and its submit: the reason checked by the shared rule (reasonProblem), an erasure's confirmation
 * required, then `perform`; a failure is kept for its message and the dialog stays open.
 */
function useActionForm<T>({
  copy,
  erase,
  subject,
  perform,
  onDone,
}: Pick<ActionDialogProps<T>, "copy" | "erase" | "subject" | "perform" | "onDone">) {
  const words = copy.dialog;
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [confirmed, setConfirmed] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmProblem, setConfirmProblem] = useState(false);
  const [failure, setFailure] = useState<ConsoleError | null>(null);
  const [sending, setSending] = useState(false);
  const ids = { reason: useId(), reasonError: useId(), confirm: useId(), confirmError: useId() };

  const reset = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setReason("");
      setConfirmed(false);
      setProblem(null);
      setConfirmProblem(false);
      setFailure(null);
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = reasonProblem(reason, subject);
    setProblem(found === null ? null : reasonMessage(words, found));
    const unconfirmed = erase === true && !confirmed;
    setConfirmProblem(unconfirmed);
    if (found || unconfirmed) {
      document.getElementById(found ? ids.reason : ids.confirm)?.focus();
      return;
    }
    setSending(true);
    setFailure(null);
    try {
      const result = await perform(reason);
      reset(false);
      onDone(result);
    } catch (error) {
      setFailure(error instanceof ConsoleError ? error : new ConsoleError("unavailable", null));
    } finally {
      setSending(false);
    }
  };

  return { ids, open, reason, setReason, confirmed, setConfirmed, problem, confirmProblem, failure, sending, reset, submit };
}

/** The content's words for what is wrong with a reason. */
function reasonMessage(words: Copy["dialog"], problem: ReasonProblem): string {
  switch (problem) {
    case "required":
      return words.reasonRequired;
    case "tooLong":
      return fill(words.reasonTooLong, { max: String(REASON_MAX_LENGTH) });
    case "controlCharacter":
      return words.reasonControlCharacter;
    case "namesAddress":
      return words.reasonNamesAddress;
    case "namesNumber":
      return words.reasonNamesNumber;
    case "namesPerson":
      return words.reasonNamesPerson;
  }
}

/** An erasure's confirmation box, and the content's words when it was left unticked. */
function EraseCheck({ copy, form }: { copy: Copy; form: ReturnType<typeof useActionForm> }) {
  const { ids } = form;
  return (
    <Check>
      <input
        id={ids.confirm}
        type="checkbox"
        checked={form.confirmed}
        onChange={(event) => form.setConfirmed(event.target.checked)}
        aria-invalid={form.confirmProblem ? true : undefined}
        aria-describedby={form.confirmProblem ? ids.confirmError : undefined}
      />
      <label htmlFor={ids.confirm}>{copy.dialog.eraseConfirm}</label>
      {form.confirmProblem ? <Problem id={ids.confirmError}>{copy.dialog.eraseConfirmRequired}</Problem> : null}
    </Check>
  );
}

const fadeIn = keyframes`
  from { opacity: 0; }
  to { opacity: 1; }
`;

const rise = keyframes`
  from { opacity: 0; transform: translate(-50%, -48%); }
  to { opacity: 1; transform: translate(-50%, -50%); }
`;

const Overlay = styled(Dialog.Overlay)`
  position: fixed;
  inset: 0;
  z-index: ${theme.layers.toasts};
  background: ${theme.colors.scrim};
  animation: ${fadeIn} 150ms ease-out;
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`;

const Content = styled(Dialog.Content)`
  position: fixed;
  top: 50%;
  left: 50%;
  z-index: ${theme.layers.toasts};
  display: grid;
  gap: ${theme.space.lg};
  width: min(520px, calc(100vw - 2 * ${theme.space.base}));
  max-height: calc(100vh - 2 * ${theme.space.base});
  overflow-y: auto;
  padding: ${theme.space.xxxl};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radii.medium};
  background: ${theme.colors.surface};
  box-shadow: ${theme.shadows.popup};
  transform: translate(-50%, -50%);
  animation: ${rise} 150ms ease-out;
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`;

const Title = styled(Dialog.Title)`
  margin: 0;
  font-size: 1.2rem;
`;

const Form = styled.form`
  display: grid;
  gap: ${theme.space.lg};
`;

const Field = styled.div`
  display: grid;
  gap: ${theme.space.xxs};
`;

const Check = styled.div`
  display: grid;
  grid-template-columns: auto 1fr;
  gap: ${theme.space.xs} ${theme.space.sm};
  align-items: start;
  input {
    width: 24px;
    height: 24px;
    margin: 0;
  }
  p {
    grid-column: 1 / -1;
  }
`;

const Problem = styled.p`
  margin: 0;
  color: ${theme.colors.errorBorder};
`;
