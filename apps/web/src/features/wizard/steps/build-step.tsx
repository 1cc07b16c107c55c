import {
  isFileSourceType,
  SOURCE_TYPE_LABELS,
  VECTOR_STORE_LABELS,
  type TAgentType,
  type TPipelineDetail,
  type TRagConfigView,
  type TSqlConfigView,
} from '@agentloom/contracts';
import { useNavigate } from 'react-router-dom';
import { errorDetail } from '../../../lib/api';
import { notify } from '../../../lib/notify';
import { KnowledgePanel } from '../../knowledge/knowledge-panel';
import { BuildSummary, llmAndUiRows, type SummaryRow } from '../build-summary';
import { RetrievalPanel } from '../../retrieval/retrieval-panel';
import { CountingQuestionsCheck } from '../counting-questions';
import { SQL_FRAMEWORK_CARDS } from '../wizard-content';
import type { WizardStepProps } from '../wizard-step';
import { embeddingLabel } from './embedding-step';

/** The source as the summary names it: the uploaded file, or database.table. */
function sourceDetail(config: TPipelineDetail['config']): string | undefined {
  if (isFileSourceType(config.source_type ?? undefined)) return config.file?.original_name;
  const db = config.database;
  return db ? `${db.database}.${db.table}` : undefined;
}

/** The prompt, cut to a line: the summary says which one, the step shows it whole. */
function promptRow(prompt: string | null): SummaryRow {
  const line = prompt && prompt.length > 90 ? `${prompt.slice(0, 90).trimEnd()}…` : prompt;
  return {
    label: 'System Prompt',
    value: line ?? undefined,
    fallback: 'Not written',
    step: 'system_prompt',
  };
}

const sourceLabel = (config: TPipelineDetail['config']) =>
  config.source_type ? SOURCE_TYPE_LABELS[config.source_type] : undefined;

/**
 * docs/product.md#the-wizard-build: each wizard's configuration summary, button and where a started
 * build goes.
 */
const KINDS: Record<
  TAgentType,
  {
    rows: (pipeline: TPipelineDetail) => SummaryRow[];
    label: string;
    started: (sessionId: string) => string;
    failed: (error: unknown) => string;
  }
> = {
  rag: {
    rows: ({ name, config }) => {
      const rag = config as TRagConfigView;
      const source = sourceLabel(rag);
      const detail = sourceDetail(rag);
      return [
        { label: 'Agent Name', value: name, fallback: 'Not named', step: 'name' },
        {
          label: 'Data Source',
          value: source && (detail ? `${source} · ${detail}` : source),
          fallback: 'Not selected',
          step: detail ? 'source_details' : 'source_type',
        },
        {
          label: 'Embedding Model',
          value: rag.embedding_model ? embeddingLabel(rag.embedding_model) : undefined,
          fallback: 'Not selected',
          step: 'embedding',
        },
        {
          label: 'Vector Store',
          value: rag.vector_store ? VECTOR_STORE_LABELS[rag.vector_store.vector_db] : undefined,
          fallback: 'Not selected',
          step: 'vector_store',
        },
        ...llmAndUiRows(rag.llm, rag.ui),
        promptRow(rag.system_prompt),
      ];
    },
    label: 'Build & Deploy RAG Agent',
    started: (sessionId) => {
      notify.success('RAG agent build started!');
      return `/build/rag/${sessionId}`;
    },
    failed: (error) => errorDetail(error) ?? 'Build failed. Please check configuration.',
  },
  sql: {
    rows: ({ name, config }) => {
      const sql = config as TSqlConfigView;
      return [
        { label: 'Agent Name', value: name, fallback: 'Not named', step: 'name' },
        {
          label: 'Database Type',
          value: sourceLabel(sql),
          fallback: 'Not selected',
          step: 'source_type',
        },
        {
          label: 'Connection',
          value: sourceDetail(sql),
          fallback: 'Not connected',
          step: 'source_details',
        },
        ...llmAndUiRows(sql.llm, sql.ui),
        {
          label: 'Query Engine',
          value: sql.framework ? SQL_FRAMEWORK_CARDS[sql.framework].title : undefined,
          fallback: 'Not selected',
          step: 'framework',
        },
        promptRow(sql.system_prompt),
      ];
    },
    label: 'Build & Deploy SQL Agent',
    started: (sessionId) => `/sql/build/animation/sql/${sessionId}`,
    failed: (error) =>
      errorDetail(error) ??
      (error instanceof Error ? error.message : undefined) ??
      'Build failed. Please try again.',
  },
};

/** The last step of both wizards: the summary of what the server holds, and Build. */
export function BuildStep(props: WizardStepProps) {
  const { type, sessionId, pipeline, busy, mutations, changeHref } = props;
  const navigate = useNavigate();
  const kind = KINDS[type];

  async function build() {
    try {
      await mutations.build.mutateAsync(sessionId);
      void navigate(kind.started(sessionId));
    } catch (error) {
      notify.error(kind.failed(error));
    }
  }

  return (
    <BuildSummary
      before={pipeline && <CountingQuestionsCheck pipeline={pipeline} />}
      after={
        pipeline &&
        type === 'rag' && (
          <div className="space-y-8">
            {sourceDetail(pipeline.config) && (
              // Sources beside the wizard's one: recorded now, read by the first build.
              <KnowledgePanel agentId={sessionId} agentName={pipeline.name} where="wizard" />
            )}
            <RetrievalPanel agentId={sessionId} built={pipeline.status === 'Built'} />
          </div>
        )
      }
      rows={pipeline ? kind.rows(pipeline) : []}
      label={kind.label}
      busy={busy}
      onSubmit={() => void build()}
      changeHref={pipeline ? changeHref : undefined}
    />
  );
}
