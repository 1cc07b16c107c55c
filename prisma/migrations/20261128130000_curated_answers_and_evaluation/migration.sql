-- AlterTable
ALTER TABLE "builds" ADD COLUMN     "evaluation" JSONB;

-- CreateTable
CREATE TABLE "curated_answers" (
    "id" UUID NOT NULL,
    "pipeline_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "question" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "corrects_message_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "curated_answers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "curated_answers_pipeline_id_created_at_idx" ON "curated_answers"("pipeline_id", "created_at");

-- AddForeignKey
ALTER TABLE "curated_answers" ADD CONSTRAINT "curated_answers_pipeline_id_fkey" FOREIGN KEY ("pipeline_id") REFERENCES "pipelines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

