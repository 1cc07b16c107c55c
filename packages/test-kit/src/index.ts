export { apiCall, expectStatus, type ApiAnswer, type ApiRequest, type Gateway } from './http';
export { addVaultKey, signUpAndLogIn, type TestUser } from './accounts';
export {
  configureRagAgent,
  configureSqlAgent,
  launchImageAgent,
  WIZARD_LLM_KEY,
  type DatabaseTable,
  type RagAgentOptions,
  type SqlAgentOptions,
  type Upload,
} from './agents';
export { downloadZip, startBuild, waitForBuild, type Downloaded } from './builds';
export { BuildFeed, type HeardEvent } from './build-feed';
export {
  addFileSource,
  addSource,
  knowledgeOf,
  refreshSource,
  removeSource,
  replaceFileSource,
  scheduleSource,
  waitForKnowledge,
  type SourceFile,
} from './knowledge';
export { projectFiles, projectFileText, readZip } from './zip';
export { freshDatabase, REPO_ROOT } from './fresh-database';
export { serverSentEvents } from './server-sent-events';
