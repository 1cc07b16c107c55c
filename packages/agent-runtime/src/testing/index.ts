export { startLlmTestServer, type LlmTestServer, type RecordedRequest } from './llm-test-server';
export { testEmbedding } from './llm-test-replies';
export { solidPng } from './png';
export { writeSqliteFile } from './sqlite-file';
