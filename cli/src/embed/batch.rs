//! One batch: its texts embedded (one by one where the embedder refuses them together)
//! and its vectors stored, each for its item as it was read.
use crate::error::{Context, Result};
use crate::vectors::embedder::{self, Embedder, Failure};
use crate::vectors::store::{self, TABLE};

/// An item to embed, as it was read: its text is its own and its neighbours' titles
/// (`sql/item_texts.sql`).
pub(super) struct Pending<'a> {
    pub(super) id: i64,
    pub(super) imported: &'a str,
    pub(super) context: &'a str,
    pub(super) text: String,
}

/// Stores a batch's vectors, each for its item as it was read: an item deleted, replaced
/// or given other neighbours meanwhile (by a `forget` or an `import` running beside this
/// command) gets none, and is embedded by the next run if it is still there. Returns how
/// many.
pub(super) fn store_batch(
    tx: &rusqlite::Transaction,
    stored: &[(&Pending, Vec<f32>)],
) -> Result<i64> {
    let doing = "storing vectors";
    let mut insert = tx
        .prepare_cached(&format!(
            "insert into {TABLE}(rowid, embedding, item_imported_at)
             select id, ?2, imported_at from items
             where id = ?1 and imported_at = ?3 and context = ?4"
        ))
        .context(doing)?;
    let mut record = tx
        .prepare_cached(&format!(
            "insert into {}(id, context) values (?1, ?2)",
            store::CONTEXTS
        ))
        .context(doing)?;
    // The caller made both tables in this transaction.
    let tables = store::Tables {
        vectors: true,
        contexts: true,
    };
    let mut written = 0;
    for (item, vector) in stored {
        store::remove(tx, &[item.id], tables).context(doing)?;
        let made = insert
            .execute((
                item.id,
                embedder::to_json(vector),
                item.imported,
                item.context,
            ))
            .context(doing)?;
        if made == 1 {
            record.execute((item.id, item.context)).context(doing)?;
        }
        written += made as i64;
    }
    Ok(written)
}

/// The vectors of a batch's texts, with the model that made them (None when it made
/// none). Texts the embedder refuses together are tried one by one, so that an item it
/// cannot embed (too long for its model, no words) costs only that item. An embedder
/// that breaks fails the batch.
pub(super) type BatchVectors = (Option<String>, Vec<std::result::Result<Vec<f32>, String>>);

pub(super) fn embed_batch(
    e: &mut Embedder,
    texts: &[String],
) -> std::result::Result<BatchVectors, String> {
    match e.embed(texts) {
        Ok(got) => Ok((Some(got.model), got.vectors.into_iter().map(Ok).collect())),
        Err(Failure::Broken(why)) => Err(why),
        Err(Failure::Refused(why)) if texts.len() == 1 => Ok((None, vec![Err(why)])),
        Err(Failure::Refused(_)) => {
            let mut model = None;
            let mut out = Vec::with_capacity(texts.len());
            for text in texts {
                match e.embed(std::slice::from_ref(text)) {
                    Ok(mut got) => {
                        model = Some(got.model);
                        out.push(
                            got.vectors
                                .pop()
                                .ok_or_else(|| "the embedder gave no vector".to_string()),
                        );
                    }
                    Err(Failure::Refused(why)) => out.push(Err(why)),
                    Err(Failure::Broken(why)) => return Err(why),
                }
            }
            Ok((model, out))
        }
    }
}
