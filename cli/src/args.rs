//! The command line, as clap reads it. A flag that sets a declared setting takes its name
//! and help from the declaration (`config::table`); the ranking settings' flags are made
//! from it whole (`settings_flags`).
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::config::table::{
    ACCESS_ALLOW, DROP_STOPWORDS, EMBED_COMMAND, FUSION, HOOK_EVERY_PROMPT, JUDGE_COMMAND,
    REDACT_ENABLED, SUMMARIZE_COMMAND, TOKENIZER,
};

#[derive(Debug, Parser)]
#[command(
    name = "recall",
    version,
    about = "Literal search for agent memory and short titled documents, on SQLite FTS5",
    after_help = "A library is one SQLite file: `recall --db memory.db init`, then `import`, `search`."
)]
pub struct Cli {
    /// The library file.
    #[arg(long, env = "RECALL_DB", global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,

    /// A TOML configuration file.
    #[arg(long, env = "RECALL_CONFIG", global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,

    #[arg(long = TOKENIZER.long(), env = "RECALL_TOKENIZER", global = true, value_name = "SPEC",
        help = TOKENIZER.help())]
    pub tokenizer: Option<String>,

    /// Print JSON for machines instead of text for people.
    #[arg(long, global = true)]
    pub json: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a library (every migration, and the tokenizer record).
    Init,
    /// Apply pending schema migrations.
    Migrate,
    /// Check the library: SQLite, tokenizer, index integrity, counts, triggers.
    Check,
    /// One screen on the library and what fills it: items, the agents' last captures,
    /// the hook's failures, a pending wipe, the vectors; exit 1 when something needs
    /// attention (docs/cli.md#status).
    Status {
        #[command(flatten)]
        access: AccessArgs,
    },
    /// Rebuild the index; with a new --tokenizer, recreate it with that tokenizer.
    Rebuild,
    /// Restore a damaged schema from the migrations (tables, indexes, triggers, the index
    /// with the library's tokenizer, the version and tokenizer records), then rebuild the
    /// index; in one transaction.
    Repair,
    /// Write the library's items as JSON Lines that `recall import` reads back (a file,
    /// or - for standard output).
    Export(ExportArgs),
    /// Import items from JSON Lines (a file, or - for standard input).
    Import {
        /// The JSON Lines file, or - for standard input.
        #[arg(value_name = "FILE")]
        file: String,
        /// Leave out items identical to one already in the library (same source,
        /// project, title, summary, questions, atoms and time); by default they are
        /// imported again, with a warning.
        #[arg(long)]
        skip_duplicates: bool,
        #[command(flatten)]
        redact: RedactArgs,
        // A line with an id may replace only an item these let the caller read.
        #[command(flatten)]
        access: AccessArgs,
    },
    /// Add one item, given as flags or as one JSON object on standard input (`-`);
    /// prints its id.
    Add(AddArgs),
    /// Capture coding agents' sessions (Claude Code, Codex) as items, one per segment;
    /// again and again, adding only what is new (docs/capture.md).
    Capture(CaptureArgs),
    /// Forget items by id and/or filter, leaving no copy of their text in the library
    /// file or its log.
    Forget(ForgetArgs),
    /// The session hook of a coding agent: reads the hook's JSON on standard input; at
    /// session start prints the project's newest items, at the first prompt the earlier
    /// items related to it, at the session's end captures it (detached); never fails the
    /// agent.
    Hook(HookArgs),
    /// Show items by id, in the order given: one, or several in one call.
    Get {
        /// The ids; several are shown one after another, and an id that names no item
        /// (or one of a source the caller may not read) is reported, not fatal.
        #[arg(value_name = "ID", required = true, num_args = 1..)]
        id: Vec<i64>,
        /// Include each item's stored transcript.
        #[arg(long)]
        transcript: bool,
        /// Print the sqlite3 shell lines that give the items again, instead of them.
        #[arg(long)]
        show_sql: bool,
        #[command(flatten)]
        access: AccessArgs,
    },
    /// Mark items global: visible in every project (a project-filtered search, timeline
    /// or related list includes them).
    Promote(MarkArgs),
    /// Mark items as of their own project only again (undoes promote).
    Demote(MarkArgs),
    /// Set the kind of memory of items: `recall kind KIND ID…`, or `recall kind --none
    /// ID…` to take it away.
    Kind(KindSetArgs),
    /// Serve a local web page to review the library (search, items, forget, promote,
    /// kinds, what the session hook injects, status) on 127.0.0.1, until Ctrl-C
    /// (docs/ui.md).
    Ui(UiArgs),
    /// Merge the index's segments and refresh the query planner's statistics.
    Optimize,
    /// Give items vectors for search's vector channel: embeds, with the embedder, the
    /// items that have none or whose text changed since (docs/vectors.md).
    Embed(EmbedArgs),
    /// Search: FTS5 ranks a pool by bm25, recency re-ranks it.
    Search(SearchArgs),
    /// Newer items on the same subject as an item.
    Later(LaterArgs),
    /// Items newest first, in a project or source.
    Timeline(TimelineArgs),
    /// Items sharing at least two distinctive words with a first prompt.
    Related(RelatedArgs),
    /// Measure retrieval quality on labeled cases, under one or more settings.
    Eval(EvalArgs),
    /// Run any SQL against the library, with every recall_* function registered (the
    /// bundled SQLite); read-only unless --write.
    Sql(SqlArgs),
    /// Serve the library to agents over the Model Context Protocol, on standard input and
    /// output: the tools search, later, related, timeline and get (add and forget with
    /// --allow-writes).
    Mcp(McpArgs),
    /// Wire recall into a coding agent (its hooks and the MCP server, in the agent's own
    /// settings files, merged with what is there); with no agent, list what is installed
    /// and what is wired.
    Setup(SetupArgs),
    /// Import a LoCoMo-format file (conversations and questions) and write eval cases.
    ImportLocomo {
        /// The LoCoMo JSON file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Where to write the cases (JSON Lines).
        #[arg(long, value_name = "PATH")]
        cases: PathBuf,
        /// One item per session (its turns in order) instead of one per turn.
        #[arg(long)]
        per_session: bool,
    },
}

#[derive(Debug, Args)]
pub struct CaptureArgs {
    /// Session files or folders (searched recursively); default: ~/.claude/projects (or
    /// $CLAUDE_CONFIG_DIR/projects) and ~/.codex/sessions (or $CODEX_HOME/sessions).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Say what would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Read every file again, even one unchanged since the last capture (after a change
    /// of the summariser, or of this recall's item rules).
    #[arg(long)]
    pub reread: bool,
    #[arg(long = SUMMARIZE_COMMAND.long(), value_name = "CMD", help = SUMMARIZE_COMMAND.help())]
    pub summarize_cmd: Option<String>,
    #[command(flatten)]
    pub redact: RedactArgs,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The cases, as JSON Lines; a first line {"items": "FILE"} says their ids are those
    /// of an import of FILE into an empty library, found in this one by their items.
    #[arg(value_name = "CASES", required_unless_present_any = ["longmemeval", "start_cost"])]
    pub cases: Option<PathBuf>,
    /// A LongMemEval file (longmemeval_s.json or longmemeval_m.json) instead of CASES:
    /// each question's haystack made a library of its own, its sessions ranked.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["cases", "libraries", "case_ids", "tags"])]
    pub longmemeval: Option<PathBuf>,
    /// Write every question's ranked ids (items, and sessions where the cases name
    /// them) to FILE, one JSON object a line.
    #[arg(long, value_name = "FILE")]
    pub rankings: Option<PathBuf>,
    /// Instead of cases: what the session start adds to an agent's context, a start in
    /// each project just after each of its items, against the project's history then.
    #[arg(long, conflicts_with_all = ["cases", "longmemeval", "rankings", "set", "libraries", "case_ids", "tags"])]
    pub start_cost: bool,
    #[arg(long = "set", value_name = "KEY=VALUES", help = crate::config::overlay::help())]
    pub set: Vec<String>,
    /// Another library to compare (e.g. built with another tokenizer); repeatable.
    #[arg(long = "library", value_name = "PATH")]
    pub libraries: Vec<PathBuf>,
    /// How many of the worst cases to list.
    #[arg(long, default_value_t = 10)]
    pub worst: usize,
    /// Only the cases whose id starts with PREFIX (repeatable, or PREFIX,PREFIX: any of
    /// them), e.g. --case-id conv-26/ for one conversation's questions.
    #[arg(long = "case-id", value_name = "PREFIX", value_delimiter = ',')]
    pub case_ids: Vec<String>,
    /// Only the cases with the tag TAG (repeatable, or TAG,TAG: any of them); with
    /// --case-id, a case must pass both.
    #[arg(long = "tag", value_name = "TAG", value_delimiter = ',')]
    pub tags: Vec<String>,
    #[command(flatten)]
    pub judge: JudgeArgs,
    #[command(flatten)]
    pub vectors: VectorArgs,
}

/// The judge's flags of `recall search` and `recall eval`.
#[derive(Debug, Clone, Default, Args)]
pub struct JudgeArgs {
    #[arg(long = JUDGE_COMMAND.long(), value_name = "CMD", help = JUDGE_COMMAND.help())]
    pub judge_cmd: Option<String>,
    /// No judge, even if the configuration names one: the literal answer.
    #[arg(long, conflicts_with = "judge_cmd")]
    pub no_judge: bool,
}

/// The embedder flag of `recall search`, `recall eval` and `recall embed`.
#[derive(Debug, Clone, Default, Args)]
pub struct EmbedderArgs {
    #[arg(long = EMBED_COMMAND.long(), value_name = "CMD", help = EMBED_COMMAND.help())]
    pub embed_cmd: Option<String>,
}

/// The vector flags of `recall search` and `recall eval`.
#[derive(Debug, Clone, Default, Args)]
pub struct VectorArgs {
    #[command(flatten)]
    pub embed: EmbedderArgs,
    /// Literal search only, even if the library has vectors and an embedder is set.
    #[arg(long, conflicts_with = "embed_cmd")]
    pub no_vectors: bool,
    #[arg(long = FUSION.long(), value_name = "NAME", help = FUSION.help())]
    pub fusion: Option<crate::config::Fusion>,
}

#[derive(Debug, Args)]
pub struct EmbedArgs {
    #[command(flatten)]
    pub embed: EmbedderArgs,
    /// Without an embedder: make the library's vector table for a model and its
    /// dimensions, so that `import` and `add` can store ready `embedding` fields.
    #[arg(long, value_name = "NAME", requires = "dimensions", conflicts_with_all = ["embed_cmd", "drop"])]
    pub model: Option<String>,
    /// With --model: how many numbers each vector has.
    #[arg(long, value_name = "N", requires = "model")]
    pub dimensions: Option<i64>,
    /// Embed every item again, not only those without a vector.
    #[arg(long, conflicts_with = "drop")]
    pub all: bool,
    /// Remove the vector table and its record: search goes back to literal only.
    #[arg(long)]
    pub drop: bool,
}

/// Which items a project filter lets through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Scope {
    /// The project's items and the global ones (visible in every project).
    #[default]
    Project,
    /// Every project: the project filter is dropped.
    All,
}

impl Scope {
    pub const NAMES: [&'static str; 2] = ["project", "all"];

    pub fn from_name(name: &str) -> Option<Scope> {
        match name {
            "project" => Some(Scope::Project),
            "all" => Some(Scope::All),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::All => "all",
        }
    }
}

/// `--kind`, repeatable: only items of these kinds.
#[derive(Debug, Args, Clone, Default)]
pub struct KindArgs {
    /// Only items of this kind (decision, bugfix, feature, discovery, gotcha, note, or
    /// one the configuration's [kinds] extra adds); repeatable: any of them.
    #[arg(long = "kind", value_name = "KIND")]
    pub kinds: Vec<String>,
}

/// `recall export`.
#[derive(Debug, Args, Clone, Default)]
pub struct ExportArgs {
    /// The JSON Lines file to write, or - for standard output. A file is written whole
    /// or not at all, and never over an existing one.
    #[arg(value_name = "FILE")]
    pub file: String,
    #[command(flatten)]
    pub filters: Filters,
    #[command(flatten)]
    pub kinds: KindArgs,
    /// Each item's transcript too.
    #[arg(long)]
    pub transcripts: bool,
    #[command(flatten)]
    pub redact: RedactArgs,
    #[command(flatten)]
    pub access: AccessArgs,
}

/// `--scope`: what a project filter means.
#[derive(Debug, Args, Clone, Default)]
pub struct ScopeArgs {
    /// project (default): a project filter keeps the project's items and the global
    /// ones; all: every project, as if no project were given.
    #[arg(long, value_enum, value_name = "SCOPE")]
    pub scope: Option<Scope>,
}

/// `timeline --around ID`: the items just before and after one item.
#[derive(Debug, Args, Clone, Default)]
pub struct AroundArgs {
    /// The items just before and after this item in time, oldest first, in its project
    /// (or its source, for an item without a project); the item itself is marked.
    #[arg(long, value_name = "ID",
        conflicts_with_all = ["project", "source", "since", "until", "limit"])]
    pub around: Option<i64>,
    /// With --around: how many items before it (default 3, at most 50).
    #[arg(long, value_name = "N", requires = "around")]
    pub before: Option<i64>,
    /// With --around: how many items after it (default 3, at most 50).
    #[arg(long, value_name = "N", requires = "around")]
    pub after: Option<i64>,
}

#[derive(Debug, Args, Clone, Default)]
pub struct Filters {
    /// Only this project.
    #[arg(long)]
    pub project: Option<String>,
    /// Only this source.
    #[arg(long)]
    pub source: Option<String>,
    /// Only items at or after this time (ISO-8601; a bare date is UTC).
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,
    /// Only items before this time.
    #[arg(long, value_name = "TIME")]
    pub until: Option<String>,
}

#[derive(Debug, Args, Clone, Default)]
pub struct Common {
    /// How many results (the default and maximum come from the configuration).
    #[arg(long)]
    pub limit: Option<i64>,
    /// Also tell which terms and filters ran, and why an answer is empty.
    #[arg(long)]
    pub explain: bool,
    /// Print, instead of the answer, the sqlite3 shell lines that give its rows again:
    /// the library opened read-only, the extension loaded, each parameter as bound, the
    /// query file of sql/ read (docs/queries.md#replaying-an-answer-in-the-shell).
    #[arg(long)]
    pub show_sql: bool,
    #[command(flatten)]
    pub access: AccessArgs,
}

#[derive(Debug, Args, Clone, Default)]
pub struct Recency {
    /// The reference time for recency (default: now).
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
}

mod settings_flags;
pub use settings_flags::{HookFlags, RelatedFlags, SearchFlags};

#[derive(Debug, Args, Default)]
pub struct SearchArgs {
    /// Free text: nothing in it acts as an FTS5 operator; "quoted phrases" stay phrases.
    /// `-` reads it from standard input (for a query longer than the argument limit).
    /// With `--file`, it may be left out.
    #[arg(required_unless_present = "file", default_value = "")]
    pub query: String,
    /// Only the items that edited or named this file, newest first: its path is read
    /// against the current folder and matched relative to its checkout's top folder, so
    /// that every clone of the repository matches (docs/cli.md#a-files-memory).
    #[arg(long, value_name = "PATH")]
    pub file: Option<String>,
    /// Leave out the items whose files changed after them, as seen from the current
    /// folder's checkout (docs/cli.md#still-true).
    #[arg(long)]
    pub fresh: bool,
    #[command(flatten)]
    pub filters: Filters,
    #[arg(long = DROP_STOPWORDS.long(), help = DROP_STOPWORDS.help())]
    pub literal: bool,
    /// The ranking settings' flags (`--pool`, `--weight`, …), made from the table.
    #[command(flatten)]
    pub settings: SearchFlags,
    #[command(flatten)]
    pub recency: Recency,
    #[command(flatten)]
    pub judge: JudgeArgs,
    #[command(flatten)]
    pub vectors: VectorArgs,
    #[command(flatten)]
    pub kinds: KindArgs,
    #[command(flatten)]
    pub scope: ScopeArgs,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args)]
pub struct LaterArgs {
    /// The item whose later history is wanted.
    pub id: i64,
    /// Subject words (default: the item's title).
    #[arg(long)]
    pub query: Option<String>,
    #[command(flatten)]
    pub kinds: KindArgs,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args)]
pub struct TimelineArgs {
    #[command(flatten)]
    pub filters: Filters,
    #[command(flatten)]
    pub around: AroundArgs,
    #[command(flatten)]
    pub kinds: KindArgs,
    #[command(flatten)]
    pub scope: ScopeArgs,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args)]
pub struct RelatedArgs {
    /// The first prompt of a session; `-` reads it from standard input.
    pub prompt: String,
    /// Only this project.
    #[arg(long)]
    pub project: Option<String>,
    #[command(flatten)]
    pub recency: Recency,
    /// The ranking settings' flags (`--weight`, `--rule`, …), made from the table.
    #[command(flatten)]
    pub settings: RelatedFlags,
    #[command(flatten)]
    pub kinds: KindArgs,
    #[command(flatten)]
    pub scope: ScopeArgs,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args, Clone, Default)]
pub struct AccessArgs {
    #[arg(long = ACCESS_ALLOW.long(), value_name = "GLOB", help = ACCESS_ALLOW.help(),
        value_parser = crate::access::parse_allow_flag)]
    pub allow: Vec<String>,
}

/// The switch of the writes of items that keeps secrets in (`[redact] enabled`).
#[derive(Debug, Args, Clone, Default)]
pub struct RedactArgs {
    #[arg(long = REDACT_ENABLED.long(), help = REDACT_ENABLED.help())]
    pub no_redact: bool,
}

impl RedactArgs {
    /// Whether secrets are taken out: the configuration's `[redact] enabled`, unless the
    /// flag says no.
    pub fn on(&self, configured: bool) -> bool {
        configured && !self.no_redact
    }
}

#[derive(Debug, Args)]
pub struct McpArgs {
    /// Also offer the add and forget tools, which write to the library.
    #[arg(long)]
    pub allow_writes: bool,
    // Sources every tool may read: the server's, never the client's to widen.
    #[command(flatten)]
    pub access: AccessArgs,
    #[command(flatten)]
    pub http: HttpArgs,
}

/// `recall mcp --http`: MCP's streamable HTTP transport in place of standard input and
/// output (docs/team.md). Tokens come from files or the environment, never from here.
#[derive(Debug, Args, Default)]
pub struct HttpArgs {
    /// Serve over HTTP at this address (PORT, HOST:PORT; port 0 picks a free one) at the
    /// path /mcp, for agents on other machines; loopback unless --public.
    #[arg(long = "http", value_name = "ADDR")]
    pub addr: Option<String>,
    /// Let --http bind an address other than loopback (127.0.0.1, ::1): put TLS in front
    /// with a reverse proxy (docs/team.md).
    #[arg(long, requires = "addr")]
    pub public: bool,
    /// A file holding the bearer token of the token named "default" (its first line); or
    /// set RECALL_MCP_TOKEN. More tokens: [tokens.NAME] in the configuration.
    #[arg(long, value_name = "PATH", requires = "addr")]
    pub token_file: Option<PathBuf>,
    /// Also write each call's arguments and error message in its log line (by default
    /// the log never holds what a client searched for).
    #[arg(long, requires = "addr")]
    pub log_arguments: bool,
    /// A web page's origin (SCHEME://HOST[:PORT]) whose requests are answered, repeatable;
    /// a request with another `Origin` header is refused (docs/team.md).
    #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "addr")]
    pub allow_origins: Vec<String>,
}

#[derive(Debug, Args)]
pub struct SqlArgs {
    /// The SQL: one statement or several (the rows of the last one that returns rows are
    /// printed). Or give --file.
    #[arg(value_name = "SQL")]
    pub sql: Option<String>,
    /// Read the SQL from a file, such as sql/search.sql.
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
    /// A named parameter, repeatable: `-p query='deploy failed'` binds :query. A value that
    /// reads as a number is bound as one.
    #[arg(short = 'p', long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Allow statements that write (all of them run in one transaction).
    #[arg(long)]
    pub write: bool,
    /// Print CSV (a header, then one line per row) instead of a table.
    #[arg(long)]
    pub csv: bool,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// `-` reads the item from standard input: one JSON object in the import format.
    /// Without it the item comes from the flags.
    #[arg(value_name = "-")]
    pub input: Option<String>,
    /// Where the item comes from (required), e.g. agent-claude.
    #[arg(long)]
    pub source: Option<String>,
    /// The project.
    #[arg(long)]
    pub project: Option<String>,
    /// The title (required).
    #[arg(long)]
    pub title: Option<String>,
    /// The summary.
    #[arg(long)]
    pub summary: Option<String>,
    /// A question the item answers; repeatable (one line each).
    #[arg(long = "questions", value_name = "TEXT")]
    pub questions: Vec<String>,
    /// A fact, error message or file name; repeatable (one line each).
    #[arg(long = "atoms", value_name = "TEXT")]
    pub atoms: Vec<String>,
    /// When it happened (ISO-8601, or whole Unix seconds; default: now).
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
    /// A file holding the transcript (stored, never indexed); - reads standard input.
    #[arg(long, value_name = "PATH")]
    pub transcript_file: Option<String>,
    /// What kind of memory it is: decision, bugfix, feature, discovery, gotcha, note (or
    /// one the configuration's [kinds] extra adds).
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,
    /// Visible in every project: a project-filtered search, timeline or related list
    /// includes it.
    #[arg(long)]
    pub global: bool,
    /// Add nothing when an identical item is stored (print its id instead); by default
    /// it is added again, with a warning.
    #[arg(long)]
    pub skip_duplicates: bool,
    #[command(flatten)]
    pub redact: RedactArgs,
    // An id may replace only an item these let the caller read.
    #[command(flatten)]
    pub access: AccessArgs,
}

/// `promote` and `demote`: items by id.
#[derive(Debug, Args)]
pub struct MarkArgs {
    /// The items' ids.
    #[arg(value_name = "ID", required = true, num_args = 1..)]
    pub ids: Vec<i64>,
    // Only items the caller may read are marked; another is treated as a missing one.
    #[command(flatten)]
    pub access: AccessArgs,
}

#[derive(Debug, Args)]
pub struct KindSetArgs {
    /// The kind (decision, bugfix, feature, discovery, gotcha, note, or one of the
    /// configuration's [kinds] extra), then the items' ids; with --none, only the ids.
    #[arg(value_name = "KIND ID", required = true, num_args = 1..)]
    pub words: Vec<String>,
    /// Take the items' kind away instead of setting one.
    #[arg(long)]
    pub none: bool,
    // Only items the caller may read are set; another is treated as a missing one.
    #[command(flatten)]
    pub access: AccessArgs,
}

#[derive(Debug, Args)]
pub struct UiArgs {
    /// The port to listen on, on 127.0.0.1 (0, the default, picks a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Listen on every address (0.0.0.0), not loopback only, and answer any Host name:
    /// other machines can reach the page, guarded by the token of its URL alone (put TLS
    /// in front, docs/ui.md).
    #[arg(long)]
    pub public: bool,
    // The sources the page may read and change: the server's, as for every command.
    #[command(flatten)]
    pub access: AccessArgs,
}

#[derive(Debug, Args)]
pub struct ForgetArgs {
    /// The ids of the items to forget.
    #[arg(value_name = "ID")]
    pub ids: Vec<i64>,
    /// Only items of this source (exact name).
    #[arg(long)]
    pub source: Option<String>,
    /// Only items of this project (exact name).
    #[arg(long)]
    pub project: Option<String>,
    /// Only items that happened before this time (ISO-8601; a bare date is UTC).
    #[arg(long, value_name = "TIME")]
    pub before: Option<String>,
    /// List what would be forgotten, and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Finish an earlier forget that could not wipe the file (another process held
    /// its log, or the disk was full): rewrite the file and empty its log, forgetting
    /// nothing new.
    #[arg(long, conflicts_with_all = ["ids", "source", "project", "before", "dry_run"])]
    pub finish: bool,
    // Only items of the sources the caller may read are forgotten; an id of another
    // source is treated as a missing one.
    #[command(flatten)]
    pub access: AccessArgs,
}

/// `recall setup [AGENT]` (docs/cli.md#setting-up-an-agent).
#[derive(Debug, Args)]
pub struct SetupArgs {
    /// The agent to wire: claude-code or codex. Without it, what is installed and wired.
    #[arg(value_enum, value_name = "AGENT")]
    pub agent: Option<crate::agents::Agent>,
    /// The current repository's own files (.claude/, .mcp.json, .codex/) instead of the
    /// user's.
    #[arg(long)]
    pub project: bool,
    /// Print each file's change as a unified diff, and write nothing.
    #[arg(long, requires = "agent")]
    pub dry_run: bool,
    /// Take out what setup added (recall's hooks and MCP server), and nothing else.
    #[arg(long, requires = "agent")]
    pub remove: bool,
}

#[derive(Debug, Args)]
pub struct HookArgs {
    /// Only items of this project (at a prompt; at session start, the project of the
    /// session's working folder).
    #[arg(long)]
    pub project: Option<String>,
    #[arg(long = HOOK_EVERY_PROMPT.long(), help = HOOK_EVERY_PROMPT.help())]
    pub every_prompt: bool,
    /// The flags of `related`'s rule, made from the table.
    #[command(flatten)]
    pub settings: HookFlags,
    #[command(flatten)]
    pub access: AccessArgs,
}

/// The global options that take a value, as `--long` names, read from `Cli`'s own
/// definition: what a reader of a recall command line skips, with its value, to find the
/// subcommand, and what a recall started by recall is given again.
pub fn global_value_options() -> Vec<String> {
    use clap::CommandFactory;
    Cli::command()
        .get_arguments()
        .filter(|a| a.is_global_set() && a.get_action().takes_values())
        .filter_map(|a| a.get_long().map(|long| format!("--{long}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::any::TypeId;

    use clap::{Arg, Command, CommandFactory};

    use super::*;
    use crate::config::setting::Range;
    use crate::config::table::SETTINGS;
    use crate::config::RelatedRule;

    /// Every argument of every command, with the command's name.
    fn arguments(command: &Command, path: &str, out: &mut Vec<(String, Arg)>) {
        for arg in command.get_arguments() {
            out.push((path.to_string(), arg.clone()));
        }
        for sub in command.get_subcommands() {
            arguments(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }

    /// A flag and its setting's declaration agree: every declared flag is on the command
    /// line, each argument of that name has the declaration's help and reads the
    /// declaration's kind of value.
    #[test]
    fn flags_are_their_declarations() {
        let mut all = Vec::new();
        arguments(&Cli::command(), "recall", &mut all);
        for setting in SETTINGS.iter().filter(|s| s.flag.is_some()) {
            let flag = setting.flag_name();
            let carriers: Vec<&(String, Arg)> = all
                .iter()
                .filter(|(_, arg)| arg.get_long() == Some(setting.long()))
                .collect();
            assert!(
                !carriers.is_empty(),
                "{} declares {flag}, which no command has",
                setting.key
            );
            let kind = match &setting.range {
                Range::Number(bound) if bound.integer => TypeId::of::<i64>(),
                Range::Number(_) => TypeId::of::<f64>(),
                Range::Bool => TypeId::of::<bool>(),
                Range::Rule => TypeId::of::<RelatedRule>(),
                Range::Fusion => TypeId::of::<crate::config::Fusion>(),
                Range::Tokenizer
                | Range::Command(_)
                | Range::Globs
                | Range::Source
                | Range::Kinds
                | Range::Events => TypeId::of::<String>(),
            };
            for (command, arg) in carriers {
                assert_eq!(
                    arg.get_help().map(ToString::to_string),
                    Some(setting.help()),
                    "{command} {flag}: the help is not {}'s",
                    setting.key
                );
                assert!(
                    arg.get_value_parser().type_id() == kind,
                    "{command} {flag} reads another kind of value than {} ({:?})",
                    setting.key,
                    setting.range
                );
            }
        }
    }
}
