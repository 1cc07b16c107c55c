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
export {
  contentWords,
  distinctiveTerms,
  isRelevant,
  RagAgent,
  type RagAgentOptions,
} from './rag-agent';
export {
  closestCurated,
  CURATED_MATCH_THRESHOLDS,
  CURATED_WORDS_OVERLAP,
  curatedAnswer,
  rememberingQueries,
  type CuratedEntry,
} from './curated';
export { type Hit, type RetrievalIndex, type RetrievalMode } from './retrieval';
export { unitVector } from './vectors';
export {
  embedderFor,
  embedderOrKeyword,
  type KeywordOnly,
  type Embedder,
  type EmbedderOptions,
  type OpenAiAccess,
} from './embedders';
export {
  chunkHash,
  configureHostedIndexCache,
  HostedIndexWriter,
  localIndexFolder,
  openHostedIndex,
  type HostedIndexLocation,
  type SegmentChunk,
} from './hosted-index';
export {
  writeSegment,
  type CarriedChunk,
  type SegmentSource,
  type WrittenSegment,
} from './hosted-index-build';
export {
  openSegmentCount,
  openSegmentedIndex,
  RRF_K,
  type SearchMode,
  readRemovedKeys,
  readSegmentChunks,
  type SegmentLocation,
} from './segments';
export { readPassage, type PassageRead, type PassageTable } from './passages';
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
