//! Settings resolved once. The configuration file, the flags and `recall eval --set`
//! become typed, checked values here (each setting declared in `config::table`); the
//! commands, `recall eval` and the benchmarks take these values and never read a flag or
//! the configuration themselves.
use std::path::PathBuf;

use serde_json::{json, Map, Value as Json};

use crate::args::{self, Cli, Scope};
use crate::config::given::Given;
use crate::config::overlay::Overlay;
use crate::config::table::{EMBED_COMMAND, JUDGE_COMMAND};
use crate::config::{self, Config};
use crate::error::{err, Error, Result};
use recall_core::defaults::{LIST_MAX_LIMIT, RELATED_LIMIT};
use recall_core::score::limit;

mod shown;
mod stages;

pub use stages::{Judge, Vectors};

/// What every command may need: the library path, configuration and global flags.
pub struct Globals {
    pub db: Option<PathBuf>,
    pub config: Config,
    /// The tokenizer of the flag, else of the config.
    pub tokenizer: Option<String>,
    pub json: bool,
    /// Whether `-` as a query or prompt reads it from standard input: on the command
    /// line, not in `recall mcp`, whose standard input carries the protocol.
    pub dash_reads_stdin: bool,
}

impl Globals {
    /// Reads the configuration and applies its process-wide part (the busy timeout).
    pub fn resolve(cli: &Cli) -> Result<Globals> {
        let config = Config::load(cli.config.as_deref())?;
        // The declared range (config::table::BUSY_TIMEOUT_MS) keeps it non-negative.
        let busy = config.storage.busy_timeout_ms.unsigned_abs();
        crate::library::set_busy_timeout(std::time::Duration::from_millis(busy));
        let tokenizer = cli
            .tokenizer
            .clone()
            .or_else(|| config.storage.tokenizer.clone());
        Ok(Globals {
            db: cli.db.clone(),
            config,
            tokenizer,
            json: cli.json,
            dash_reads_stdin: true,
        })
    }

    /// Opens the library for a query: read-only, with the configured tokenizer checked.
    pub fn open_for_query(&self) -> Result<crate::library::Library> {
        crate::library::open(
            self.db()?,
            crate::library::Mode::Read,
            self.tokenizer.as_deref(),
        )
    }

    pub fn db(&self) -> Result<&PathBuf> {
        self.db
            .as_ref()
            .ok_or_else(|| err!("no library given: pass --db PATH or set RECALL_DB"))
    }

    /// A query or prompt: the argument, or standard input for `-` where it may be read.
    pub fn text(&self, arg: &str) -> Result<String> {
        if self.dash_reads_stdin {
            text_argument(arg)
        } else {
            Ok(arg.to_string())
        }
    }

    /// Allowed source globs: the flags, else the config, else every source (None).
    pub fn allow(&self, flags: &[String]) -> Option<Vec<String>> {
        if !flags.is_empty() {
            Some(flags.to_vec())
        } else {
            self.config.access.allow.clone()
        }
    }
}

/// `--kind` flags checked against the kinds a library's items may have (the built-in
/// ones and the configuration's `[kinds] extra`): None for any kind.
pub fn kinds_flag(g: &Globals, flags: &[String]) -> Result<Option<Vec<String>>> {
    if flags.is_empty() {
        return Ok(None);
    }
    let known = crate::item::known_kinds(g.config.kinds.extra.as_deref());
    let mut kinds: Vec<String> = Vec::new();
    for k in flags {
        if let Some(unknown) = crate::item::unknown_kind("--kind", k, &known) {
            return Err(err!("{unknown}"));
        }
        if !kinds.contains(k) {
            kinds.push(k.clone());
        }
    }
    Ok(Some(kinds))
}

/// Kinds as the queries take them: a JSON array, or NULL for any kind.
pub fn kinds_param(kinds: &Option<Vec<String>>) -> Option<String> {
    kinds.as_ref().map(|k| json!(k).to_string())
}

/// The access globs as the queries take them: a JSON array, or NULL for every source.
pub fn sources_param(allow: &Option<Vec<String>>) -> Option<String> {
    allow.as_ref().map(|globs| json!(globs).to_string())
}

/// A time flag in the stored normal form, by the one rule of every route (the SQL would
/// read garbage as NULL, and a year out of range fails inside it).
pub fn time_flag(flag: &str, value: Option<&str>) -> Result<Option<String>> {
    value
        .map(|v| recall_core::time::storable(v).map_err(|e| err!("{flag} {e}")))
        .transpose()
}

/// A query or prompt argument; `-` reads it from standard input, for text longer than
/// the system's argument limit. One trailing line break is not part of it.
fn text_argument(arg: &str) -> Result<String> {
    if arg != "-" {
        return Ok(arg.to_string());
    }
    let what = "standard input (the query or prompt)";
    let bytes = crate::input::read_limited(
        std::io::stdin().lock(),
        crate::input::PROMPT,
        what,
        "give a shorter one",
    )?;
    let text = crate::input::text(bytes, what)?;
    let text = text.strip_suffix('\n').unwrap_or(&text);
    Ok(text.strip_suffix('\r').unwrap_or(text).to_string())
}

/// The ranking of search and related: the configuration's `[search]` and `[related]`
/// with the values given over them (`recall eval --set`, the flags and tool arguments
/// made from the table), and the stages. The queries bind a declared setting by its key
/// (`query::params`); `recall eval --json` prints it under its public names (`Serialize`
/// below).
#[derive(Debug, Clone)]
pub struct Ranking {
    pub search: config::Search,
    pub related: config::Related,
    /// The judge re-ranker of search (`judge`), off unless a command is given.
    pub judge: Judge,
    /// Search's vector channel (`vectors`), used when the library has vectors and an
    /// embedder is set.
    pub vectors: Vectors,
}

/// Search's context stage (`sql/search.sql`); a weight or a radius of 0 turns it off.
/// Named after the `[search] context_*` keys.
#[derive(Debug, Clone, Copy)]
pub struct Context {
    pub context_weight: f64,
    pub context_radius: i64,
    pub context_gap_minutes: f64,
    /// The bm25 weight of the index's `context` column (the neighbours' titles).
    pub context_column_weight: f64,
}

impl Context {
    pub fn on(&self) -> bool {
        self.context_weight > 0.0 && self.context_radius > 0
    }
}

/// `recall eval --json`'s column: every ranking setting at its place (`shown`), the
/// stop-word rule and the stages.
impl serde::Serialize for Ranking {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        let mut column = Map::new();
        self.show_all(&mut column);
        column.insert("drop_stopwords".into(), json!(self.search.drop_stopwords));
        column.insert("judge".into(), json!(self.judge));
        column.insert("vectors".into(), json!(self.vectors));
        column.serialize(serializer)
    }
}

impl Ranking {
    pub fn from_config(c: &Config) -> Ranking {
        Ranking {
            search: c.search.clone(),
            related: c.related.clone(),
            judge: Judge {
                config: c.judge.clone(),
                on: c.judge.command.is_some(),
            },
            vectors: Vectors {
                config: c.vectors.clone(),
                on: true,
                required: false,
            },
        }
    }

    pub fn context(&self) -> Context {
        let s = &self.search;
        Context {
            context_weight: s.context_weight,
            context_radius: s.context_radius,
            context_gap_minutes: s.context_gap_minutes,
            context_column_weight: s.context_column_weight,
        }
    }

    /// The value of a declared setting of `[search]` or `[related]`, by its key.
    pub fn value(&self, key: &str) -> Option<Json> {
        self.search.value(key).or_else(|| self.related.value(key))
    }

    /// The values given by flags or tool arguments over this ranking, each checked as
    /// the file's line is and named by its flag; a clamped flag's value is brought into
    /// its range instead.
    pub fn give(&mut self, given: &Given) -> Result<()> {
        for (setting, value) in given.values() {
            let name = setting.flag_name();
            let value = value.map_err(|refused| err!("{refused}"))?;
            let value = match (
                setting.flag.as_ref().is_some_and(|f| f.clamped),
                value.as_i64(),
            ) {
                (true, Some(n)) => json!(setting.clamp(n)),
                _ => value.clone(),
            };
            let set = self
                .search
                .set_json(setting.key, &name, value.clone())
                .map_err(Error::new)?
                || self
                    .related
                    .set_json(setting.key, &name, value)
                    .map_err(Error::new)?;
            if !set {
                return Err(err!("{name}: not a setting of search or related"));
            }
        }
        Ok(())
    }

    /// `recall eval`'s column: the configuration with its `--set` values, the flags, then
    /// the stages `--set` switched on or off.
    pub fn overlaid(
        o: &Overlay,
        judge: &args::JudgeArgs,
        vectors: &args::VectorArgs,
    ) -> Result<Ranking> {
        let mut r = Ranking::from_config(&o.config);
        r.stages(judge, vectors)?;
        if let Some(on) = o.switched(&JUDGE_COMMAND) {
            r.judge.on = on;
            if on && r.judge.config.command.is_none() {
                return Err(err!(
                    "--set judge=on: no judge command: give --judge-cmd CMD or the config's [judge] command"
                ));
            }
        }
        if let Some(on) = o.switched(&EMBED_COMMAND) {
            r.vectors.on = on;
            if on && r.vectors.config.command.is_none() {
                return Err(err!("--set vectors=on: {}", crate::vectors::NO_EMBEDDER));
            }
            // Asked for: a library without vectors is an error then.
            r.vectors.required = on;
        }
        Ok(r)
    }

    /// `--judge-cmd`, `--no-judge`, `--embed-cmd` and `--no-vectors` over the
    /// configuration.
    fn stages(&mut self, judge: &args::JudgeArgs, vectors: &args::VectorArgs) -> Result<()> {
        if let Some(c) = &judge.judge_cmd {
            self.judge.config.command = Some(JUDGE_COMMAND.flag_text(c)?);
            self.judge.on = true;
        }
        if judge.no_judge {
            self.judge.on = false;
        }
        if let Some(c) = &vectors.embed.embed_cmd {
            self.vectors.config.command = Some(EMBED_COMMAND.flag_text(c)?);
        }
        if vectors.no_vectors {
            self.vectors.on = false;
        }
        if let Some(fusion) = vectors.fusion {
            self.vectors.config.fusion = fusion;
        }
        Ok(())
    }
}

/// The filters of search and timeline, checked; times in the stored form. A project
/// filter lets the global items through too; under `--scope all` there is none.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    pub project: Option<String>,
    pub source: Option<String>,
    pub since: Option<String>,
    pub until: Option<String>,
    /// Only items of these kinds (None: any).
    pub kinds: Option<Vec<String>>,
    /// `--scope`, when given.
    pub scope: Option<Scope>,
}

impl Filters {
    pub fn resolve(
        g: &Globals,
        f: &args::Filters,
        kinds: &args::KindArgs,
        scope: &args::ScopeArgs,
    ) -> Result<Filters> {
        Ok(Filters {
            project: scoped(f.project.clone(), scope.scope),
            source: f.source.clone(),
            since: time_flag("--since", f.since.as_deref())?,
            until: time_flag("--until", f.until.as_deref())?,
            kinds: kinds_flag(g, &kinds.kinds)?,
            scope: scope.scope,
        })
    }

    /// The filters that are set, as printed in `settings` and `explain`.
    pub fn shown(&self) -> Map<String, Json> {
        let mut shown = Map::new();
        for (k, v) in [
            ("project", &self.project),
            ("source", &self.source),
            ("since", &self.since),
            ("until", &self.until),
        ] {
            if let Some(v) = v {
                shown.insert(k.to_string(), json!(v));
            }
        }
        if let Some(kinds) = &self.kinds {
            shown.insert("kind".to_string(), json!(kinds));
        }
        if let Some(scope) = self.scope {
            shown.insert("scope".to_string(), json!(scope.name()));
        }
        shown
    }
}

/// The project filter under `--scope`: `all` drops it.
fn scoped(project: Option<String>, scope: Option<Scope>) -> Option<String> {
    match scope {
        Some(Scope::All) => None,
        _ => project,
    }
}

/// `--now`: always a time, the clock read once here, so that the settings printed are
/// the ones used.
fn now(r: &args::Recency) -> Result<String> {
    Ok(time_flag("--now", r.now.as_deref())?
        .unwrap_or_else(|| recall_core::time::normalize(&chrono::Utc::now())))
}

/// `recall search`, resolved.
pub struct Search {
    pub query: String,
    pub ranking: Ranking,
    pub limit: i64,
    pub now: Option<String>,
    pub filters: Filters,
    pub allow: Option<Vec<String>>,
}

impl Search {
    pub fn resolve(g: &Globals, a: &args::SearchArgs) -> Result<Search> {
        Search::ranked(g, a, Ranking::from_config(&g.config), || g.text(&a.query))
    }

    /// `search` over a ranking of the caller's (a column of `recall eval`, the
    /// configuration with its `--set` values) and a query read by `query` (after every
    /// flag is checked, so that a bad flag is told before standard input is read): the
    /// flags of `a` over them, checked as the command's are.
    pub fn ranked(
        g: &Globals,
        a: &args::SearchArgs,
        mut ranking: Ranking,
        query: impl FnOnce() -> Result<String>,
    ) -> Result<Search> {
        let cfg = &g.config.search;
        ranking.give(&a.settings.given)?;
        ranking.search.drop_stopwords = ranking.search.drop_stopwords && !a.literal;
        let filters = Filters::resolve(g, &a.filters, &a.kinds, &a.scope)?;
        let now = now(&a.recency)?;
        ranking.stages(&a.judge, &a.vectors)?;
        Ok(Search {
            query: query()?,
            limit: limit(a.common.limit, cfg.default_limit, cfg.max_limit),
            now: Some(now),
            filters,
            allow: g.allow(&a.common.access.allow),
            ranking,
        })
    }

    pub fn shown(&self, tokenizer: &str) -> Json {
        let mut shown = Map::new();
        self.ranking.show_for("search", &mut shown);
        for (key, value) in [
            ("query", json!(self.query)),
            ("tokenizer", json!(tokenizer)),
            ("drop_stopwords", json!(self.ranking.search.drop_stopwords)),
            ("limit", json!(self.limit)),
            ("now", json!(self.now)),
            ("filters", json!(self.filters.shown())),
            ("allow", json!(self.allow)),
        ] {
            shown.insert(key.into(), value);
        }
        Json::Object(shown)
    }
}

/// `recall search --file`, the MCP search tool's `file`, and the session hook's file
/// memory, resolved: the items that edited or named one file (`sql/file_items.sql`).
pub struct FileItems {
    /// The file as items name it (`project::file_in_checkout`).
    pub file: String,
    /// Only items that also match these words.
    pub query: Option<String>,
    pub filters: Filters,
    pub limit: i64,
    pub default_limit: i64,
    pub allow: Option<Vec<String>>,
}

/// How many of a file's items the session hook shows.
pub const FILE_ITEMS_SHOWN: i64 = 3;

impl FileItems {
    /// From `recall search --file PATH [QUERY]`: PATH is read against the current folder,
    /// as git and ripgrep read one; `relative_to` None takes a relative PATH as relative
    /// to its checkout already (the MCP server, whose folder is not the caller's).
    pub fn resolve(
        g: &Globals,
        a: &args::SearchArgs,
        file: &str,
        relative_to: Option<&str>,
    ) -> Result<FileItems> {
        if file.trim().is_empty() {
            return Err(err!("--file is empty: give the path of a file"));
        }
        let cfg = &g.config.search;
        let file = crate::project::file_in_checkout(file, relative_to);
        FileItems::limited(g, a, file, cfg.default_limit, cfg.max_limit)
    }

    /// The session hook's file memory: `file` as items name it already (the hook reads
    /// the agent's path against its working folder and through links), and
    /// `FILE_ITEMS_SHOWN` of its items, whatever search's limits.
    pub fn for_hook(g: &Globals, a: &args::SearchArgs, file: String) -> Result<FileItems> {
        FileItems::limited(g, a, file, FILE_ITEMS_SHOWN, FILE_ITEMS_SHOWN)
    }

    fn limited(
        g: &Globals,
        a: &args::SearchArgs,
        file: String,
        default_limit: i64,
        max_limit: i64,
    ) -> Result<FileItems> {
        let query = match a.query.trim().is_empty() {
            true => None,
            false => Some(g.text(&a.query)?),
        };
        Ok(FileItems {
            file,
            query,
            filters: Filters::resolve(g, &a.filters, &a.kinds, &a.scope)?,
            limit: limit(a.common.limit, default_limit, max_limit),
            default_limit,
            allow: g.allow(&a.common.access.allow),
        })
    }

    pub fn shown(&self) -> Json {
        json!({
            "file": self.file, "query": self.query, "limit": self.limit,
            "filters": self.filters.shown(), "allow": self.allow,
        })
    }
}

/// `recall later`, resolved.
pub struct Later {
    pub item_id: i64,
    pub query: Option<String>,
    pub limit: i64,
    pub allow: Option<Vec<String>>,
    /// Only newer items of these kinds (None: any).
    pub kinds: Option<Vec<String>>,
}

impl Later {
    pub fn resolve(g: &Globals, a: &args::LaterArgs) -> Result<Later> {
        Ok(Later {
            item_id: a.id,
            query: a.query.clone(),
            limit: limit(a.common.limit, g.config.later.default_limit, LIST_MAX_LIMIT),
            allow: g.allow(&a.common.access.allow),
            kinds: kinds_flag(g, &a.kinds.kinds)?,
        })
    }
}

/// `recall timeline`, resolved.
pub struct Timeline {
    pub filters: Filters,
    pub limit: i64,
    pub default_limit: i64,
    pub allow: Option<Vec<String>>,
    /// `--around`: the items before and after one item instead.
    pub around: Option<Around>,
}

/// `timeline --around ID --before N --after M`.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Around {
    pub id: i64,
    pub before: i64,
    pub after: i64,
}

/// The most items `--around` shows on each side, and how many by default.
pub const AROUND_MAX: i64 = LIST_MAX_LIMIT;
pub const AROUND_DEFAULT: i64 = 3;

impl Timeline {
    pub fn resolve(g: &Globals, a: &args::TimelineArgs) -> Result<Timeline> {
        let default_limit = g.config.timeline.default_limit;
        let side = |flag: &str, n: Option<i64>| -> Result<i64> {
            match n {
                None => Ok(AROUND_DEFAULT),
                Some(n) if (0..=AROUND_MAX).contains(&n) => Ok(n),
                Some(n) => Err(err!(
                    "{flag} must be a whole number from 0 to {AROUND_MAX}, got {n}"
                )),
            }
        };
        let around = match a.around.around {
            Some(id) => Some(Around {
                id,
                before: side("--before", a.around.before)?,
                after: side("--after", a.around.after)?,
            }),
            None => None,
        };
        Ok(Timeline {
            filters: Filters::resolve(g, &a.filters, &a.kinds, &a.scope)?,
            limit: limit(a.common.limit, default_limit, LIST_MAX_LIMIT),
            default_limit,
            allow: g.allow(&a.common.access.allow),
            around,
        })
    }
}

/// `recall related`, resolved.
pub struct Related {
    pub prompt: String,
    /// The project's items and the global ones; None under `--scope all`.
    pub project: Option<String>,
    /// Only items of these kinds (None: any).
    pub kinds: Option<Vec<String>>,
    pub ranking: Ranking,
    pub limit: i64,
    pub now: Option<String>,
    pub allow: Option<Vec<String>>,
}

impl Related {
    pub fn resolve(g: &Globals, a: &args::RelatedArgs) -> Result<Related> {
        Related::with_prompt(g, a, g.text(&a.prompt)?)
    }

    /// `related` for a prompt read elsewhere (the prompt hook's JSON): the flags of `a`
    /// and the configuration, but `a.prompt` is not read.
    pub fn with_prompt(g: &Globals, a: &args::RelatedArgs, prompt: String) -> Result<Related> {
        Related::ranked(g, a, prompt, Ranking::from_config(&g.config))
    }

    /// `related` for a prompt read elsewhere, over a ranking of the caller's (a column of
    /// `recall eval`): the flags of `a` over it.
    pub fn ranked(
        g: &Globals,
        a: &args::RelatedArgs,
        prompt: String,
        mut ranking: Ranking,
    ) -> Result<Related> {
        ranking.give(&a.settings.given)?;
        let now = now(&a.recency)?;
        Ok(Related {
            prompt,
            project: scoped(a.project.clone(), a.scope.scope),
            kinds: kinds_flag(g, &a.kinds.kinds)?,
            limit: limit(a.common.limit, RELATED_LIMIT, RELATED_LIMIT),
            now: Some(now),
            allow: g.allow(&a.common.access.allow),
            ranking,
        })
    }

    pub fn shown(&self) -> Json {
        let mut shown = Map::new();
        self.ranking.show_for("related", &mut shown);
        for (key, value) in [
            ("prompt", json!(self.prompt)),
            ("project", json!(self.project)),
            ("limit", json!(self.limit)),
            ("now", json!(self.now)),
            ("allow", json!(self.allow)),
        ] {
            shown.insert(key.into(), value);
        }
        if let Some(kinds) = &self.kinds {
            shown.insert("kind".into(), json!(kinds));
        }
        Json::Object(shown)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::config::table::{CANDIDATE_POOL, PRUNE_SHARE, RECENCY_WEIGHT, RELATED_RULE};
    use crate::config::RelatedRule;

    fn given(values: &[(&'static crate::config::setting::Setting, Json)]) -> Given {
        let mut given = Given::default();
        for (setting, value) in values {
            given.push(setting, value.clone());
        }
        given
    }

    /// A given value is set over the configuration and checked as its line in the file
    /// is, named by its flag; a clamped one is brought into its range.
    #[test]
    fn given_values_are_checked_as_the_file_checks_them() {
        let mut r = Ranking::from_config(&Config::default());
        r.give(&given(&[
            (&RECENCY_WEIGHT, json!(0.25)),
            (&RELATED_RULE, json!("jezero")),
            (&PRUNE_SHARE, json!(0.5)),
            (&CANDIDATE_POOL, json!(3)),
        ]))
        .unwrap();
        assert_eq!(r.search.recency_weight, 0.25);
        assert_eq!(r.related.rule, RelatedRule::Jezero);
        assert_eq!(r.search.prune_share, Some(0.5));
        assert_eq!(r.search.candidate_pool, 10, "clamped to the pool's least");
        assert_eq!(r.value("search.recency_weight"), Some(json!(0.25)));
        assert_eq!(r.value("related.rule"), Some(json!("jezero")));
        let refused = |setting, value: Json| {
            let mut r = Ranking::from_config(&Config::default());
            r.give(&given(&[(setting, value)])).unwrap_err().message
        };
        assert_eq!(
            refused(&RECENCY_WEIGHT, json!(2)),
            "--weight must be from 0 to 1, got 2"
        );
        assert!(refused(&PRUNE_SHARE, json!(0)).starts_with("--prune "));
        assert!(refused(&RELATED_RULE, json!("cosine")).starts_with("--rule: "));
    }
}
