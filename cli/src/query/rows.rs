//! The rows of each query's answer, as the query files return them. Each is read once
//! from its file's columns and serialized once, at the edge (`Answer::to_json`): a key
//! is left out only where its row has no such column.
use serde::Serialize;

use crate::library::sql_file::Cells;

type Read<T> = rusqlite::Result<T>;

/// An item as every listing shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Listed {
    pub id: i64,
    pub date: String,
    pub title: String,
    pub project: Option<String>,
    pub source: String,
    /// Its kind of memory (decision, bugfix, …), if it has one.
    pub kind: Option<String>,
    /// Visible in every project.
    pub global: bool,
    /// Its files that changed after it, as seen from the working folder
    /// (`query::changed`); left out of JSON where none did or none could be checked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed_since: Vec<String>,
}

impl Listed {
    pub fn read(c: &Cells) -> Read<Listed> {
        Ok(Listed {
            id: c.int("id")?.unwrap_or_default(),
            date: c.text("date")?.unwrap_or_default(),
            title: c.text("title")?.unwrap_or_default(),
            project: c.text("project")?,
            source: c.text("source")?.unwrap_or_default(),
            kind: c.text("kind")?,
            global: c.int("global")?.unwrap_or_default() == 1,
            changed_since: Vec::new(),
        })
    }
}

/// A result of `sql/timeline_around.sql`: an item near the one asked for, or that item
/// itself (`anchor`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AroundRow {
    #[serde(flatten)]
    pub item: Listed,
    pub anchor: bool,
}

impl AroundRow {
    pub fn read(c: &Cells) -> Read<AroundRow> {
        Ok(AroundRow {
            item: Listed::read(c)?,
            anchor: c.int("anchor")?.unwrap_or_default() == 1,
        })
    }
}

/// A result of `sql/search.sql`, and what the vector channel and the judge add to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchRow {
    #[serde(flatten)]
    pub item: Listed,
    pub score: Option<f64>,
    pub relevance: Option<f64>,
    /// How the search found it: none for an item of a small filtered set that only the
    /// judge brought in.
    #[serde(flatten)]
    pub found: Option<Found>,
    /// Its places in the fused lists, when they were read.
    #[serde(flatten)]
    pub fusion: Option<Fusion>,
    /// Whether the judge rated it, once a judge has run.
    #[serde(flatten)]
    pub judge: Option<Rating>,
    /// With `--explain`: the terms it holds, in which fields, and how they stand there
    /// (JSON: in `explain.matched`, so that the results are the same without it).
    #[serde(skip)]
    pub matched: Option<super::explain::Matched>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchMatch {
    Terms,
    /// There only as a neighbour of a hit.
    Context,
    /// There only as a near item of the vector channel.
    Vector,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Found {
    pub matched_by: SearchMatch,
    /// The hit that lent it a share of its relevance.
    pub context_of: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fusion {
    pub literal_rank: Option<i64>,
    pub vector_rank: Option<i64>,
    pub fused: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rating {
    pub judged: bool,
    pub probability: Option<f64>,
}

impl SearchRow {
    /// A row of `sql/search.sql`; with `fusion`, its vector columns too.
    pub fn read(c: &Cells, fusion: bool) -> Read<SearchRow> {
        let matched_by = match c.text("matched_by")?.as_deref() {
            Some("context") => SearchMatch::Context,
            Some("vector") => SearchMatch::Vector,
            _ => SearchMatch::Terms,
        };
        Ok(SearchRow {
            item: Listed::read(c)?,
            score: c.real("score")?,
            relevance: c.real("relevance")?,
            found: Some(Found {
                matched_by,
                context_of: c.int("context_of")?,
            }),
            fusion: match fusion {
                true => Some(Fusion {
                    literal_rank: c.int("literal_rank")?,
                    vector_rank: c.int("vector_rank")?,
                    fused: c.real("fused")?,
                }),
                false => None,
            },
            judge: None,
            matched: None,
        })
    }

    pub fn matched_by(&self) -> Option<SearchMatch> {
        self.found.as_ref().map(|f| f.matched_by)
    }
}

/// A result of `sql/later.sql`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaterRow {
    #[serde(flatten)]
    pub item: Listed,
    pub relevance: Option<f64>,
    pub matched_by: LaterMatch,
    /// With `--explain`: the subject's terms it holds, in which fields, and how (JSON: in
    /// `explain.matched`).
    #[serde(skip)]
    pub matched: Option<super::explain::Matched>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LaterMatch {
    Subject,
    /// Nothing on the subject: the project's (or source's) newer items.
    ProjectTimeline,
}

impl LaterMatch {
    pub fn name(self) -> &'static str {
        match self {
            LaterMatch::Subject => "subject",
            LaterMatch::ProjectTimeline => "project_timeline",
        }
    }
}

impl LaterRow {
    pub fn read(c: &Cells) -> Read<LaterRow> {
        Ok(LaterRow {
            item: Listed::read(c)?,
            relevance: c.real("relevance")?,
            matched_by: match c.text("matched_by")?.as_deref() {
                Some("project_timeline") => LaterMatch::ProjectTimeline,
                _ => LaterMatch::Subject,
            },
            matched: None,
        })
    }
}

/// A result of `sql/file_items.sql`: an item that edited or named a file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileRow {
    #[serde(flatten)]
    pub item: Listed,
    /// A line of its atoms is the file: the session wrote or edited it.
    pub edited: bool,
}

impl FileRow {
    pub fn read(c: &Cells) -> Read<FileRow> {
        Ok(FileRow {
            item: Listed::read(c)?,
            edited: c.int("edited")?.unwrap_or_default() == 1,
        })
    }
}

/// A result of `sql/related.sql`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RelatedRow {
    #[serde(flatten)]
    pub item: Listed,
    pub score: Option<f64>,
    /// How many words it shares with the prompt, their weights' sum, how many items hold
    /// them all and that number's weight.
    pub overlap: i64,
    pub weight: Option<f64>,
    pub joint_items: Option<i64>,
    pub joint_weight: Option<f64>,
}

impl RelatedRow {
    pub fn read(c: &Cells) -> Read<RelatedRow> {
        Ok(RelatedRow {
            item: Listed::read(c)?,
            score: c.real("score")?,
            overlap: c.int("overlap")?.unwrap_or_default(),
            weight: c.real("weight")?,
            joint_items: c.int("joint_items")?,
            joint_weight: c.real("joint_weight")?,
        })
    }
}

/// A candidate `related` judged, with what judged it (`--explain`).
#[derive(Debug, Clone, PartialEq)]
pub struct RelatedCandidate {
    pub row: RelatedRow,
    /// The shared words as a JSON array of `{word, items, weight}`.
    pub shared: String,
    /// `kept`, `over_limit`, or why it was dropped.
    pub verdict: String,
}

impl RelatedCandidate {
    pub fn read(c: &Cells) -> Read<RelatedCandidate> {
        Ok(RelatedCandidate {
            row: RelatedRow::read(c)?,
            shared: c.text("shared")?.unwrap_or_default(),
            verdict: c.text("verdict")?.unwrap_or_default(),
        })
    }
}

/// An item in full, as `sql/get.sql` returns it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemRow {
    pub id: i64,
    pub source: String,
    pub project: Option<String>,
    pub title: String,
    pub summary: String,
    pub questions: String,
    pub atoms: String,
    pub occurred_at: String,
    pub imported_at: String,
    pub kind: Option<String>,
    pub global: bool,
    /// Asked for or not, an item without a transcript shows none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    /// As `Listed::changed_since`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed_since: Vec<String>,
}

impl ItemRow {
    pub fn read(c: &Cells) -> Read<ItemRow> {
        let text = |column: &str| c.text(column).map(Option::unwrap_or_default);
        Ok(ItemRow {
            id: c.int("id")?.unwrap_or_default(),
            source: text("source")?,
            project: c.text("project")?,
            title: text("title")?,
            summary: text("summary")?,
            questions: text("questions")?,
            atoms: text("atoms")?,
            occurred_at: text("occurred_at")?,
            imported_at: text("imported_at")?,
            kind: c.text("kind")?,
            global: c.int("global")?.unwrap_or_default() == 1,
            transcript: c.text("transcript")?,
            changed_since: Vec::new(),
        })
    }
}
