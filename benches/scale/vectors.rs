//! The vector channel in the scale benchmark: a copy of a library with a vector per
//! item, and the query vectors. Random unit vectors: sqlite-vec's scan costs the same
//! whatever the numbers, and no embedder's time belongs in the query's.
use std::path::Path;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use recall_cli::library::{self, Mode};
use recall_cli::vectors::store;

/// The dimensions of the benchmark's vectors (those of the example embedder).
pub const DIMENSIONS: usize = 256;

fn unit(rng: &mut StdRng) -> Vec<f32> {
    let v: Vec<f32> = (0..DIMENSIONS).map(|_| rng.random::<f32>() - 0.5).collect();
    let norm = v
        .iter()
        .map(|x| x * x)
        .sum::<f32>()
        .sqrt()
        .max(f32::MIN_POSITIVE);
    v.into_iter().map(|x| x / norm).collect()
}

/// Copies `from` to `to` with a vector for each of its items (once: kept for later
/// runs), and returns the megabytes the vectors add.
pub fn library_with_vectors(from: &Path, to: &Path, seed: u64) -> f64 {
    if !to.exists() {
        let partial = to.with_extension("partial");
        std::fs::copy(from, &partial).expect("copy the library");
        let mut lib = library::open(&partial, Mode::Write, None).expect("open the copy");
        let tx = lib.conn.transaction().expect("transaction");
        store::create(&tx, "random-unit", DIMENSIONS).expect("vector table");
        {
            let mut rng = StdRng::seed_from_u64(seed);
            let ids: Vec<i64> = tx
                .prepare("select id from items order by id")
                .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
                .expect("ids");
            let mut insert = tx
                .prepare(&format!(
                    "insert into {}(rowid, embedding, item_imported_at)
                     select id, ?2, imported_at from items where id = ?1",
                    store::TABLE
                ))
                .expect("insert");
            for id in ids {
                let bytes: Vec<u8> = unit(&mut rng)
                    .iter()
                    .flat_map(|x| x.to_le_bytes())
                    .collect();
                insert.execute((id, bytes)).expect("insert a vector");
            }
        }
        tx.commit().expect("commit");
        lib.conn.execute_batch("vacuum").expect("vacuum");
        drop(lib);
        std::fs::rename(&partial, to).expect("rename");
    }
    // Both vacuumed, so that only the vectors differ.
    let plain = to.with_extension("plain.db");
    let _ = std::fs::remove_file(&plain);
    let conn = rusqlite::Connection::open(from).expect("open the library");
    conn.execute("vacuum into ?1", [plain.to_string_lossy()])
        .expect("vacuum into");
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len() as f64).unwrap_or(0.0);
    let added = (size(to) - size(&plain)) / 1e6;
    let _ = std::fs::remove_file(&plain);
    added
}

/// Query vectors, as the JSON arrays `sql/nearest.sql` takes.
pub fn queries(count: usize, seed: u64) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count)
        .map(|_| serde_json::to_string(&unit(&mut rng)).unwrap_or_default())
        .collect()
}
