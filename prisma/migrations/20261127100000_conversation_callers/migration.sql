-- A conversation belongs to the caller that started it (issue 27): API conversations already
-- name their access key; widget and share-page conversations now keep a hash of the visitor's
-- session. Earlier visitor conversations have none, so no visitor can continue them.
ALTER TABLE "conversations" ADD COLUMN "visitor_hash" CHAR(64);
