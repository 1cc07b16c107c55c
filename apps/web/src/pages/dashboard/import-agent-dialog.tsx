import type { TAgentImportPlan } from '@agentloom/contracts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Dialog } from '../../components/dialog';
import { Alert, CancelAndSubmit, TextArea, TextField } from '../../components/ui';
import { wizardPath } from '../../features/wizard/step-navigation';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { useCheckAgentFile, useImportAgent } from './agent-files-api';
import { ImportKeyField, importKeyFields, useVaultKeys, type ImportKey } from './import-key-field';

/** The fields the import asks for: only what the chosen file left out. */
type Answers = Record<
  | 'name'
  | 'vector_db_api_key'
  | 'vector_store_url'
  | 'database_uri'
  | 'database_password'
  | 'system_prompt',
  string
>;
const NO_KEY: ImportKey = { choice: null, typed: '' };
const EMPTY: Answers = {
  name: '',
  vector_db_api_key: '',
  vector_store_url: '',
  database_uri: '',
  database_password: '',
  system_prompt: '',
};

/**
 * "Import agent": pick an exported file, a downloaded agent zip or its agent.json; the server
 * reads it (nothing is created yet) and says what it lacks; the import then creates a draft
 * through the wizard's own checks and opens it at its build step.
 */
export function ImportAgentDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const check = useCheckAgentFile();
  const importAgent = useImportAgent();
  const [file, setFile] = useState<File | null>(null);
  const [answers, setAnswers] = useState<Answers>(EMPTY);
  const [key, setKey] = useState<ImportKey>(NO_KEY);
  const plan = check.data;
  const vaultKeys = useVaultKeys(plan?.llm_provider ?? 'openai');

  function close() {
    setFile(null);
    setAnswers(EMPTY);
    setKey(NO_KEY);
    check.reset();
    importAgent.reset();
    onClose();
  }

  function choose(chosen: File | undefined) {
    setFile(chosen ?? null);
    importAgent.reset();
    if (!chosen) return check.reset();
    check.mutate(chosen, {
      onSuccess: (found) => {
        setAnswers({ ...EMPTY, name: found.name });
        setKey(NO_KEY);
      },
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!file || !plan) return;
    importAgent.mutate(
      { file, fields: { ...answers, ...importKeyFields(key, vaultKeys) } },
      {
        onSuccess: (created) => {
          notifyImported(created.name);
          close();
          void navigate(wizardPath(created.agent_type, created.id));
        },
      },
    );
  }

  const error = check.error ?? importAgent.error;
  const set = (field: keyof Answers) => (value: string) =>
    setAnswers((current) => ({ ...current, [field]: value }));
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && close()}
      title="Import agent"
      description="Choose a file My Agents exported, a downloaded agent zip, or its agent.json. Keys and passwords are never in the file: you enter them here."
    >
      <form className="space-y-4" onSubmit={submit}>
        <TextField
          label="Agent file"
          type="file"
          accept=".zip,.json,application/zip,application/json"
          onChange={(event) => choose(event.target.files?.[0])}
        />
        {check.isPending && <p className="text-sm">Reading the file…</p>}
        {error && (
          <Alert>{errorDetail(error) ?? 'The file could not be imported. Please try again.'}</Alert>
        )}
        {plan && (
          <MissingFields plan={plan} answers={answers} set={set}>
            <ImportKeyField
              provider={plan.llm_provider}
              model={plan.llm_model}
              value={key}
              onChange={setKey}
            />
          </MissingFields>
        )}
        <CancelAndSubmit submitLabel="Import agent" busy={importAgent.isPending} onCancel={close} />
      </form>
    </Dialog>
  );
}

const notifyImported = (name: string) =>
  notify.success('Agent imported', `"${name}" is a new draft. Build it when ready.`);

function MissingFields({
  plan,
  answers,
  set,
  children,
}: {
  plan: TAgentImportPlan;
  answers: Answers;
  set: (field: keyof Answers) => (value: string) => void;
  /** The LLM key's field. */
  children: ReactNode;
}) {
  const { needs, database } = plan;
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {plan.agent_type.toUpperCase()} agent: {plan.summary}
      </p>
      <TextField
        label="Agent name"
        required
        value={answers.name}
        onChange={(event) => set('name')(event.target.value)}
      />
      {children}
      <VectorStoreFields plan={plan} answers={answers} set={set} />
      {needs.database_uri && database && (
        <TextField
          label="Connection URI"
          required
          hint={`Of the database holding ${database.database} / ${database.table}, with its password.`}
          value={answers.database_uri}
          onChange={(event) => set('database_uri')(event.target.value)}
        />
      )}
      {needs.database_password && database && (
        <TextField
          label="Database password"
          type="password"
          autoComplete="off"
          required
          hint={`For ${database.uri ?? 'the database'}.`}
          value={answers.database_password}
          onChange={(event) => set('database_password')(event.target.value)}
        />
      )}
      {needs.system_prompt && (
        <TextArea
          label="System prompt"
          required
          rows={4}
          value={answers.system_prompt}
          onChange={(event) => set('system_prompt')(event.target.value)}
        />
      )}
    </div>
  );
}

/** Pinecone's key, or the URL of a store whose password or key the exported file left out. */
function VectorStoreFields({
  plan: { needs },
  answers,
  set,
}: {
  plan: TAgentImportPlan;
  answers: Answers;
  set: (field: keyof Answers) => (value: string) => void;
}) {
  return (
    <>
      {needs.vector_db_api_key && (
        <TextField
          label="Pinecone API key"
          type="password"
          autoComplete="off"
          required
          value={answers.vector_db_api_key}
          onChange={(event) => set('vector_db_api_key')(event.target.value)}
        />
      )}
      {needs.vector_store_url && (
        <TextField
          label="Vector store URL"
          type="password"
          autoComplete="off"
          required
          hint="With its password or key: the exported file leaves them out."
          value={answers.vector_store_url}
          onChange={(event) => set('vector_store_url')(event.target.value)}
        />
      )}
    </>
  );
}
