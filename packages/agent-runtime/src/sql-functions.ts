import type { SqlDialect } from './sql-dialect';

/**
 * The functions a model's SQL may call, per dialect: aggregates, window functions, string, date,
 * math, conditional, JSON and cast helpers that only compute a value from their arguments. Any
 * other call is refused: a denylist cannot keep up with what each server ships (dblink, file
 * readers, large objects, locks, sleeps, session killers, notifications…), an allowlist can.
 * Left out on purpose: functions that build values of a size the caller picks (SQLite's
 * zeroblob, randomblob, printf/format with a width; repeat, lpad, rpad, space), reveal server
 * settings or identity (version, current_setting, user, database), or generate rows
 * (generate_series).
 *
 * The generated agents' Python guard (templates/sql/agent/sql_guard.py, ALLOWED_FUNCTIONS) holds
 * the same lists; a builder-worker test compares them and runs both guards over the shared
 * vectors in sql-guard-vectors.json, so the two can never drift.
 */
const words = (text: string): string[] => text.trim().split(/\s+/);

/** Types written with a size — CAST(x AS varchar(10)) — look like calls to the tokenizer. */
const TYPES = words(`
  char character varchar nchar nvarchar binary varbinary decimal numeric dec float real double
  int integer bigint smallint tinyint bit timestamp time datetime interval
`);

const COMMON = words(`
  count sum avg min max abs round ceil ceiling floor sign mod power sqrt exp ln log
  coalesce nullif cast lower upper length trim ltrim rtrim replace substr substring concat
  concat_ws instr reverse greatest least date
  row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value
  nth_value
`);

const SQLITE = words(`
  total group_concat string_agg ifnull iif typeof hex quote unicode char glob like
  strftime julianday datetime time unixepoch random round trunc
  acos asin atan atan2 cos sin tan degrees radians pi log10 log2
  json json_extract json_array json_object json_type json_valid json_array_length
  json_group_array json_group_object
`);

const POSTGRESQL = words(`
  string_agg array_agg bool_and bool_or every stddev stddev_pop stddev_samp variance var_pop
  var_samp corr covar_pop covar_samp regr_slope regr_intercept percentile_cont
  percentile_disc mode grouping
  date_trunc date_part extract age now to_char to_date to_timestamp to_number make_date
  make_time make_timestamp make_interval justify_days justify_hours isfinite timezone
  char_length character_length octet_length position strpos split_part left right initcap
  btrim starts_with translate md5 regexp_replace regexp_match regexp_matches
  regexp_split_to_array string_to_array array_to_string array_length cardinality unnest
  array row trunc div cbrt width_bucket random degrees radians pi log10
  to_json to_jsonb json_build_object jsonb_build_object json_build_array jsonb_build_array
  json_agg jsonb_agg json_object_agg jsonb_object_agg json_extract_path_text
  jsonb_extract_path_text json_array_length jsonb_array_length
`);

const MYSQL = words(`
  group_concat ifnull if isnull char_length character_length octet_length locate position
  left right lcase ucase substring_index format field strcmp md5 sha1 sha2 hex
  date_format str_to_date datediff date_add date_sub adddate subdate timestampdiff
  timestampadd year month monthname day dayname dayofmonth dayofweek dayofyear week weekday
  quarter hour minute second last_day curdate now current_date current_timestamp
  unix_timestamp from_unixtime makedate extract convert truncate rand
  std stddev stddev_pop stddev_samp variance var_pop var_samp bit_and bit_or bit_xor
  any_value grouping json_extract json_unquote json_object json_array json_arrayagg
  json_objectagg json_length regexp_like regexp_replace regexp_substr regexp_instr
  match against
`);

export const ALLOWED_SQL_FUNCTIONS: Record<SqlDialect, ReadonlySet<string>> = {
  sqlite: new Set([...TYPES, ...COMMON, ...SQLITE]),
  postgresql: new Set([...TYPES, ...COMMON, ...POSTGRESQL]),
  mysql: new Set([...TYPES, ...COMMON, ...MYSQL]),
};

/**
 * Words a "(" may follow that are not calls: subqueries, lists, window and grouping clauses.
 * A name right after AS is an alias with a column list or a type (CAST(x AS varchar(10))).
 */
export const NOT_CALLS: ReadonlySet<string> = new Set(
  words(`
    in exists as from join on using values over filter within select where and or not union
    all any some intersect except by when then else having case limit offset is like ilike
    between distinct lateral with recursive rows range groups partition order group sets
    rollup cube escape materialized
  `),
);
