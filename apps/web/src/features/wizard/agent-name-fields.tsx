import { Select, TextField } from '../../components/ui';
import { StepForm, SubmitButton } from './step-form';

/** Step 1: the agent's name and its (fixed) type. */
export function AgentNameFields({
  name,
  onNameChange,
  typeValue,
  typeLabel,
  busy,
  submitLabel,
  onSubmit,
}: {
  name: string;
  onNameChange: (name: string) => void;
  typeValue: string;
  typeLabel: string;
  busy: boolean;
  submitLabel: string;
  onSubmit: () => void;
}) {
  return (
    <StepForm onSubmit={onSubmit}>
      <TextField
        label="Agent Name"
        placeholder="Enter a unique name for your agent"
        value={name}
        onChange={(event) => onNameChange(event.target.value)}
        required
        maxLength={100}
        autoComplete="off"
      />
      <Select
        label="Agent Type"
        value={typeValue}
        options={[{ value: typeValue, label: typeLabel }]}
        onChange={() => undefined}
        required
      />
      <SubmitButton
        busy={busy}
        label={submitLabel}
        busyLabel={submitLabel === 'Create & Continue' ? 'Creating…' : 'Saving…'}
        disabled={name === ''}
      />
    </StepForm>
  );
}
