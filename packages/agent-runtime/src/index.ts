export type { AgentEvent, ChatTurn, ProviderErrorReason, SourceRef } from './agent-events';
export { citationOf, parseChunksJsonl, type Chunk } from './chunks';
export {
  DEFAULT_IMAGE_MODEL,
  generateImage,
  type GenerateImageOptions,
  type GeneratedImages,
} from './image';
export { checkProviderKey, describeKeyCheck, type KeyCheck } from './list-models';
export { describeProviderError, providerErrorReason } from './provider-errors';
export {
  observeProviderCalls,
  type ProviderCall,
  type ProviderCallKind,
  type ProviderCallObserver,
  type ProviderCallOutcome,
} from './provider-calls';
export { languageModel, type LanguageModelOptions, type ProviderBaseUrls } from './providers';
export { RagAgent, type RagAgentOptions } from './rag-agent';
export { type Hit, type RetrievalIndex, type RetrievalMode } from './retrieval';
export {
  embedderFor,
  embedderOrKeyword,
  type KeywordOnly,
  type Embedder,
  type EmbedderOptions,
  type OpenAiAccess,
} from './embedders';
export {
  configureHostedIndexCache,
  HostedIndexWriter,
  localIndexFolder,
  openHostedIndex,
  type HostedIndexLocation,
} from './hosted-index';
export { writeHostedIndex, type HostedIndexSource } from './hosted-index-build';
export { SqlAgent, type SqlAgentOptions } from './sql-agent';
export {
  fileSqlEngine,
  mysqlSqlEngine,
  postgresSqlEngine,
  sqliteFileSqlEngine,
  SqlTimeoutError,
  type FileSqlEngineOptions,
  type QueryOptions,
  type QueryResult,
  type SqlEngine,
  type TableSchema,
} from './sql-engines';
export type { SqlDialect } from './sql-dialect';
export { guardSelect, SqlRefusedError } from './sql-guard';
export { ALLOWED_SQL_FUNCTIONS } from './sql-functions';
