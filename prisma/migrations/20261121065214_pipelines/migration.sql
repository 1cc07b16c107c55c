-- CreateEnum
CREATE TYPE "AgentType" AS ENUM ('rag', 'sql');

-- CreateEnum
CREATE TYPE "PipelineStatus" AS ENUM ('Draft', 'Building', 'Built', 'Failed');

-- CreateTable
CREATE TABLE "pipelines" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "name_key" VARCHAR(100) NOT NULL,
    "agent_type" "AgentType" NOT NULL,
    "status" "PipelineStatus" NOT NULL DEFAULT 'Draft',
    "config" JSONB NOT NULL DEFAULT '{}',
    "source_file" VARCHAR(64),
    "source_uri_encrypted" TEXT,
    "llm_api_key_encrypted" TEXT,
    "vector_db_api_key_encrypted" TEXT,
    "llm_api_key_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "pipelines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pipelines_user_id_created_at_idx" ON "pipelines"("user_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "pipelines_user_id_name_key_key" ON "pipelines"("user_id", "name_key");

-- AddForeignKey
ALTER TABLE "pipelines" ADD CONSTRAINT "pipelines_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pipelines" ADD CONSTRAINT "pipelines_llm_api_key_id_fkey" FOREIGN KEY ("llm_api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;
