-- AlterTable
ALTER TABLE "conversation_messages" ADD COLUMN     "unanswered" BOOLEAN NOT NULL DEFAULT false;

