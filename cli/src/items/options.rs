//! How a route writes items, decided once per route from its flags and the configuration
//! and handed whole to the writer (`ItemWriter::new`), so that no route passes the writer
//! a part of it and forgets another: the redaction switch, the access globs (and with
//! them the rule that an item is written only to a source they allow), the kinds an item
//! may have, and what becomes of a duplicate.

/// What a write route is bound by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOptions {
    /// Whether secrets are taken out of an item before anything sees it (`--no-redact`,
    /// `[redact] enabled`): the writer's `prepare` does it.
    pub redact: bool,
    /// The sources the caller may read (`Globals::allow`: `--allow`, else `[access]
    /// allow`; None: every source). An item is written only to one of them, and an item
    /// with an id replaces only an item of one of them: the writer refuses anything else.
    pub allow: Option<Vec<String>>,
    /// The kinds an item may have (`item::known_kinds`: the built-in ones and `[kinds]
    /// extra`).
    pub kinds: Vec<String>,
    /// What `ItemWriter::store` does with an item identical to a stored one.
    pub duplicates: Duplicates,
}

/// What becomes of an item identical to a stored one (same source, project, title,
/// summary, questions, atoms and time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Duplicates {
    /// Written again, and named (the default of `add`, `import`, the MCP `add` tool).
    AddAgain,
    /// Left out (`--skip-duplicates`).
    Skip,
}

impl Duplicates {
    /// `--skip-duplicates` as a value.
    pub fn skipped(skip: bool) -> Duplicates {
        if skip {
            Duplicates::Skip
        } else {
            Duplicates::AddAgain
        }
    }
}

impl WriteOptions {
    /// Capture's. It writes the items of its own sources only (`[capture] claude_source`
    /// and `codex_source`), and a segment replaces only the item its capture record says
    /// it made: the access globs, which bound what a caller (an agent, a hook) may read,
    /// do not bind it, and a library read under `[access] allow = ["agent-*"]` is still
    /// filled with the sessions whatever their sources are named. Nor does it look for
    /// duplicates: its records say which segment an item is.
    pub fn capture(redact: bool, kinds: Vec<String>) -> WriteOptions {
        WriteOptions {
            redact,
            allow: None,
            kinds,
            duplicates: Duplicates::AddAgain,
        }
    }
}
