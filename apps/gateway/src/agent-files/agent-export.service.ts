import {
  AGENT_EXPORT_FORMAT_VERSION,
  AGENT_EXPORT_INFO_FILE,
  AGENT_FILE_VERSION,
  AGENT_PROMPT_FILE,
  agentSlug,
  isFileSourceType,
  type TAgentExportInfo,
  type TPipelineConfig,
} from '@agentloom/contracts';
import type { Pipeline } from '@agentloom/db';
import { Injectable, UnprocessableEntityException } from '@nestjs/common';
import archiver, { type Archiver } from 'archiver';
import path from 'node:path';
import { readConfig, wizardSteps } from '../pipelines/pipeline-view';
import { PipelineStorage } from '../pipelines/pipeline-storage';
import { PipelinesService } from '../pipelines/pipelines.service';
import { withoutCredentials } from './url-credentials';

/** A zip on its way out, and the name to save it under. */
export interface ExportedAgent {
  fileName: string;
  zip: Archiver;
}

/**
 * My Agents' "Export": the agent as a zip laid out like its built project — agent.json,
 * prompts/system.txt and data/source.<ext> — plus agentloom-export.json with the database
 * reference. Read from the pipeline's configuration (readConfig), never from a secret column: keys
 * and the database password stay behind, and the import asks for them. URLs lose their
 * credentials too (url-credentials.ts): a password in the userinfo, `api_key=`-style parameters.
 */
@Injectable()
export class AgentExportService {
  constructor(
    private readonly pipelines: PipelinesService,
    private readonly storage: PipelineStorage,
  ) {}

  async export(userId: string, pipelineId: string): Promise<ExportedAgent> {
    const pipeline = await this.pipelines.findOwned(userId, pipelineId);
    const config = readConfig(pipeline);
    const missing = wizardSteps(pipeline, config)
      .filter((step) => !step.complete)
      .map((step) => step.label);
    if (missing.length > 0) {
      throw new UnprocessableEntityException(
        `Finish the agent's wizard before exporting it; still to do: ${missing.join(', ')}.`,
      );
    }
    const dataName = config.file
      ? `data/source${path.extname(config.file.original_name).toLowerCase()}`
      : undefined;
    const upload =
      dataName && pipeline.sourceFile
        ? await this.storage.uploadFile(pipeline.id, pipeline.sourceFile)
        : null;
    if (dataName && !upload) {
      throw new UnprocessableEntityException(
        "This agent's source file is no longer stored. Upload it again in the wizard, then export.",
      );
    }

    const zip = archiver('zip', { zlib: { level: 6 } });
    zip.append(`${JSON.stringify(agentJson(pipeline, config, dataName), null, 2)}\n`, {
      name: 'agent.json',
    });
    zip.append(config.system_prompt ?? '', { name: AGENT_PROMPT_FILE });
    zip.append(`${JSON.stringify(exportInfo(config), null, 2)}\n`, {
      name: AGENT_EXPORT_INFO_FILE,
    });
    if (dataName && upload) zip.file(upload, { name: dataName });
    void zip.finalize();
    return { fileName: `${agentSlug(pipeline.name)}.agentloom.zip`, zip };
  }
}

/**
 * agent.json with the fields the generator writes for the agent's answers (the same names and
 * meaning; what a build derives — model ids, ports, chunking — is left to the build).
 */
export function agentJson(
  pipeline: Pick<Pipeline, 'id' | 'name' | 'agentType'>,
  config: TPipelineConfig,
  dataName: string | undefined,
) {
  const sourceType = config.source_type;
  const source = isFileSourceType(sourceType)
    ? { type: sourceType, file: dataName, original_name: config.file?.original_name }
    : { type: sourceType, database: config.database?.database, table: config.database?.table };
  const common = {
    version: AGENT_FILE_VERSION,
    generator: 'agentloom' as const,
    session_id: pipeline.id,
    type: pipeline.agentType,
    name: pipeline.name,
    prompt_file: AGENT_PROMPT_FILE,
    source,
    llm: { provider: config.llm?.provider, model: config.llm?.model },
    ui: { framework: config.ui },
  };
  if (config.agent_type === 'sql') return { ...common, sql: { framework: config.framework } };
  const store = config.vector_store;
  return {
    ...common,
    embedding: { model: config.embedding_model },
    vector_store: store && {
      provider: store.vector_db,
      url: store.url && withoutCredentials(store.url, { keepUser: false }).url,
      dimensions: store.dimensions,
      distance_metric: store.distance_metric,
      environment: store.environment,
      index_name: store.index_name,
    },
  };
}

/**
 * The database reference without its password (`user:****@` becomes `user@`, which the import
 * asks for) or credential parameters (then the import asks for the whole URI), and whether the
 * vector store URL lost credentials.
 */
function exportInfo(config: TPipelineConfig): TAgentExportInfo {
  const uri = config.database?.uri;
  const database = uri ? withoutCredentials(uri, { keepUser: true }) : undefined;
  const storeUrl = config.agent_type === 'rag' ? config.vector_store?.url : undefined;
  const store = storeUrl ? withoutCredentials(storeUrl, { keepUser: false }) : undefined;
  return {
    format: 'agentloom-agent',
    format_version: AGENT_EXPORT_FORMAT_VERSION,
    exported_at: new Date().toISOString(),
    ...(database ? { database_uri: database.url } : {}),
    ...(database?.removedParameters ? { database_uri_credentials: true as const } : {}),
    ...(store?.removed ? { vector_store_url_credentials: true as const } : {}),
  };
}
