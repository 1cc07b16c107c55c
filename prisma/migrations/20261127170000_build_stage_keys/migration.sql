-- Build rows name each stage by its key (contracts' BUILD_STAGE_KEYS) instead of the label the
-- build screen shows, so a reworded label no longer breaks stored builds. Rows written before
-- carry { "name": <label> }: each becomes { "key": <key> } with its times and counted work kept.
-- The labels below are every label a build has ever stored (they never changed before keys).
UPDATE "builds"
SET "stages" = (
  SELECT COALESCE(
    jsonb_agg(
      (stage.value - 'name') || jsonb_build_object(
        'key',
        CASE stage.value ->> 'name'
          WHEN 'initializing environment' THEN 'validate_config'
          WHEN 'training embeddings' THEN 'train_embeddings'
          WHEN 'loading data source' THEN 'load_source'
          WHEN 'setting up databases' THEN 'set_up_vector_store'
          WHEN 'profiling schema' THEN 'profile_schema'
          WHEN 'configuring query engine' THEN 'configure_query_engine'
          WHEN 'integrating AI models' THEN 'integrate_models'
          WHEN 'securing SQL access' THEN 'secure_sql_access'
          WHEN 'generating code' THEN 'generate_code'
          WHEN 'deploying container' THEN 'package_container'
          WHEN 'finalizing build' THEN 'store_artifact'
          WHEN 'build complete' THEN 'complete'
        END
      )
      ORDER BY stage.position
    ),
    '[]'::jsonb
  )
  FROM jsonb_array_elements("stages") WITH ORDINALITY AS stage(value, position)
)
WHERE jsonb_typeof("stages") = 'array'
  AND EXISTS (SELECT 1 FROM jsonb_array_elements("stages") AS old(value) WHERE old.value ? 'name');
