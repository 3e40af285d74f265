//! The defaults of the queries of `sql/`, written once. The SQL files spell them again
//! where a parameter is unset (`coalesce(:pool, 200)`), since SQL has no constants; a test
//! (`sql_defaults_agree_with_the_core`) reads them there and compares. The scoring
//! defaults are beside their functions: `score::DEFAULT_HALF_LIFE_DAYS`,
//! `score::DEFAULT_RECENCY_WEIGHT`, `score::DEFAULT_RRF_K`.

/// The recency weight of search's and related's re-ranking (`recall_score`'s weight). It
/// is lower than `recall_score`'s own default (`score::DEFAULT_RECENCY_WEIGHT`, for a call
/// that names none): recency breaks near ties between items of the same subject without
/// sinking the better answer of an older session, and `later` answers "what came after
/// this". Chosen by the evaluation in docs/evaluation.md.
pub const RECENCY_WEIGHT: f64 = 0.1;

/// Search's stage-1 pool, and the range it is clamped to.
pub const POOL: i64 = 200;
pub const POOL_MIN: i64 = 10;
pub const POOL_MAX: i64 = 5000;
/// Results of search: by default, and at most.
pub const SEARCH_LIMIT: i64 = 10;
pub const SEARCH_MAX_LIMIT: i64 = 50;
/// Results of `later` and `timeline`, by default; both at most 50.
pub const LATER_LIMIT: i64 = 5;
pub const TIMELINE_LIMIT: i64 = 20;
pub const LIST_MAX_LIMIT: i64 = 50;
/// Results of `related`: at most 3, always.
pub const RELATED_LIMIT: i64 = 3;
/// The rule `related` judges its candidates by (`sql/related.sql`): `idf` or `jezero`.
pub const RELATED_RULE: &str = "idf";
/// Under `idf`, the least total weight of the shared words (`prompt::idf`), and the least
/// weight of the shared words taken together.
pub const RELATED_MIN_WEIGHT: f64 = 1.2;
pub const RELATED_MIN_JOINT_WEIGHT: f64 = 0.5;
/// Under `related`, the items a common word is counted in (docs/queries.md#related), in a
/// library of 20 times as many items or more; 0: every count exact.
pub const RELATED_SAMPLE: i64 = 1000;
/// Search's context stage (`sql/search.sql`): the share of its relevance a pool item lends
/// the items next to it in time (0: off), how many items on each side, and how far apart
/// in time, in minutes, they may be. Chosen by the evaluation in docs/evaluation.md.
pub const CONTEXT_WEIGHT: f64 = 0.3;
pub const CONTEXT_RADIUS: i64 = 2;
pub const CONTEXT_RADIUS_MAX: i64 = 10;
pub const CONTEXT_GAP_MINUTES: f64 = 30.0;
/// Search's weight of the index's `context` column, the neighbours' titles each item is
/// indexed with (the migration `neighbour_context`), against the title's 2.0 in
/// bm25 (0: the column does not count). Chosen by the evaluation in docs/evaluation.md.
pub const CONTEXT_COLUMN_WEIGHT: f64 = 0.7;
/// Search's weight of a period the query names ("in August 2023", `period::from_query`):
/// an item dated in it counts `1 + PERIOD_WEIGHT` times its relevance (0: dates in the
/// query are words only). Chosen by the evaluation in docs/evaluation.md.
pub const PERIOD_WEIGHT: f64 = 1.0;
/// Search's vector channel (`sql/search.sql` with `:nearest`): the weights of the literal
/// list and of the nearest items in reciprocal rank fusion (whose k is
/// `score::DEFAULT_RRF_K`).
pub const LITERAL_WEIGHT: f64 = 1.0;
/// Texts per request of `recall embed` (`sql/item_texts.sql`'s batch).
pub const EMBED_BATCH: i64 = 32;
pub const VECTOR_WEIGHT: f64 = 0.9;
/// Search's fusion of the literal and the vector lists (`sql/search.sql`'s `:fusion`):
/// `convex`, chosen over `rrf` by the evaluation in docs/vectors.md.
pub const FUSION: &str = "convex";
/// The convex fusion's share of the say of the vector list (`:vector_share`), 0 to 1.
pub const VECTOR_SHARE: f64 = 0.4;
