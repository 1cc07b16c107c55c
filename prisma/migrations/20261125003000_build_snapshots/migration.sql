-- AlterTable
ALTER TABLE "builds" ADD COLUMN "snapshot" JSONB;
