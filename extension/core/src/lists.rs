//! Lists of rowids, as `sql/related.sql` makes them of the items holding each word.

const SHAPE: &str = "lists must be a JSON array of JSON arrays of rowids (integers)";

/// The rowids in every one of `lists` (a JSON array of JSON arrays of rowids), ascending,
/// as a JSON array: the items holding every word of a set, from the words' lists. No
/// list at all: none.
pub fn in_every(lists: &str) -> Result<String, String> {
    let mut lists: Vec<Vec<i64>> =
        serde_json::from_str(lists).map_err(|e| format!("{SHAPE}: {e}"))?;
    // The shortest first: the others are only looked up.
    lists.sort_by_key(Vec::len);
    let Some((first, others)) = lists.split_first_mut() else {
        return Ok("[]".into());
    };
    first.sort_unstable();
    first.dedup();
    for other in others.iter_mut() {
        keep_in(first, other);
    }
    serde_json::to_string(first).map_err(|e| e.to_string())
}

/// Keeps of `ids` those `other` holds (`other` is sorted, for looking them up).
pub fn keep_in(ids: &mut Vec<i64>, other: &mut [i64]) {
    other.sort_unstable();
    ids.retain(|id| other.binary_search(id).is_ok());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rowids_of_every_list() {
        assert_eq!(
            in_every("[[5, 1, 3, 3], [3, 9, 5, 1], [1, 5, 7, 3]]").unwrap(),
            "[1,3,5]"
        );
        assert_eq!(in_every("[[4, 2]]").unwrap(), "[2,4]");
        assert_eq!(in_every("[[1, 2], []]").unwrap(), "[]");
        assert_eq!(in_every("[]").unwrap(), "[]");
        // By hand, over lists of the multiples of 2 to 6 below 200: those of 60.
        let lists: Vec<Vec<i64>> = (2..=6)
            .map(|k| (0..200).filter(|n| n % k == 0).rev().collect())
            .collect();
        let got: Vec<i64> =
            serde_json::from_str(&in_every(&serde_json::to_string(&lists).unwrap()).unwrap())
                .unwrap();
        assert_eq!(got, [0, 60, 120, 180]);
        for bad in ["{}", "[1]", "[[1.5]]", "[[\"1\"]]", "nope"] {
            assert!(in_every(bad).unwrap_err().starts_with(SHAPE), "{bad}");
        }
    }
}
