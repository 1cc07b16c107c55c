import { useRef, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { Button, Select } from '../../components/ui';
import { StepActions } from './wizard-layout';

/** A step's form: Enter submits, the submit button shows the busy label. */
export function StepForm({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {children}
    </form>
  );
}

export function SubmitButton({
  busy,
  label,
  busyLabel,
  disabled,
}: {
  busy: boolean;
  label: string;
  busyLabel?: string;
  disabled?: boolean;
}) {
  return (
    <StepActions>
      <Button type="submit" size="lg" loading={busy} disabled={disabled}>
        {busy && busyLabel ? busyLabel : label}
      </Button>
    </StepActions>
  );
}

/**
 * A dropdown whose choice is explicit. A pointer choice commits at once (choosing saves:
 * docs/product.md#the-wizards); arrowing through the options only moves the shown value, and Enter
 * commits it — otherwise every ArrowDown would save a model and jump to the next step.
 */
export function ChoiceSelect({
  onPick,
  onCommit,
  ...props
}: Omit<ComponentProps<typeof Select>, 'onChange' | 'onKeyDown'> & {
  /** The shown value changed without being chosen (keyboard). */
  onPick: (value: string) => void;
  onCommit: (value: string) => void;
}) {
  const byKeyboard = useRef(false);
  return (
    <Select
      {...props}
      onPointerDown={() => {
        byKeyboard.current = false;
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          byKeyboard.current = false;
          onCommit(event.currentTarget.value);
        } else if (event.key !== 'Tab') {
          byKeyboard.current = true;
        }
      }}
      onChange={(event) => {
        if (byKeyboard.current) onPick(event.target.value);
        else onCommit(event.target.value);
      }}
    />
  );
}
