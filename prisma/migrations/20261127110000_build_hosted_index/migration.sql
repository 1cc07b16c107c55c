-- A RAG build records the hosted index (LanceDB) it made of its source, which previews and
-- published agents open instead of embedding the source again.
ALTER TABLE "builds" ADD COLUMN "hosted_index" JSONB;
