import {
  ZAgentInsights,
  ZCuratedAnswer,
  ZCuratedAnswerRequest,
  ZCuratedAnswers,
  ZCuratedAnswerUpdate,
  ZRetrievalSettingsRequest,
  ZRetrievalSettingsView,
  ZRetrievalTestRequest,
  ZRetrievalTestResult,
  ZPassageView,
  ZAccessKey,
  ZAgentChatAnswer,
  ZAgentChatRequest,
  ZOpenAiModel,
  ZAgentImportPlan,
  ZAgentImportRequest,
  ZOpenAiModelList,
  ZApiKey,
  ZApiKeySecret,
  ZBuildHistoryItem,
  ZBuildStarted,
  ZBuildView,
  ZConversation,
  ZConversationSummary,
  ZCreateAccessKeyRequest,
  ZCreateApiKeyRequest,
  ZCreatedAccessKey,
  ZCreatePipelineRequest,
  ZRenamePipelineRequest,
  ZDatabaseSourceSaved,
  ZEmbeddingModelRequest,
  ZEmbeddingModelSaved,
  ZForgotPasswordQuery,
  ZHealth,
  ZImageAgentLaunched,
  ZKeyCheckRequest,
  ZKeyCheckResult,
  ZLlmCredentialsRequest,
  ZLlmCredentialsSaved,
  ZLlmKeySaved,
  ZLlmModelSaved,
  ZLlmProviderRequest,
  ZLlmProviderSaved,
  ZLocalVectorDbRequest,
  ZLocalVectorDbSaved,
  ZLoginRequest,
  ZLoginResponse,
  ZMessageResponse,
  ZPineconeCredentialsRequest,
  ZPineconeSaved,
  ZPipelineCreated,
  ZPipelineDetail,
  ZPipelineListItem,
  ZPreviewStarted,
  ZPublication,
  ZPublicationSettings,
  ZPublishRequest,
  ZAddSourceRequest,
  ZKnowledgeSource,
  ZKnowledgeSources,
  ZSourceScheduleRequest,
  ZRagDatabaseSourceRequest,
  ZRagSourceRequest,
  ZRagSourceTypeSaved,
  ZResetPasswordRequest,
  ZSessionOnlyRequest,
  ZSignupRequest,
  ZSignupResponse,
  ZSourceSample,
  ZSourceTables,
  ZSourceTablesRequest,
  ZSqlDatabaseSourceRequest,
  ZSqlFrameworkRequest,
  ZSqlFrameworkSaved,
  ZSqlLlmKeyRequest,
  ZSqlLlmProviderRequest,
  ZSqlModelRequest,
  ZSqlSourceRequest,
  ZSqlSourceTypeSaved,
  ZSystemPromptRequest,
  ZSystemPromptSaved,
  ZUiRequest,
  ZUiSaved,
  ZUpdateProfileRequest,
  ZUploadSaved,
  ZUserProfile,
  ZVectorDbRequest,
  ZVectorDbSaved,
} from '@agentloom/contracts';
import { createZodDto } from 'nestjs-zod';

/**
 * The HTTP API's bodies and answers as OpenAPI (/docs) and the validation pipe see them: classes
 * made from the contracts' zod schemas. They live in one file because their names are the
 * document's schema names, which are global: two controllers declaring a `SessionOnlyDto` each
 * would silently share one entry.
 */

// ---- Accounts and profile (auth, users) ----

export class SignupDto extends createZodDto(ZSignupRequest) {}
export class SignupResponseDto extends createZodDto(ZSignupResponse) {}
export class LoginDto extends createZodDto(ZLoginRequest) {}
export class LoginResponseDto extends createZodDto(ZLoginResponse) {}
export class ForgotPasswordQueryDto extends createZodDto(ZForgotPasswordQuery) {}
export class ResetPasswordDto extends createZodDto(ZResetPasswordRequest) {}
export class MessageDto extends createZodDto(ZMessageResponse) {}
export class UserProfileDto extends createZodDto(ZUserProfile) {}
export class UpdateProfileDto extends createZodDto(ZUpdateProfileRequest) {}

// ---- Health ----

export class HealthDto extends createZodDto(ZHealth) {}

// ---- The vault of LLM keys ----

export class ApiKeyDto extends createZodDto(ZApiKey) {}
export class CreateApiKeyDto extends createZodDto(ZCreateApiKeyRequest) {}
export class ApiKeySecretDto extends createZodDto(ZApiKeySecret) {}

// ---- Agents (pipelines) and their builds ----

export class CreatePipelineDto extends createZodDto(ZCreatePipelineRequest) {}
export class RenamePipelineDto extends createZodDto(ZRenamePipelineRequest) {}
export class PipelineCreatedDto extends createZodDto(ZPipelineCreated) {}
export class PipelineListItemDto extends createZodDto(ZPipelineListItem) {}
export class PipelineDetailDto extends createZodDto(ZPipelineDetail) {}
export class SessionOnlyDto extends createZodDto(ZSessionOnlyRequest) {}
export class BuildStartedDto extends createZodDto(ZBuildStarted) {}
export class BuildViewDto extends createZodDto(ZBuildView) {}
export class BuildHistoryItemDto extends createZodDto(ZBuildHistoryItem) {}

// ---- The wizards' calls (docs/product.md#the-calls-behind-the-screens) ----

export class RagSourceDto extends createZodDto(ZRagSourceRequest) {}
export class RagDatabaseSourceDto extends createZodDto(ZRagDatabaseSourceRequest) {}
export class EmbeddingModelDto extends createZodDto(ZEmbeddingModelRequest) {}
export class VectorDbDto extends createZodDto(ZVectorDbRequest) {}
export class PineconeCredentialsDto extends createZodDto(ZPineconeCredentialsRequest) {}
export class LocalVectorDbDto extends createZodDto(ZLocalVectorDbRequest) {}
export class LlmProviderDto extends createZodDto(ZLlmProviderRequest) {}
export class LlmCredentialsDto extends createZodDto(ZLlmCredentialsRequest) {}
export class SystemPromptDto extends createZodDto(ZSystemPromptRequest) {}
export class UiDto extends createZodDto(ZUiRequest) {}
export class SqlSourceDto extends createZodDto(ZSqlSourceRequest) {}
export class SqlDatabaseSourceDto extends createZodDto(ZSqlDatabaseSourceRequest) {}
export class SqlLlmProviderDto extends createZodDto(ZSqlLlmProviderRequest) {}
export class SqlLlmKeyDto extends createZodDto(ZSqlLlmKeyRequest) {}
export class SqlModelDto extends createZodDto(ZSqlModelRequest) {}
export class SqlFrameworkDto extends createZodDto(ZSqlFrameworkRequest) {}
export class KeyCheckRequestDto extends createZodDto(ZKeyCheckRequest) {}
export class KeyCheckResultDto extends createZodDto(ZKeyCheckResult) {}
export class SourceSampleDto extends createZodDto(ZSourceSample) {}
export class SourceTablesRequestDto extends createZodDto(ZSourceTablesRequest) {}
export class SourceTablesDto extends createZodDto(ZSourceTables) {}

/** What each wizard step answers (its `saved` fields differ from step to step). */
export class RagSourceTypeSavedDto extends createZodDto(ZRagSourceTypeSaved) {}
export class SqlSourceTypeSavedDto extends createZodDto(ZSqlSourceTypeSaved) {}
export class UploadSavedDto extends createZodDto(ZUploadSaved) {}
export class DatabaseSourceSavedDto extends createZodDto(ZDatabaseSourceSaved) {}
export class EmbeddingModelSavedDto extends createZodDto(ZEmbeddingModelSaved) {}
export class VectorDbSavedDto extends createZodDto(ZVectorDbSaved) {}
export class PineconeSavedDto extends createZodDto(ZPineconeSaved) {}
export class LocalVectorDbSavedDto extends createZodDto(ZLocalVectorDbSaved) {}
export class LlmProviderSavedDto extends createZodDto(ZLlmProviderSaved) {}
export class LlmCredentialsSavedDto extends createZodDto(ZLlmCredentialsSaved) {}
export class LlmKeySavedDto extends createZodDto(ZLlmKeySaved) {}
export class LlmModelSavedDto extends createZodDto(ZLlmModelSaved) {}
export class SystemPromptSavedDto extends createZodDto(ZSystemPromptSaved) {}
export class SqlFrameworkSavedDto extends createZodDto(ZSqlFrameworkSaved) {}
export class UiSavedDto extends createZodDto(ZUiSaved) {}

// ---- Published agents: the owner's controls ----

export class PublicationDto extends createZodDto(ZPublication) {}
export class PublicationSettingsDto extends createZodDto(ZPublicationSettings) {}
export class PublishRequestDto extends createZodDto(ZPublishRequest) {}
export class AddTableSourceDto extends createZodDto(ZAddSourceRequest.options[0]) {}
export class AddWebSourceDto extends createZodDto(ZAddSourceRequest.options[1]) {}
export class KnowledgeSourceDto extends createZodDto(ZKnowledgeSource) {}
export class KnowledgeSourcesDto extends createZodDto(ZKnowledgeSources) {}
export class SourceScheduleRequestDto extends createZodDto(ZSourceScheduleRequest) {}
export class RetrievalSettingsRequestDto extends createZodDto(ZRetrievalSettingsRequest) {}
export class RetrievalSettingsViewDto extends createZodDto(ZRetrievalSettingsView) {}
export class RetrievalTestRequestDto extends createZodDto(ZRetrievalTestRequest) {}
export class RetrievalTestResultDto extends createZodDto(ZRetrievalTestResult) {}
export class PassageViewDto extends createZodDto(ZPassageView) {}
export class CuratedAnswerRequestDto extends createZodDto(ZCuratedAnswerRequest) {}
export class CuratedAnswerUpdateDto extends createZodDto(ZCuratedAnswerUpdate) {}
export class CuratedAnswerDto extends createZodDto(ZCuratedAnswer) {}
export class CuratedAnswersDto extends createZodDto(ZCuratedAnswers) {}
export class AgentInsightsDto extends createZodDto(ZAgentInsights) {}
export class AccessKeyDto extends createZodDto(ZAccessKey) {}
export class CreatedAccessKeyDto extends createZodDto(ZCreatedAccessKey) {}
export class CreateAccessKeyDto extends createZodDto(ZCreateAccessKeyRequest) {}
export class ConversationSummaryDto extends createZodDto(ZConversationSummary) {}
export class ConversationDto extends createZodDto(ZConversation) {}

// ---- Previews ----

export class PreviewStartedDto extends createZodDto(ZPreviewStarted) {}
export class ImageAgentLaunchedDto extends createZodDto(ZImageAgentLaunched) {}

// ---- Published agents: their API ----

export class AgentChatRequestDto extends createZodDto(ZAgentChatRequest) {}
export class AgentChatAnswerDto extends createZodDto(ZAgentChatAnswer) {}
export class OpenAiModelDto extends createZodDto(ZOpenAiModel) {}
export class OpenAiModelListDto extends createZodDto(ZOpenAiModelList) {}

// ---- Agent files ----

export class AgentImportPlanDto extends createZodDto(ZAgentImportPlan) {}
export class AgentImportRequestDto extends createZodDto(ZAgentImportRequest) {}
