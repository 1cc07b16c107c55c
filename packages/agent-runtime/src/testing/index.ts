export {
  startLlmTestServer,
  testEmbedding,
  type LlmTestServer,
  type RecordedRequest,
} from './llm-test-server';
export { solidPng } from './png';
export { writeSqliteFile } from './sqlite-file';
