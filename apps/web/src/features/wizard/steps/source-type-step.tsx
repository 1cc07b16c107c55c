import {
  isFileSourceType,
  RAG_SOURCE_TYPES,
  SOURCE_TYPE_LABELS,
  SQL_SOURCE_TYPES,
  ZRagSourceRequest,
  ZSqlSourceRequest,
  type TAgentType,
  type TRagSourceType,
  type TSqlSourceType,
} from '@agentloom/contracts';
import { Database, FileSpreadsheet, FileText, FileType } from 'lucide-react';
import { ChoiceCards, type Choice } from '../choice-cards';
import { ragCalls, sqlCalls, type WizardCall } from '../wizard-api';
import { checked, type WizardStepProps } from '../wizard-step';

const ICONS: Record<TRagSourceType | TSqlSourceType, typeof FileText> = {
  pdf: FileText,
  csv: FileSpreadsheet,
  excel: FileSpreadsheet,
  text_file: FileType,
  postgres: Database,
  mysql: Database,
  sqlite: Database,
  mongo: Database,
};

const choicesOf = (types: readonly (TRagSourceType | TSqlSourceType)[]): Choice<string>[] =>
  types.map((type) => {
    const Icon = ICONS[type];
    return {
      value: type,
      label: SOURCE_TYPE_LABELS[type],
      description: isFileSourceType(type) ? 'Upload a file' : 'Connect a database',
      icon: <Icon className="h-6 w-6" />,
    };
  });

/**
 * What differs between the wizards: their sources (docs/product.md#the-wizard-data-source), calls
 * and failure texts.
 */
const KINDS: Record<
  TAgentType,
  {
    choices: Choice<string>[];
    columns: string;
    check: (sessionId: string, sourceType: string) => unknown;
    call: (sessionId: string, sourceType: string) => WizardCall;
    failure: string;
  }
> = {
  rag: {
    choices: choicesOf(RAG_SOURCE_TYPES),
    columns: 'sm:grid-cols-2 lg:grid-cols-4',
    check: (session_id, source_type) => checked(ZRagSourceRequest, { session_id, source_type }),
    call: ragCalls.source,
    failure: 'Failed to set source type',
  },
  sql: {
    choices: choicesOf(SQL_SOURCE_TYPES),
    columns: 'sm:grid-cols-3 lg:grid-cols-5',
    check: (session_id, source_type) => checked(ZSqlSourceRequest, { session_id, source_type }),
    call: sqlCalls.source,
    failure: 'Failed to set source type.',
  },
};

/** Step 2: choosing a source saves it and advances. */
export function SourceTypeStep(props: WizardStepProps) {
  const { type, sessionId, pipeline, busy, save, advance } = props;
  const kind = KINDS[type];

  async function choose(sourceType: string) {
    if (!kind.check(sessionId, sourceType)) return;
    if (await save(kind.call(sessionId, sourceType), kind.failure)) advance();
  }

  return (
    <ChoiceCards
      label="Source type"
      choices={kind.choices}
      selected={pipeline?.config.source_type ?? ''}
      busy={busy}
      onChoose={(sourceType) => void choose(sourceType)}
      columns={kind.columns}
    />
  );
}
