//! Secrets of well-known shapes, found in free text and replaced by [`MARK`] before an
//! item is stored. The rules run in order, most specific first, so that a token inside
//! an assignment (`GITHUB_TOKEN=ghp_…`) is counted under its own kind; the generic
//! assignment rule comes last and skips what an earlier rule already replaced. Where a
//! secret has a name or a header around it, only the secret goes: `token=[redacted]`,
//! `Authorization: Bearer [redacted]`, `postgres://app:[redacted]@db`.
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;

/// What a secret becomes.
pub const MARK: &str = "[redacted]";

/// How many secrets of each kind were replaced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts(BTreeMap<&'static str, usize>);

impl Counts {
    pub fn total(&self) -> usize {
        self.0.values().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, kind: &str) -> usize {
        self.0.get(kind).copied().unwrap_or(0)
    }

    fn add(&mut self, kind: &'static str, n: usize) {
        *self.0.entry(kind).or_default() += n;
    }

    pub fn merge(&mut self, other: &Counts) {
        for (kind, n) in &other.0 {
            self.add(kind, *n);
        }
    }

    /// Kind and count, in the order of the kinds' names.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, usize)> + '_ {
        self.0.iter().map(|(k, n)| (*k, *n))
    }

    /// `3 secrets: 2 github-token, 1 aws-access-key-id`: the most frequent kind first.
    pub fn summary(&self) -> String {
        let mut kinds: Vec<_> = self.iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let total = self.total();
        let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        let noun = if total == 1 { "secret" } else { "secrets" };
        format!("{total} {noun}: {}", list.join(", "))
    }
}

/// Every kind, in the order the rules run.
pub const KINDS: &[&str] = &[
    "private-key",
    "jwt",
    "anthropic-key",
    "openai-key",
    "github-token",
    "gitlab-token",
    "slack-token",
    "stripe-key",
    "npm-token",
    "pypi-token",
    "huggingface-token",
    "google-api-key",
    "aws-access-key-id",
    "aws-secret-access-key",
    "authorization-header",
    "connection-string",
    "url-password",
    "assignment",
];

/// One shape: the secret is the group named `s` (or `s2`, `s3` in other alternatives);
/// the rest of the match is context that stays.
struct Rule {
    kind: &'static str,
    re: Regex,
    /// Whether a found value is a secret, given the text that follows it.
    accept: fn(&str, &str) -> bool,
}

fn any(_: &str, _: &str) -> bool {
    true
}

/// Whatever a secret of the rule may be made of, up to the first of these characters.
const VALUE_END: &str = r#"\s"'`,;&|<>(){}\[\]"#;

fn rule(kind: &'static str, pattern: &str, accept: fn(&str, &str) -> bool) -> Rule {
    Rule {
        kind,
        // The patterns are constants of this file, compiled by the tests below. Word
        // boundaries are ASCII ones: a Unicode boundary makes the regex engine fall back
        // to its slowest search on any text that is not ASCII, and the secrets' shapes
        // are ASCII.
        re: Regex::new(&pattern.replace(r"\b", r"(?-u:\b)"))
            .unwrap_or_else(|e| panic!("redact rule {kind}: {e}")),
        accept,
    }
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let key_block = r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----";
    let assign_key = r"[A-Za-z0-9_.\-]*(?:password|passwd|passphrase|secret|secret[_\-]?key|token|api[_\-]?key|apikey|access[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?)";
    vec![
        // A block cut off before its end line (a truncated paste) goes as far as its
        // base64 runs, escaped line breaks included.
        rule(
            "private-key",
            &format!(
                r"(?P<s>{key_block}(?s:.*?)-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|{key_block}[A-Za-z0-9+/=\s\\:\-]*)"
            ),
            any,
        ),
        rule(
            "jwt",
            r"\b(?P<s>eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})",
            any,
        ),
        rule("anthropic-key", r"\b(?P<s>sk-ant-[A-Za-z0-9_\-]{32,})", any),
        rule(
            "openai-key",
            r"\b(?P<s>sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}|[A-Za-z0-9]{32,}))",
            any,
        ),
        rule(
            "github-token",
            r"\b(?P<s>(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{50,})",
            any,
        ),
        rule(
            "gitlab-token",
            r"\b(?P<s>gl(?:pat|dt|rt|ptt|soat|cbt|ft|imt|agent|oas)-[A-Za-z0-9_\-]{20,})",
            any,
        ),
        rule(
            "slack-token",
            r"\b(?P<s>xox[abposre]-[A-Za-z0-9\-]{10,}|xapp-[0-9]-[A-Za-z0-9\-]{10,}|https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9_/]{20,})",
            any,
        ),
        rule(
            "stripe-key",
            r"\b(?P<s>(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}|whsec_[A-Za-z0-9]{24,})",
            any,
        ),
        rule("npm-token", r"\b(?P<s>npm_[A-Za-z0-9]{36})\b", any),
        rule("pypi-token", r"\b(?P<s>pypi-AgE[A-Za-z0-9_\-]{50,})", any),
        rule("huggingface-token", r"\b(?P<s>hf_[A-Za-z0-9]{30,})\b", any),
        rule("google-api-key", r"\b(?P<s>AIza[0-9A-Za-z_\-]{35})", any),
        rule(
            "aws-access-key-id",
            r"\b(?P<s>(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})\b",
            any,
        ),
        // A secret key is 40 characters of base64 that only its name tells apart from a
        // hash: it is taken where a name says what it is.
        rule(
            "aws-secret-access-key",
            r#"(?i:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)\\?["']?\s*(?::|=|=>)\s*\\?["']?(?P<s>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)"#,
            any,
        ),
        rule(
            "authorization-header",
            r#"(?i:\b(?:proxy-)?authorization\\?["']?\s*[:=]\s*\\?["']?(?:bearer|basic|token|bot)\s+)(?P<s>[A-Za-z0-9._~+/=\-]{8,})|\bBearer\s+(?P<s2>[A-Za-z0-9._~+/\-]{20,}=*)"#,
            any,
        ),
        rule(
            "connection-string",
            r#"(?i:\b(?:jdbc:)?(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|oracle|cockroachdb|clickhouse|couchdb|neo4j(?:\+s)?|bolt)://)[^\s/:@"'<>]*:(?P<s>[^\s/@"'<>]+)@|(?i:;\s*(?:password|pwd)\s*=\s*)(?P<s2>[^;"'\s]+)"#,
            any,
        ),
        rule(
            "url-password",
            r#"\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s/:@"'<>]*:(?P<s>[^\s/@"'<>]+)@"#,
            any,
        ),
        rule(
            "assignment",
            &format!(
                r#"(?i:{assign_key})\\?["']?[ \t]*(?::=|=>|[:=])[ \t]*(?:\\?"(?P<s>[^"\n]*?)\\?"|'(?P<s2>[^'\n]*)'|(?P<s3>[^{VALUE_END}]+))|(?i:--(?:[a-z0-9]+-)*(?:password|passwd|token|secret|api-key|apikey))[ \t]+(?:"(?P<s4>[^"\n]*)"|'(?P<s5>[^'\n]*)'|(?P<s6>[^\s"'\-][^\s"']*))"#
            ),
            assigned_secret,
        ),
    ]
});

/// Values that a name like `password` or `token` is given in code without being a
/// secret: types, literals, references to variables, placeholders.
fn assigned_secret(value: &str, after: &str) -> bool {
    const WORDS: &[&str] = &[
        "true",
        "false",
        "null",
        "none",
        "nil",
        "undefined",
        "string",
        "str",
        "bool",
        "boolean",
        "int",
        "integer",
        "number",
        "object",
        "any",
        "bytes",
        "optional",
        "required",
        "secret",
        "password",
        "token",
        "redacted",
    ];
    let v = value.trim();
    if v.chars().count() < 4
        || WORDS.iter().any(|w| v.eq_ignore_ascii_case(w))
        || v.starts_with(['$', '%', '{', '<', '@', '*'])
        || !v.chars().any(char::is_alphanumeric)
        || v.chars().all(|c| c.is_ascii_digit())
        || after.starts_with(['(', '[', '.'])
    {
        return false;
    }
    if v.contains(char::is_whitespace) {
        return true;
    }
    // Prose, not an assignment: "the admin password: change it in Vault", a lowercase
    // word followed by more words.
    if v.chars().all(|c| c.is_ascii_lowercase())
        && after
            .strip_prefix(' ')
            .is_some_and(|rest| rest.starts_with(char::is_alphabetic))
    {
        return false;
    }
    // `self.token`, `process.env.API_TOKEN`, `settings.SECRET_KEY`: a path to a value.
    let identifier = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if v.contains('.') && v.split('.').all(identifier) {
        return false;
    }
    // `GITHUB_TOKEN`, `request_token`, `db_password`: a variable named for what it holds.
    if identifier(v) && v.contains('_') {
        let lower = v.to_ascii_lowercase();
        let named = ["pass", "secret", "token", "key", "auth", "cred"];
        if named.iter().any(|w| lower.contains(w)) || v.chars().all(|c| !c.is_lowercase()) {
            return false;
        }
    }
    true
}

/// `text` with every secret replaced by [`MARK`], and how many of each kind there were.
/// Borrowed when nothing was found.
pub fn redact(text: &str) -> (Cow<'_, str>, Counts) {
    let mut counts = Counts::default();
    let mut current = Cow::Borrowed(text);
    for rule in RULES.iter() {
        if let Some(changed) = apply(rule, &current, &mut counts) {
            current = Cow::Owned(changed);
        }
    }
    (current, counts)
}

fn apply(rule: &Rule, text: &str, counts: &mut Counts) -> Option<String> {
    let mut out = String::new();
    let mut last = 0;
    let mut n = 0;
    for caps in rule.re.captures_iter(text) {
        let Some(secret) = ["s", "s2", "s3", "s4", "s5", "s6"]
            .iter()
            .find_map(|g| caps.name(g))
        else {
            continue;
        };
        if secret.as_str() == MARK
            || secret.start() < last
            || !(rule.accept)(secret.as_str(), &text[secret.end()..])
        {
            continue;
        }
        out.push_str(&text[last..secret.start()]);
        out.push_str(MARK);
        last = secret.end();
        n += 1;
    }
    if n == 0 {
        return None;
    }
    out.push_str(&text[last..]);
    counts.add(rule.kind, n);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(text: &str) -> (String, Vec<(&'static str, usize)>) {
        let (out, counts) = redact(text);
        (out.into_owned(), counts.iter().collect())
    }

    #[test]
    fn every_rule_compiles_and_kinds_are_listed_in_order() {
        let kinds: Vec<_> = RULES.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, KINDS);
    }

    #[test]
    fn names_stay_and_values_go() {
        let ghp = format!("ghp_{}", "a1B2".repeat(9));
        assert_eq!(
            r(&format!("export GITHUB_TOKEN={ghp}")),
            (
                "export GITHUB_TOKEN=[redacted]".to_string(),
                vec![("github-token", 1)]
            )
        );
        assert_eq!(
            r(r#"{"api_key": "q8Zr2LmP0xTy"}"#),
            (
                r#"{"api_key": "[redacted]"}"#.to_string(),
                vec![("assignment", 1)]
            )
        );
        assert_eq!(
            r("curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZA==' x").0,
            "curl -H 'Authorization: Basic [redacted]' x"
        );
        // A password without a user name, as Redis URLs often are.
        assert_eq!(
            r("REDIS_URL=redis://:hunter2-Redis@cache:6379/0 make").0,
            "REDIS_URL=redis://:[redacted]@cache:6379/0 make"
        );
        assert_eq!(
            r("fetch https://:t0ken-xyz@git.example.com/repo").0,
            "fetch https://:[redacted]@git.example.com/repo"
        );
        assert_eq!(
            r("psql postgres://app:s3cr3t-Pw@db:5432/shop").0,
            "psql postgres://app:[redacted]@db:5432/shop"
        );
        assert_eq!(
            r("Server=db;User Id=sa;Password=Hunter22!;Encrypt=true").0,
            "Server=db;User Id=sa;Password=[redacted];Encrypt=true"
        );
    }

    #[test]
    fn code_references_stay() {
        for text in [
            "token = os.environ[\"GITHUB_TOKEN\"]",
            "password = get_password()",
            "const token = process.env.API_TOKEN;",
            "api_key: Optional[str] = None",
            "max_tokens=4096",
            "tokenizer = \"trigram remove_diacritics 1\"",
            "secret: ${{ secrets.DEPLOY_KEY }}",
            "password: <your password>",
            "token = request_token",
            "\"token_type\": \"Bearer\"",
            // Prose that names a secret without holding one.
            "Rotating the Grafana admin password: change it in Vault at secret/grafana/admin",
            "the API token: expired yesterday, so renew it",
        ] {
            assert_eq!(r(text).0, text, "{text}");
        }
        // A value that looks like one is still taken, prose around it or not.
        assert_eq!(
            r("the admin password: hunter22 until Friday").0,
            "the admin password: [redacted] until Friday"
        );
        assert_eq!(r("password: changeme").0, "password: [redacted]");
    }

    #[test]
    fn counts_summarise_most_frequent_first() {
        let mut c = Counts::default();
        c.add("github-token", 2);
        c.add("aws-access-key-id", 1);
        assert_eq!(
            c.summary(),
            "3 secrets: 2 github-token, 1 aws-access-key-id"
        );
        let mut d = Counts::default();
        d.add("jwt", 1);
        assert_eq!(d.summary(), "1 secret: 1 jwt");
        c.merge(&d);
        assert_eq!(c.total(), 4);
    }

    #[test]
    fn nothing_found_borrows() {
        assert!(matches!(redact("plain words").0, Cow::Borrowed(_)));
    }
}
