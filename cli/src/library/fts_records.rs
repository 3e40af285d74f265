//! FTS5's records, as it writes them into the index's `_data` table. The one read here
//! is the totals record (`id = 1`): the number of rows, then the tokens of each column
//! (what bm25 averages over), each a SQLite varint.

/// SQLite's variable-length integer (as FTS5 writes it): 7 bits a byte, high bit set to
/// continue; a 9th byte carries 8 bits. None when the bytes end first.
pub fn varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v: u64 = 0;
    for i in 0..9 {
        let b = *bytes.get(*pos)?;
        *pos += 1;
        if i == 8 {
            return Some((v << 8) | u64::from(b));
        }
        v = (v << 7) | u64::from(b & 0x7f);
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    Some(v)
}

/// The totals record's numbers: rows, then tokens per column, as far as they can be read.
pub fn totals(block: &[u8]) -> Vec<u64> {
    let mut pos = 0;
    let mut out = Vec::new();
    while let Some(v) = varint(block, &mut pos) {
        out.push(v);
    }
    out
}

/// The number of rows the totals record counts (None when it cannot be read).
pub fn rows(block: &[u8]) -> Option<u64> {
    varint(block, &mut 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_as_sqlite_writes_them() {
        let mut pos = 0;
        // 300 = 0b10_0101100: two bytes, high group first.
        let bytes = [0x82, 0x2c, 0x05, 0x00];
        assert_eq!(varint(&bytes, &mut pos), Some(300));
        assert_eq!(varint(&bytes, &mut pos), Some(5));
        assert_eq!(varint(&bytes, &mut pos), Some(0));
        assert_eq!(varint(&bytes, &mut pos), None);
        let nine = [0xff; 9];
        assert_eq!(varint(&nine, &mut 0), Some(u64::MAX));
        assert_eq!(totals(&bytes), [300, 5, 0]);
    }

    #[test]
    fn the_row_count_is_the_first_number() {
        assert_eq!(rows(&[0x05]), Some(5));
        assert_eq!(rows(&[0x81, 0x00]), Some(128));
        assert_eq!(rows(&[0xbd, 0x84, 0x40]), Some(1_000_000));
        assert_eq!(rows(&[0x80]), None);
    }
}
