-- CreateTable
CREATE TABLE "builds" (
    "id" UUID NOT NULL,
    "pipeline_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "status" "PipelineStatus" NOT NULL DEFAULT 'Building',
    "stages" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "artifact" VARCHAR(64),
    "artifact_bytes" INTEGER,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "builds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "builds_pipeline_id_created_at_idx" ON "builds"("pipeline_id", "created_at");

-- CreateIndex
CREATE INDEX "builds_user_id_idx" ON "builds"("user_id");

-- AddForeignKey
ALTER TABLE "builds" ADD CONSTRAINT "builds_pipeline_id_fkey" FOREIGN KEY ("pipeline_id") REFERENCES "pipelines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "builds" ADD CONSTRAINT "builds_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
