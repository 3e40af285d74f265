//! A library that Litestream keeps current on another machine (`litestream restore -f`,
//! follow mode): Litestream applies the primary's transactions to the file and writes
//! the last one it applied to `LIBRARY-txid` beside it. Such a copy is read-only for
//! recall: a write here would be overwritten by the next transaction Litestream applies,
//! or leave the file unlike the primary's.
use std::path::Path;
use std::time::SystemTime;

use super::files::sidecar;

/// The file Litestream's follow mode writes beside the library.
pub const TXID_SUFFIX: &str = "-txid";

/// What Litestream says of a replica.
pub struct Replica {
    /// The last transaction applied (16 hex digits), when the file holds one.
    pub txid: Option<String>,
    /// When it was applied: the time the file was last written.
    pub applied: Option<SystemTime>,
}

/// The replica at `path`, if Litestream follows its primary into it.
pub fn of(path: &Path) -> Option<Replica> {
    let marker = sidecar(path, TXID_SUFFIX);
    let meta = std::fs::metadata(&marker).ok().filter(|m| m.is_file())?;
    let txid = std::fs::read(&marker)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(|text| text.trim().to_string())
        .filter(|t| t.len() == 16 && t.bytes().all(|b| b.is_ascii_hexdigit()));
    Some(Replica {
        txid,
        applied: meta.modified().ok(),
    })
}

impl Replica {
    /// One line: what the replica is, where it stands, and how far behind it may be.
    pub fn describe(&self, now: SystemTime) -> String {
        let at = match &self.txid {
            Some(txid) => format!("at transaction {txid}"),
            None => "at a transaction its -txid file does not say".to_string(),
        };
        let when = match self.applied {
            Some(applied) => {
                let ago = now.duration_since(applied).unwrap_or_default().as_secs();
                let time: chrono::DateTime<chrono::Utc> = applied.into();
                format!(
                    ", applied {} ({ago} s ago)",
                    time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
                )
            }
            None => String::new(),
        };
        format!(
            "a Litestream replica that `litestream restore -f` keeps current: read-only here \
             (write to its primary); {at}{when}; the primary's latest: `litestream ltx \
             REPLICA_URL`"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_txid_file_makes_a_replica() {
        let dir = std::env::temp_dir().join(format!("recall-replica-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lib = dir.join("memory.db");
        assert!(of(&lib).is_none());
        std::fs::write(sidecar(&lib, TXID_SUFFIX), "00000000000000a3\n").unwrap();
        let replica = of(&lib).unwrap();
        assert_eq!(replica.txid.as_deref(), Some("00000000000000a3"));
        let later = replica.applied.unwrap() + std::time::Duration::from_secs(42);
        let line = replica.describe(later);
        assert!(
            line.contains("at transaction 00000000000000a3, applied ")
                && line.contains("(42 s ago)"),
            "{line}"
        );
        std::fs::write(sidecar(&lib, TXID_SUFFIX), "garbage").unwrap();
        assert!(of(&lib).unwrap().describe(later).contains("does not say"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
