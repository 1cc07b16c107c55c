-- CreateEnum
CREATE TYPE "BuildTrigger" AS ENUM ('wizard', 'knowledge', 'refresh');

-- CreateEnum
CREATE TYPE "KnowledgeSourceKind" AS ENUM ('file', 'table', 'web');

-- CreateEnum
CREATE TYPE "KnowledgeSourceStatus" AS ENUM ('waiting', 'indexing', 'ready', 'failed', 'paused', 'removed');

-- CreateEnum
CREATE TYPE "RefreshSchedule" AS ENUM ('off', 'hourly', 'daily');

-- AlterTable
ALTER TABLE "builds" ADD COLUMN     "knowledge_changes" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "trigger" "BuildTrigger" NOT NULL DEFAULT 'wizard';

-- AlterTable
ALTER TABLE "publications" ADD COLUMN     "follow_knowledge" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "knowledge_sources" (
    "id" UUID NOT NULL,
    "pipeline_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "kind" "KnowledgeSourceKind" NOT NULL,
    "source_type" VARCHAR(32) NOT NULL,
    "name" VARCHAR(300) NOT NULL,
    "primary" BOOLEAN NOT NULL DEFAULT false,
    "status" "KnowledgeSourceStatus" NOT NULL DEFAULT 'waiting',
    "error" TEXT,
    "chunks" INTEGER NOT NULL DEFAULT 0,
    "refresh" "RefreshSchedule" NOT NULL DEFAULT 'off',
    "failed_refreshes" INTEGER NOT NULL DEFAULT 0,
    "fingerprint" VARCHAR(200) NOT NULL DEFAULT '',
    "content_version" INTEGER NOT NULL DEFAULT 1,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "uri_encrypted" TEXT,
    "progress" JSONB,
    "last_change" VARCHAR(300),
    "last_changed_at" TIMESTAMPTZ(3),
    "last_refreshed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "knowledge_sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "index_segments" (
    "id" UUID NOT NULL,
    "pipeline_id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "content_version" INTEGER NOT NULL,
    "embedding_model" VARCHAR(64) NOT NULL,
    "chunking" VARCHAR(64) NOT NULL,
    "parent_id" UUID,
    "info" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "index_segments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "knowledge_sources_pipeline_id_created_at_idx" ON "knowledge_sources"("pipeline_id", "created_at");

-- CreateIndex
CREATE INDEX "index_segments_source_id_embedding_model_chunking_content_v_idx" ON "index_segments"("source_id", "embedding_model", "chunking", "content_version");

-- AddForeignKey
ALTER TABLE "knowledge_sources" ADD CONSTRAINT "knowledge_sources_pipeline_id_fkey" FOREIGN KEY ("pipeline_id") REFERENCES "pipelines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "knowledge_sources" ADD CONSTRAINT "knowledge_sources_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "index_segments" ADD CONSTRAINT "index_segments_pipeline_id_fkey" FOREIGN KEY ("pipeline_id") REFERENCES "pipelines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "index_segments" ADD CONSTRAINT "index_segments_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "knowledge_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

