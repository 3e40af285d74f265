//! The vector channel of a search: the query's vector from the embedder, the nearest
//! items from `sql/nearest.sql` (with the search's filters), handed to `sql/search.sql`
//! as `:nearest` (ids and distances) for the fusion. When the channel cannot run (off, no vectors, no
//! embedder, an embedder that failed) the search is the literal one and `--explain` says
//! why; a library whose vectors are of another model than the embedder's is refused.
use std::time::Instant;

use serde_json::{json, Value as Json};

use crate::error::{err, Result};
use crate::library::sql_file::{self, int, queries, real, text, Params};
use crate::library::Library;
use crate::settings::Vectors as Settings;
use crate::vectors::embedder::{self, Embedder, Failure};
use crate::vectors::{store, NO_EMBEDDER};

/// An item of the vector list: its id and its cosine distance from the query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Near {
    pub id: i64,
    pub distance: f64,
}

/// What the channel did for one search.
#[derive(Debug, Clone)]
pub enum Channel {
    /// Literal search, and why (None: the library has no vectors, nothing to say).
    Off(Option<String>),
    /// Literal search because the embedder failed on the query, and how.
    Failed(String),
    On {
        model: String,
        /// The items nearest the query, nearest first.
        nearest: Vec<Near>,
        embed_ms: u128,
    },
}

impl Channel {
    /// How the embedder failed, when it did.
    pub fn failure(&self) -> Option<&str> {
        match self {
            Channel::Failed(why) => Some(why),
            _ => None,
        }
    }

    /// `search.sql`'s parameters for the fusion (none when off: the literal search).
    pub fn params(&self, v: &Settings) -> Params {
        match self {
            Channel::Off(_) | Channel::Failed(_) => Vec::new(),
            Channel::On { nearest, .. } => {
                let list: Vec<Json> = nearest
                    .iter()
                    .map(|n| json!({"id": n.id, "distance": n.distance}))
                    .collect();
                vec![
                    (":nearest", text(Some(&Json::from(list).to_string()))),
                    (":fusion", text(Some(v.config.fusion.name()))),
                    (":vector_share", real(Some(v.config.vector_share))),
                    (":rrf_k", real(Some(v.config.rrf_k))),
                    (":literal_weight", real(Some(v.config.literal_weight))),
                    (":vector_weight", real(Some(v.config.vector_weight))),
                ]
            }
        }
    }

    /// What `--explain` shows of the channel.
    pub fn shown(&self, v: &Settings) -> Json {
        match self {
            Channel::Off(why) => json!({"on": false, "reason": why}),
            Channel::Failed(why) => json!({"on": false, "reason": why}),
            Channel::On {
                model,
                nearest,
                embed_ms,
            } => json!({
                "on": true, "model": model, "nearest": nearest.len(), "embed_ms": embed_ms,
                "fusion": v.config.fusion.name(), "vector_share": v.config.vector_share, "rrf_k": v.config.rrf_k, "literal_weight": v.config.literal_weight,
                "vector_weight": v.config.vector_weight,
            }),
        }
    }

    pub fn is_on(&self) -> bool {
        matches!(self, Channel::On { .. })
    }
}

/// Runs the channel for `query` with the search's filter parameters and pool.
pub fn run(
    lib: &Library,
    v: &Settings,
    query: &str,
    filters: &Params,
    pool: i64,
) -> Result<Channel> {
    if !store::exists(&lib.conn)? {
        if v.required {
            return Err(err!(
                "--set vectors=on: {} has no vectors: give it some with `recall embed`",
                lib.path.display()
            ));
        }
        return Ok(Channel::Off(None));
    }
    // Off before the record is read: `--no-vectors` works whatever state it is in.
    if !v.on {
        return Ok(Channel::Off(Some("turned off (--no-vectors)".into())));
    }
    let Some(command) = v.config.command.as_deref() else {
        return Ok(Channel::Off(Some(NO_EMBEDDER.into())));
    };
    let Some(store) = store::read(&lib.conn)? else {
        return Ok(Channel::Off(None));
    };
    if query.trim().is_empty() {
        return Ok(Channel::Off(Some("the query is empty".into())));
    }
    let started = Instant::now();
    let embedded = Embedder::start(command, v.config.timeout_ms).and_then(|mut e| {
        match e.embed(&[query.to_string()]) {
            Ok(got) => {
                e.done();
                Ok(got)
            }
            // It can embed other queries: kept for them.
            Err(Failure::Refused(why)) => {
                e.done();
                Err(why)
            }
            Err(Failure::Broken(why)) => Err(why),
        }
    });
    let embedded = match embedded {
        Ok(e) => e,
        Err(why) => return Ok(Channel::Failed(format!("{why}; the literal answer"))),
    };
    let embed_ms = started.elapsed().as_millis();
    let Some(vector) = embedded.vectors.first() else {
        return Ok(Channel::Failed("the embedder gave no vector".into()));
    };
    store.check(&embedded.model, vector.len(), "the embedder")?;
    Ok(Channel::On {
        nearest: nearest(lib, &embedder::to_json(vector), filters, pool)?,
        model: embedded.model,
        embed_ms,
    })
}

/// The `k` items nearest a vector (JSON, as `sql/nearest.sql` takes it) that pass the
/// search's filters, nearest first.
pub fn nearest(lib: &Library, vector: &str, filters: &Params, k: i64) -> Result<Vec<Near>> {
    let mut params = filters.clone();
    params.extend([(":query_vector", text(Some(vector))), (":k", int(Some(k)))]);
    let rows = sql_file::read(&lib.conn, queries::NEAREST, &params, |c| {
        Ok(c.int("id")?.zip(c.real("distance")?))
    })?;
    Ok(rows
        .into_iter()
        .flatten()
        .map(|(id, distance)| Near { id, distance })
        .collect())
}
