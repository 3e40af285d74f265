//! The plural rule: one spelling for a word and its plural, applied to documents and
//! queries alike, so that each finds the other (docs/tokenizer.md lists it in prose).
//!
//! The rule maps *both* forms onto a shared key rather than turning plurals into
//! singulars: `cache` and `caches` both become `cach`, `cookie` and `cookies` both
//! `cooky`. A key is never shown (highlight marks the original text); it only has to be
//! the same for the two forms and differ from the keys of other words. So every step is
//! checked against that: no step may send a common word onto another (`news` is not
//! `new`, `lose` is not the Spanish `los`).

/// Plurals no suffix rule reaches, and `ids`/`apis`, too short or shaped like `-is`.
fn irregular(word: &str) -> Option<&'static str> {
    Some(match word {
        "analyses" => "analysis",
        "apis" => "api",
        "appendices" => "appendix",
        "children" => "child",
        "crises" => "crisis",
        "criteria" => "criterion",
        "diagnoses" => "diagnosis",
        "hypotheses" => "hypothesis",
        "ids" => "id",
        "indices" => "index",
        "matrices" => "matrix",
        "theses" => "thesis",
        "vertices" => "vertex",
        _ => return None,
    })
}

/// Singular words that end in `s` like a plural: dropping the `s` would send them onto
/// another word (`news` onto `new`, `lens` onto `len`) or away from their own plural
/// (`aliases` has to meet `alias`, not `alia`).
const NOT_PLURAL: &[&str] = &[
    "alias", "atlas", "bias", "canvas", "gas", "lens", "news", "whereas",
];

/// Spanish plurals in `-es` after a consonant, by the suffixes no English word ends in
/// (`migraciones`, `ciudades`, `servidores`, `errores`). The other `-es` plurals of
/// Spanish (`papeles`, `redes`) are left apart: English `files`, `codes`, `lines` end the
/// same way and have singulars in `-e`.
const SPANISH: &[(&str, &str)] = &[
    ("iones", "ion"),
    ("dades", "dad"),
    ("dores", "dor"),
    ("rores", "ror"),
];

/// Words of at most this many letters are left as they are (`bus`, `gas`, `its`, `was`,
/// `has`, `yes`), except the few of `irregular`.
const SHORT: usize = 3;

/// Rewrites a folded word of the letters a to z in place to the key it shares with its
/// singular or plural. Anything else (digits, letters beyond a to z) is left alone by
/// the caller.
pub(super) fn singular(word: &mut String) {
    debug_assert!(word.bytes().all(|b| b.is_ascii_lowercase()));
    if let Some(single) = irregular(word) {
        word.clear();
        word.push_str(single);
        return;
    }
    if word.len() <= SHORT || NOT_PLURAL.contains(&word.as_str()) {
        return;
    }
    for (plural, single) in SPANISH {
        if word.len() > plural.len() && word.ends_with(plural) {
            word.truncate(word.len() - plural.len());
            word.push_str(single);
            return;
        }
    }
    // -ss, -us and -is end singulars: class, status, analysis, this.
    let keeps_s = ["ss", "us", "is"].iter().any(|end| word.ends_with(end));
    if word.ends_with('s') && !keeps_s {
        word.pop();
    }
    meet_singular(word);
}

/// The spellings on which a plural without its `s` and its singular differ, brought
/// together: `-ie` and `-y` (`queries`, `query`; `cookies`, `cookie`), and the `e` of
/// `-es` after a sibilant (`boxes`, `box`; `matches`, `match`; `classes`, `class`), which
/// singulars that end in it lose too (`cache` and `caches`, `size` and `sizes`).
fn meet_singular(word: &mut String) {
    if word.len() > SHORT && word.ends_with("ie") {
        word.truncate(word.len() - 2);
        word.push('y');
        return;
    }
    let Some(stem) = word.strip_suffix('e') else {
        return;
    };
    if stem.len() < SHORT {
        return;
    }
    let sibilant = ["x", "z", "ch", "sh"].iter().any(|end| stem.ends_with(end));
    // After an s only where the stem is a singular in s (classes, statuses, buses,
    // aliases): the e of `database`, `case`, `phase` or `lose` stays, since their
    // stems would otherwise meet other words (`lose` the Spanish `los`).
    let singular_in_s =
        ["ss", "us", "is"].iter().any(|end| stem.ends_with(end)) || NOT_PLURAL.contains(&stem);
    if sibilant || singular_in_s {
        word.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::singular;

    fn key(word: &str) -> String {
        let mut w = word.to_string();
        singular(&mut w);
        w
    }

    #[test]
    fn plural_and_singular_meet() {
        for (plural, single) in [
            ("migrations", "migration"),
            ("queries", "query"),
            ("boxes", "box"),
            ("matches", "match"),
            ("branches", "branch"),
            ("crashes", "crash"),
            ("fixes", "fix"),
            ("indexes", "index"),
            ("buzzes", "buzz"),
            ("classes", "class"),
            ("processes", "process"),
            ("addresses", "address"),
            ("statuses", "status"),
            ("buses", "bus"),
            ("gases", "gas"),
            ("aliases", "alias"),
            ("lenses", "lens"),
            ("caches", "cache"),
            ("sizes", "size"),
            ("databases", "database"),
            ("cases", "case"),
            ("uses", "use"),
            ("files", "file"),
            ("houses", "house"),
            ("cookies", "cookie"),
            ("movies", "movie"),
            ("entries", "entry"),
            ("dependencies", "dependency"),
            ("tries", "try"),
            ("flies", "fly"),
            ("ties", "tie"),
            ("keys", "key"),
            ("days", "day"),
            ("tests", "test"),
            ("errors", "error"),
            ("photos", "photo"),
            ("ideas", "idea"),
            ("indices", "index"),
            ("vertices", "vertex"),
            ("matrices", "matrix"),
            ("analyses", "analysis"),
            ("children", "child"),
            ("ids", "id"),
            ("apis", "api"),
            // Spanish
            ("migraciones", "migracion"),
            ("versiones", "version"),
            ("ciudades", "ciudad"),
            ("servidores", "servidor"),
            ("errores", "error"),
            ("pruebas", "prueba"),
            ("tablas", "tabla"),
            ("usuarios", "usuario"),
            ("clientes", "cliente"),
            ("paises", "pais"),
        ] {
            assert_eq!(key(plural), key(single), "{plural} / {single}");
        }
    }

    #[test]
    fn singulars_in_s_and_short_words_stay() {
        for word in [
            "status", "class", "analysis", "bus", "gas", "this", "was", "has", "its", "yes",
            "news", "lens", "alias", "canvas", "bias", "whereas", "process", "address", "virus",
            "focus", "previous", "basis", "redis", "axis",
        ] {
            assert_eq!(key(word), word);
        }
    }

    #[test]
    fn keys_of_common_words_stay_apart() {
        for (a, b) in [
            ("news", "new"),
            ("lens", "len"),
            ("lose", "los"),
            ("pose", "pos"),
            ("case", "cas"),
            ("note", "not"),
            ("mode", "mod"),
            ("plane", "plan"),
            ("guide", "guid"),
            ("status", "statu"),
            ("this", "thi"),
        ] {
            assert_ne!(key(a), key(b), "{a} / {b}");
        }
    }

    #[test]
    fn keys_are_keys_of_themselves() {
        // A key typed as a query finds what it came from.
        for word in [
            "migrations",
            "queries",
            "boxes",
            "classes",
            "statuses",
            "caches",
            "cookies",
            "houses",
            "phases",
            "migraciones",
            "analyses",
            "aliases",
            "tries",
            "sizes",
        ] {
            let once = key(word);
            assert_eq!(key(&once), once, "{word}");
        }
    }
}
