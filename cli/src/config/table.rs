//! The one table of settings. Each key of the configuration file is declared here once:
//! its type and default, its range, and what it has of a flag, an MCP argument and a
//! place in `recall eval --set`. The configuration's types, its checks, `--set`, the
//! flags' help, the MCP schemas and docs/configuration.md's table come from it.
//!
//! A line group: `/// description`, then `NAME field: type = default, range`, then
//! `flag("long", "help")`, `mcp("argument")` (`unranged`: without range and default in
//! its schema), `eval(place)` (`switch "name"`: a command's stage on or off),
//! `on([commands], ":param")`, `absent("…")` and `also(rule)`, each when it applies.
//! `on` makes the flag of those commands (`flag("long", "help", "VALUE")`, `clamped`
//! when a value out of range is brought into it) and the argument of their MCP tools from
//! the line group, and binds the value to that parameter of their query files: a ranking
//! setting costs its line group here and the SQL that reads it. Sections and fields keep
//! the order of the configuration's types, which serde's messages list.
use super::setting::{declare, Range};
use super::{Fusion, RelatedRule};
use crate::bounds::{above, real, whole};
use recall_core::defaults::{self, CONTEXT_RADIUS_MAX, LIST_MAX_LIMIT, POOL_MAX, POOL_MIN};
use recall_core::score;

declare! {
    [storage] Storage {
        /// The tokenizer the library is built with: `init` and `rebuild` build it, every
        /// other command expects it.
        TOKENIZER tokenizer: Option<String> = None, Range::Tokenizer,
            flag("tokenizer", "The tokenizer: for init and rebuild, the one to build; for \
                every other command, the one expected (the command refuses to run on another)"),
            absent("the library's");
        // SQLite takes the busy timeout as a C int of milliseconds; a day is the most any
        // command should wait for another writer.
        /// How long a command waits for another writer before giving up, in milliseconds.
        BUSY_TIMEOUT_MS busy_timeout_ms: i64 = crate::library::BUSY_TIMEOUT.as_millis() as i64,
            Range::Number(whole(0, 86_400_000));
    }

    [search] Search {
        /// How many candidates full-text ranking passes to the recency re-ranking; clamped to
        /// its range.
        CANDIDATE_POOL candidate_pool: i64 = defaults::POOL,
            Range::Number(whole(POOL_MIN, POOL_MAX)),
            flag("pool", "Stage-1 pool size (clamped to {min}..{max}; default {default})", "POOL",
                clamped),
            mcp("pool"), eval(3), on([search], ":pool");
        // A million days (2,700 years): recency no longer ranks anything.
        /// Recency half-life in days: an item this old counts half as recent.
        HALF_LIFE_DAYS recency_half_life_days: f64 = score::DEFAULT_HALF_LIFE_DAYS,
            Range::Number(above(0.0, 1e6)),
            flag("half-life", "Recency half-life in days (default {default})", "DAYS"),
            mcp("half_life"), eval(2), on([search related], ":half_life");
        /// Recency weight, from {min} (relevance only) to {max}.
        RECENCY_WEIGHT recency_weight: f64 = defaults::RECENCY_WEIGHT,
            Range::Number(real(0.0, 1.0)),
            flag("weight", "Recency weight, {min} (pure relevance) to {max} (default {default})",
                "WEIGHT"),
            mcp("weight"), eval(1), on([search related], ":weight");
        // Results are read by people and agents: thousands is already more than either uses.
        /// How many results search gives when none is asked for.
        SEARCH_DEFAULT_LIMIT default_limit: i64 = defaults::SEARCH_LIMIT,
            Range::Number(whole(1, 10_000));
        /// The most results search gives.
        SEARCH_MAX_LIMIT max_limit: i64 = defaults::SEARCH_MAX_LIMIT,
            Range::Number(whole(1, 10_000));
        /// Whether a query's stop words are dropped while another word remains.
        DROP_STOPWORDS drop_stopwords: bool = true, Range::Bool,
            flag("literal", "Keep stop words (by default they are dropped while another word \
                remains)"),
            eval(4);
        /// Drop query words found in more than this share of items while a rarer word
        /// remains (above {min}, at most {max}).
        PRUNE_SHARE prune_share: Option<f64> = None, Range::Number(above(0.0, 1.0)),
            flag("prune", "Drop query words found in more than this share of items while a \
                rarer word remains ({min} < SHARE <= {max}; default off, or the config's \
                [search] prune_share)", "SHARE"),
            mcp("prune"), eval(5), on([search]), absent("off");
        // At most all of it.
        /// The share of its relevance a hit lends the items next to it in time (the answer
        /// to a question is often the next turn or note), from {min} (off) to {max}.
        CONTEXT_WEIGHT context_weight: f64 = defaults::CONTEXT_WEIGHT,
            Range::Number(real(0.0, 1.0)),
            flag("context-weight", "The share of its relevance a hit lends its neighbours, \
                {min} (off) to {max}", "SHARE"),
            mcp("context_weight", unranged), eval(6), on([search], ":context_weight");
        // A handful is what "next to" means; 0 turns context off.
        /// How many items on each side of a hit are its neighbours, {min} (off) to {max}.
        CONTEXT_RADIUS context_radius: i64 = defaults::CONTEXT_RADIUS,
            Range::Number(whole(0, CONTEXT_RADIUS_MAX)),
            flag("context-radius", "Neighbours on each side of a hit, {min} to {max} ({min}: off)",
                "N"),
            mcp("context_radius", unranged), eval(7), on([search], ":context_radius");
        // At most a year.
        /// The most minutes between a hit and a neighbour.
        CONTEXT_GAP_MINUTES context_gap_minutes: f64 = defaults::CONTEXT_GAP_MINUTES,
            Range::Number(real(0.0, 525_600.0)),
            flag("context-gap", "The most minutes between a hit and a neighbour", "MINUTES"),
            mcp("context_gap", unranged), eval(8), on([search], ":context_gap");
        // The title weighs 2: a neighbour's words count at most five times as much.
        /// The bm25 weight of the neighbours' titles each item is indexed with, from {min}
        /// (they do not count) to {max}.
        CONTEXT_COLUMN_WEIGHT context_column_weight: f64 = defaults::CONTEXT_COLUMN_WEIGHT,
            Range::Number(real(0.0, 10.0)),
            flag("context-column-weight", "The bm25 weight of the neighbours' titles each item \
                is indexed with, {min} (off) to {max}", "WEIGHT"),
            eval(22), on([search], ":context_column_weight");
        // At most ten times as relevant: a date in the question reorders, it does not
        // replace the words.
        /// How much more an item dated in a period the query names counts ("in August
        /// 2023", "on 2026-03-02"): its relevance times 1 + this, from {min} (off) to {max}.
        PERIOD_WEIGHT period_weight: f64 = defaults::PERIOD_WEIGHT,
            Range::Number(real(0.0, 10.0)),
            flag("period-weight", "How much more an item dated in a period the query names \
                counts: its relevance times 1 + WEIGHT, {min} (off) to {max}", "WEIGHT"),
            mcp("period_weight"), eval(25), on([search], ":period_weight");
    }

    [later] Later {
        /// How many results `later` gives when none is asked for.
        LATER_DEFAULT_LIMIT default_limit: i64 = defaults::LATER_LIMIT,
            Range::Number(whole(1, LIST_MAX_LIMIT));
    }

    [timeline] Timeline {
        /// How many results `timeline` gives when none is asked for.
        TIMELINE_DEFAULT_LIMIT default_limit: i64 = defaults::TIMELINE_LIMIT,
            Range::Number(whole(1, LIST_MAX_LIMIT));
    }

    [related] Related {
        /// The rule `related` judges its candidates by (`sql/related.sql`).
        RELATED_RULE rule: RelatedRule = RelatedRule::default(), Range::Rule,
            flag("rule", "The rule: idf (shared words weighed by how rare they are in the \
                library, alone and together) or jezero (any two shared words); default: the \
                config's [related] rule, else {default}", "RULE"),
            eval(9), on([related hook], ":rule");
        // Each shared word weighs at most 1 and a prompt gives at most 20
        // (`recall_prompt_terms`).
        /// Under `idf`, the least total weight of the words a candidate shares.
        RELATED_MIN_WEIGHT min_weight: f64 = defaults::RELATED_MIN_WEIGHT,
            Range::Number(real(0.0, 20.0)),
            flag("min-weight", "Under idf, the least sum of the shared words' weights ({min} \
                to {max}; default: the config's [related] min_weight, else {default})", "WEIGHT"),
            eval(10), on([related hook], ":min_weight");
        // A word's weight, 0 to 1.
        /// Under `idf`, the least weight of the shared words together.
        RELATED_MIN_JOINT_WEIGHT min_joint_weight: f64 = defaults::RELATED_MIN_JOINT_WEIGHT,
            Range::Number(real(0.0, 1.0)),
            flag("min-joint-weight", "Under idf, the least weight of the shared words \
                together ({min} to {max}; default: the config's [related] min_joint_weight, \
                else {default})", "WEIGHT"),
            eval(11), on([related hook], ":min_joint_weight");
        // A million: no library samples a count beyond that.
        /// The items a common word is counted in, in a library 20 times as large or more
        /// (under trigram, the commonest words from twice as large): ten ranges of ids
        /// spread over it; 0: every word counted in every item.
        RELATED_SAMPLE sample: i64 = defaults::RELATED_SAMPLE,
            Range::Number(whole(0, 1_000_000)),
            flag("sample", "The items a common word is counted in, in a library 20 times as \
                large or more (under trigram, the commonest words from twice as large; {min}: \
                every word counted in every item; default: the config's [related] sample, \
                else {default})", "ITEMS"),
            eval(26), on([related hook], ":sample");
    }

    [access] Access {
        /// Glob patterns of the sources this caller may read; none means every source.
        ACCESS_ALLOW allow: Option<Vec<String>> = None, Range::Globs,
            flag("allow", "Sources the caller may read (glob, case-sensitive, repeatable); \
                default: all, or the config's [access] allow"),
            absent("every source");
    }

    [kinds] Kinds {
        /// Kinds of memory an item may have besides the built-in decision, bugfix,
        /// feature, discovery, gotcha and note: each a short lowercase word.
        KINDS_EXTRA extra: Option<Vec<String>> = None, Range::Kinds,
            absent("the six built in");
    }

    [capture] Capture {
        // A year: longer than any pause within one piece of work.
        /// Where `recall capture` splits a session: a gap between two messages longer
        /// than this many hours begins a new segment.
        CAPTURE_GAP_HOURS gap_hours: f64 = 2.0, Range::Number(above(0.0, 8760.0));
        /// The source of the items `recall capture` makes of Claude Code's sessions.
        CAPTURE_CLAUDE_SOURCE claude_source: String = "claude-code".to_string(), Range::Source;
        /// The source of the items `recall capture` makes of Codex's sessions.
        CAPTURE_CODEX_SOURCE codex_source: String = "codex".to_string(), Range::Source;
        /// A summariser: a command that reads each segment's redacted text and answers a
        /// title, a summary, questions and atoms (docs/capture.md#a-summariser).
        SUMMARIZE_COMMAND summarize_command: Option<String> = None, Range::Command("the summariser"),
            flag("summarize-cmd", "Have each segment's item written by a summariser: a command \
                that reads the segment's redacted text and answers its title, summary, questions \
                and atoms (docs/capture.md#a-summariser); default: the config's [capture] \
                summarize_command"),
            absent("none: items are made literally");
        // A local model may take a while on a long segment; an hour is past any use.
        /// How long the summariser may take over one segment, in milliseconds.
        SUMMARIZE_TIMEOUT_MS summarize_timeout_ms: i64 = 60_000, Range::Number(whole(1, 3_600_000));
    }

    [hook] Hook {
        /// Whether the hook answers every prompt of a session with related items, not
        /// only its first.
        HOOK_EVERY_PROMPT every_prompt: bool = false, Range::Bool,
            flag("every-prompt", "Answer every prompt of a session with related items, not \
                only its first (default: the config's [hook] every_prompt, else off)");
        // A start block is read before the first prompt: a handful, at most what a
        // timeline lists.
        /// How many of the project's newest items the hook shows at session start.
        HOOK_START_ITEMS start_items: i64 = 5, Range::Number(whole(0, LIST_MAX_LIMIT));
        // Read whole before the first prompt, not skimmed: about a screen, some 400 tokens,
        // a fifth of the 2,000 tokens peers allow for all they inject at the start.
        /// The most characters the session start's block of items holds (its frame and
        /// the usage line aside): the last session told in a few lines, then one line
        /// for each older item, while they fit.
        HOOK_START_BUDGET start_budget: i64 = 1600, Range::Number(whole(200, 20_000));
        /// Whether a session whose working folder maps to no project still gets the start
        /// block, with the library's newest items.
        HOOK_START_WITHOUT_PROJECT start_without_project: bool = false, Range::Bool;
        /// The hook events that capture the session's transcript (`recall capture`, run
        /// detached).
        HOOK_CAPTURE_ON capture_on: Vec<String> = crate::config::hook_events::default_capture(),
            Range::Events;
    }

    [redact] Redact {
        /// Whether `add`, `import` and the MCP server's `add` replace secrets of
        /// well-known shapes in an item's text by `[redacted]` before it is stored.
        REDACT_ENABLED enabled: bool = true, Range::Bool,
            flag("no-redact", "Store the item's text as given, secrets included (by default \
                secrets of well-known shapes become [redacted]; docs/cli.md#redaction)");
    }

    // serde's messages call the judge's and the embedder's sections `struct Config`.
    #[serde(expecting = "struct Config")]
    [judge] Judge {
        /// The judge's command line (split like a shell's words, run without a shell).
        JUDGE_COMMAND command: Option<String> = None, Range::Command("the judge"),
            flag("judge-cmd", "Re-rank the best candidates with a judge: a command that rates \
                each one on its standard input and output (docs/judge.md); default: the \
                config's [judge] command"),
            eval(12, switch "judge"), absent("no judge");
        // The judge's probabilities are from 0 to 1, and so are the cuts made on them.
        /// The probability from which a candidate is a match.
        JUDGE_THRESHOLD threshold: f64 = 0.7, Range::Number(real(0.0, 1.0)), eval(13);
        /// The probability from which a candidate is a weak match, when none is a match.
        JUDGE_FLOOR floor: f64 = 0.2, Range::Number(real(0.0, 1.0)), eval(14),
            also(floor_at_most_threshold);
        // Longer than ten minutes is a hang, not a judgement.
        /// How long a search waits for its judge, in milliseconds.
        JUDGE_TIMEOUT_MS timeout_ms: i64 = 5000, Range::Number(whole(1, 600_000)), eval(15);
        // More candidates than a search ever returns would only cost the judge's time.
        /// How many literal candidates the judge rates.
        JUDGE_SHORTLIST shortlist: i64 = 20, Range::Number(whole(1, 10_000)), eval(16);
        /// How many requests wait for the judge's answer at once.
        JUDGE_CONCURRENCY concurrency: i64 = 8, Range::Number(whole(1, 256)), eval(17);
    }

    #[serde(expecting = "struct Config")]
    [vectors] Vectors {
        /// The embedder's command line (split like a shell's words, run without a shell).
        EMBED_COMMAND command: Option<String> = None, Range::Command("the embedder"),
            flag("embed-cmd", "The embedder: a command that turns texts into vectors on its \
                standard input and output (docs/vectors.md); default: the config's [vectors] \
                command"),
            eval(18, switch "vectors"), absent("no embedder");
        // Longer than ten minutes is a hang.
        /// How long the embedder may take for one request, in milliseconds.
        EMBED_TIMEOUT_MS timeout_ms: i64 = 30_000, Range::Number(whole(1, 600_000));
        /// Texts per request of `recall embed`.
        EMBED_BATCH batch: i64 = defaults::EMBED_BATCH, Range::Number(whole(1, 10_000));
        // A weight of 0 silences a list; ten times the other list's is already all of the
        // say.
        /// The literal list's weight in reciprocal rank fusion.
        LITERAL_WEIGHT literal_weight: f64 = defaults::LITERAL_WEIGHT,
            Range::Number(real(0.0, 10.0)), eval(19);
        /// The nearest items' weight in reciprocal rank fusion.
        VECTOR_WEIGHT vector_weight: f64 = defaults::VECTOR_WEIGHT,
            Range::Number(real(0.0, 10.0)), eval(20);
        /// Reciprocal rank fusion's k.
        RRF_K rrf_k: f64 = score::DEFAULT_RRF_K, Range::Number(real(0.0, 10_000.0)), eval(21);
        /// How search fuses the literal list and the nearest items: convex (scores on one
        /// scale, the vector list trusted as far as the lists agree) or rrf (reciprocal
        /// rank fusion).
        FUSION fusion: Fusion = Fusion::default(), Range::Fusion,
            flag("fusion", "How the literal list and the nearest items are fused: convex \
                (scores on one scale, the vector list trusted as far as the two lists agree) \
                or rrf (reciprocal rank fusion); default: the config's [vectors] fusion, else \
                {default}"),
            eval(23);
        // 1 gives the order of the lists' common items to the vector list alone.
        /// Under convex, the vector list's share of the say, from {min} to {max}.
        VECTOR_SHARE vector_share: f64 = defaults::VECTOR_SHARE,
            Range::Number(real(0.0, 1.0)), eval(24);
    }
}

/// The floor is a weaker match than the threshold.
fn floor_at_most_threshold(c: &Config, name: &str) -> Result<(), String> {
    let (floor, threshold) = (c.judge.floor, c.judge.threshold);
    if floor > threshold {
        return Err(format!(
            "{name} must be at most the threshold {threshold}, got {floor}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value as Json;

    #[test]
    fn ranges_and_messages() {
        assert_eq!(CANDIDATE_POOL.check_int("--pool", 10), Ok(10));
        assert_eq!(
            CANDIDATE_POOL.check_int("--pool", 9),
            Err("--pool must be a whole number from 10 to 5000, got 9".to_string())
        );
        assert!(HALF_LIFE_DAYS.check("h", 0.0).is_err());
        assert!(HALF_LIFE_DAYS.check("h", f64::NAN).is_err());
        assert!(HALF_LIFE_DAYS.check("h", f64::INFINITY).is_err());
        assert_eq!(HALF_LIFE_DAYS.check("h", 1e-9), Ok(1e-9));
        assert_eq!(RECENCY_WEIGHT.check("w", 0.0), Ok(0.0));
        assert_eq!(RECENCY_WEIGHT.check("w", 1.0), Ok(1.0));
        assert!(RECENCY_WEIGHT.check("w", 1.0000001).is_err());
        assert!(PRUNE_SHARE.check("p", 0.0).is_err());
        assert_eq!(
            BUSY_TIMEOUT_MS.check_int("storage.busy_timeout_ms", 2_147_483_648),
            Err(
                "storage.busy_timeout_ms must be a whole number from 0 to 86400000, got 2147483648"
                    .to_string()
            )
        );
        assert_eq!(
            BUSY_TIMEOUT_MS.check_int("b", i64::MAX),
            Err("b must be a whole number from 0 to 86400000, got 9223372036854775807".to_string())
        );
    }

    /// Each default is in its range and of its range's kind; an optional setting (absent
    /// by default) says what its absence means.
    #[test]
    fn each_default_fits_its_range() {
        let config = Config::default();
        assert_eq!(config.check_each(&|key| key.to_string()), Ok(()));
        for s in SETTINGS {
            let default = config.value(s.key).expect("declared");
            let fits = match (&s.range, &default) {
                (_, Json::Null) => true,
                (Range::Number(b), Json::Number(n)) => b.integer == n.is_i64(),
                (Range::Bool, Json::Bool(_)) => true,
                (Range::Rule, Json::String(r)) => RelatedRule::NAMES.contains(&r.as_str()),
                (Range::Fusion, Json::String(r)) => Fusion::NAMES.contains(&r.as_str()),
                (Range::Source, Json::String(r)) => crate::item::check_source(r).is_ok(),
                (Range::Events, Json::Array(events)) => events.iter().all(Json::is_string),
                _ => false,
            };
            assert!(fits, "{}: {default} is not a {:?}", s.key, s.range);
            assert_eq!(default.is_null(), s.absent.is_some(), "{}", s.key);
        }
    }

    /// No two settings share a key, a flag, an MCP argument or a `--set` name.
    #[test]
    fn names_are_unique() {
        let unique = |names: Vec<&str>| {
            let mut sorted = names.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), names.len(), "{names:?}");
        };
        unique(SETTINGS.iter().map(|s| s.key).collect());
        unique(
            SETTINGS
                .iter()
                .filter_map(|s| s.flag.as_ref())
                .map(|f| f.long)
                .collect(),
        );
        unique(
            SETTINGS
                .iter()
                .filter_map(|s| s.mcp.as_ref())
                .map(|a| a.name)
                .collect(),
        );
        unique(SETTINGS.iter().filter_map(|s| s.eval_key()).collect());
    }
}
