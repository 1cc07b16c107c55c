-- Whether visitors of the share page and the widget see an answer's sources (passages, rows, the
-- SQL and its table). Publishing sets it from the source: off for tables, whose rows are raw
-- data; publications made before keep showing them, as they did.
ALTER TABLE "publications" ADD COLUMN "show_sources" BOOLEAN NOT NULL DEFAULT true;
