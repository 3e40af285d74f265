//! Secrets of well-known shapes, found in free text and replaced by [`MARK`] before an
//! item is stored. The rules run in order, most specific first, so that a token inside
//! an assignment (`GITHUB_TOKEN=ghp_…`) is counted under its own kind; the generic
//! assignment rule comes last and skips what an earlier rule already replaced. Where a
//! secret has a name or a header around it, only the secret goes: `token=[redacted]`,
//! `Authorization: Bearer [redacted]`, `postgres://app:[redacted]@db`.
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::{Regex, RegexSet};

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
    "putty-private-key",
    "age-secret-key",
    "sentry-token",
    "jwt",
    "anthropic-key",
    "openrouter-key",
    "openai-key",
    "github-token",
    "gitlab-token",
    "slack-token",
    "stripe-key",
    "npm-token",
    "pypi-token",
    "huggingface-token",
    "google-api-key",
    "google-oauth-secret",
    "google-oauth-token",
    "aws-access-key-id",
    "aws-secret-access-key",
    "azure-storage-key",
    "azure-sas-token",
    "sendgrid-key",
    "mailgun-key",
    "twilio-key",
    "digitalocean-token",
    "shopify-token",
    "vault-token",
    "databricks-token",
    "atlassian-token",
    "linear-key",
    "docker-hub-token",
    "grafana-token",
    "new-relic-key",
    "tailscale-key",
    "supabase-token",
    "postman-key",
    "pulumi-token",
    "groq-key",
    "telegram-bot-token",
    "discord-bot-token",
    "authorization-header",
    "cookie-header",
    "connection-string",
    "url-password",
    "command-line-password",
    "assignment",
];

/// What a rule found: the secret, the name or flag in front of it if the rule has one
/// (group `n`), and the text that follows it.
struct Found<'a> {
    name: &'a str,
    value: &'a str,
    after: &'a str,
}

/// One shape: the secret is the group named `s` (or another of [`VALUE_GROUPS`], one per
/// alternative); the rest of the match is context that stays.
struct Rule {
    kind: &'static str,
    re: Regex,
    /// Whether a found value is a secret.
    accept: fn(&Found) -> bool,
}

fn any(_: &Found) -> bool {
    true
}

/// A token of a service's prefixed shape, unless it is the stem of a file name
/// (`models/sk-3f9a…c2.bin`, `hf_…-q4_0.gguf`): a name goes on to an extension.
fn token(f: &Found) -> bool {
    !file_name_rest(f.after)
}

fn file_name_rest(after: &str) -> bool {
    let word_end = after
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')))
        .unwrap_or(after.len());
    let rest = &after[..word_end];
    let Some(dot) = rest.rfind('.') else {
        return false;
    };
    let ext = &rest[dot + 1..];
    rest.starts_with(['.', '-', '_'])
        && (1..=16).contains(&ext.len())
        && ext.starts_with(|c: char| c.is_ascii_alphabetic())
        && ext.chars().all(|c| c.is_ascii_alphanumeric())
}

/// AWS's documentation gives its example keys an `EXAMPLE` ending (`AKIAIOSFODNN7EXAMPLE`,
/// `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`); they open nothing.
fn documented_example(v: &str) -> bool {
    v.ends_with("EXAMPLE") || v.ends_with("EXAMPLEKEY")
}

fn not_example(f: &Found) -> bool {
    !documented_example(f.value)
}

/// A value that only names where the secret is: `$NAME`, `${NAME}` (with a default or
/// not), `$(command)`, `${{ secrets.X }}`, `%NAME%`, `%(name)s`, `{{ template }}`,
/// `{name}`, `<placeholder>`, `@Microsoft.KeyVault(…)`. Anything else that starts with
/// `$`, `%`, `@`, `*` or `{` is a value: a password may start with any of them.
fn is_reference(v: &str) -> bool {
    let ident = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let enclosed = |open: &str, close: &str| {
        v.strip_prefix(open)
            .and_then(|rest| rest.strip_suffix(close))
            .filter(|inner| !inner.contains(close))
    };
    if enclosed("${{", "}}").is_some() || enclosed("{{", "}}").is_some() {
        return true;
    }
    if let Some(inner) = enclosed("${", "}") {
        let end = inner.find([':', '-', '?', '=', '+']).unwrap_or(inner.len());
        return ident(&inner[..end]);
    }
    if v.starts_with("$(") && v.ends_with(')') {
        return true;
    }
    if let Some(name) = v.strip_prefix('$') {
        return ident(name);
    }
    if let Some(inner) = enclosed("%(", ")s").or_else(|| enclosed("%{", "}")) {
        return ident(inner);
    }
    if let Some(inner) = enclosed("%", "%").or_else(|| enclosed("{", "}")) {
        return ident(inner);
    }
    if enclosed("<", ">").is_some_and(|inner| !inner.is_empty()) {
        return true;
    }
    v.starts_with("@Microsoft.KeyVault(") && v.ends_with(')')
}

/// A password on a command line, unless it is a reference or a port mapping that came
/// after the name of a program (`docker run mysql:8 -p3306:3306`).
fn command_password(f: &Found) -> bool {
    let v = f.value.trim();
    let ports = v
        .split(':')
        .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        && v.contains(':');
    !is_reference(v) && !ports
}

/// Whatever a secret of the rule may be made of, up to the first of these characters.
const VALUE_END: &str = r#"\s"'`,;&|<>(){}\[\]"#;

fn rule(kind: &'static str, pattern: &str, accept: fn(&Found) -> bool) -> Rule {
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

/// A token that is its own evidence: `prefix_…` with a word boundary before it.
fn prefixed(kind: &'static str, shape: &str) -> Rule {
    rule(
        kind,
        &format!(r"\b(?P<s>{shape})(?:[^A-Za-z0-9_\-]|$)"),
        token,
    )
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let key_block = r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----";
    let assign_key = r"[A-Za-z0-9_.\-]*(?:password|passwd|passphrase|secret|secret[_\-]?key|key[_\-]base|signing[_\-]?key|encryption[_\-]?key|master[_\-]?key|token|api[_\-]?key|apikey|access[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?|[_\-]pwd|[_\-]pass)";
    // `"name": "value"`, `name='value'`, `name=value`: the quote or space after a name.
    let sep = r#"\\?["']?[ \t]*(?::=|=>|[:=])[ \t]*"#;
    // The value of a flag or of an assignment: quoted (the quotes stay) or bare.
    let arg = |n: &str| {
        format!(r#"(?:\\?"(?P<s{n}>[^"\n]*?)\\?"|'(?P<s{n}a>[^'\n]*)'|(?P<s{n}b>[^{VALUE_END}]+))"#)
    };
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
        // A `.ppk` file from its first line to its MAC (or, cut off, to the end of its
        // base64 and header lines).
        rule(
            "putty-private-key",
            r"(?P<s>PuTTY-User-Key-File-[0-9]+:(?s:.*?)Private-MAC:[ \t]*[0-9a-fA-F]+|PuTTY-User-Key-File-[0-9]+:[A-Za-z0-9+/=\s\\:\-.@]*)",
            any,
        ),
        prefixed(
            "age-secret-key",
            "AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        ),
        prefixed(
            "sentry-token",
            "sntrys_eyJ[A-Za-z0-9+/=_]{50,}|sntryu_[a-f0-9]{64}",
        ),
        rule(
            "jwt",
            r"\b(?P<s>eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})",
            any,
        ),
        prefixed("anthropic-key", "sk-ant-[A-Za-z0-9_\\-]{32,}"),
        prefixed("openrouter-key", "sk-or-v1-[a-f0-9]{64}"),
        prefixed(
            "openai-key",
            "sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_\\-]{20,}|[A-Za-z0-9]{32,})",
        ),
        prefixed(
            "github-token",
            "(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{50,}",
        ),
        prefixed(
            "gitlab-token",
            "gl(?:pat|dt|rt|ptt|soat|cbt|ft|imt|agent|oas)-[A-Za-z0-9_\\-]{20,}",
        ),
        rule(
            "slack-token",
            r"\b(?P<s>xox[abposre]-[A-Za-z0-9\-]{10,}|xapp-[0-9]-[A-Za-z0-9\-]{10,}|https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9_/]{20,})",
            any,
        ),
        prefixed(
            "stripe-key",
            "(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}|whsec_[A-Za-z0-9]{24,}",
        ),
        prefixed("npm-token", "npm_[A-Za-z0-9]{36}"),
        prefixed("pypi-token", "pypi-AgE[A-Za-z0-9_\\-]{50,}"),
        prefixed("huggingface-token", "hf_[A-Za-z0-9]{30,}"),
        prefixed("google-api-key", "AIza[0-9A-Za-z_\\-]{35}"),
        prefixed("google-oauth-secret", "GOCSPX-[A-Za-z0-9_\\-]{28}"),
        prefixed("google-oauth-token", "ya29\\.[A-Za-z0-9_\\-]{20,}"),
        rule(
            "aws-access-key-id",
            r"\b(?P<s>(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})\b",
            not_example,
        ),
        // A secret key is 40 characters of base64 that only its name tells apart from a
        // hash: it is taken where a name says what it is.
        rule(
            "aws-secret-access-key",
            r#"(?i:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)\\?["']?\s*(?::|=|=>)\s*\\?["']?(?P<s>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)"#,
            not_example,
        ),
        // An Azure storage account's or Service Bus's key in a connection string, after
        // `--account-key`, or under `AZURE_STORAGE_KEY`.
        rule(
            "azure-storage-key",
            r#"(?i:\b(?:account|sharedaccess)key\s*=\s*|--account-key[ \t=]+["']?|\bazure_storage_(?:account_)?key\\?["']?\s*[:=]\s*\\?["']?)(?P<s>[A-Za-z0-9+/]{30,}={0,2})"#,
            any,
        ),
        // The signature of a shared access signature URL (`…&sig=…`).
        rule(
            "azure-sas-token",
            r"[?&;]sig=(?P<s>[A-Za-z0-9%+/=]{20,})",
            any,
        ),
        prefixed(
            "sendgrid-key",
            "SG\\.[A-Za-z0-9_\\-]{22}\\.[A-Za-z0-9_\\-]{43}",
        ),
        prefixed("mailgun-key", "key-[0-9a-f]{32}"),
        prefixed("twilio-key", "SK[0-9a-fA-F]{32}"),
        prefixed("digitalocean-token", "do[opr]_v1_[a-f0-9]{64}"),
        prefixed("shopify-token", "shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
        prefixed("vault-token", "hv[sbr]\\.[A-Za-z0-9_\\-]{24,}"),
        prefixed("databricks-token", "dapi[a-f0-9]{32}(?:-[0-9]+)?"),
        prefixed("atlassian-token", "ATATT3[A-Za-z0-9_\\-=]{100,}"),
        prefixed("linear-key", "lin_(?:api|oauth)_[A-Za-z0-9]{40}"),
        prefixed("docker-hub-token", "dckr_(?:pat|oat)_[A-Za-z0-9_\\-]{27,}"),
        prefixed(
            "grafana-token",
            "glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}",
        ),
        prefixed("new-relic-key", "NRAK-[A-Z0-9]{27}"),
        prefixed(
            "tailscale-key",
            "tskey-(?:auth|api|client|webhook|scim)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}",
        ),
        prefixed("supabase-token", "sbp_[a-f0-9]{40}"),
        prefixed("postman-key", "PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
        prefixed("pulumi-token", "pul-[a-f0-9]{40}"),
        prefixed("groq-key", "gsk_[A-Za-z0-9]{52}"),
        // Telegram's bot API puts the token in its URL: `/bot123456789:AA…/sendMessage`.
        rule(
            "telegram-bot-token",
            r"(?:\b|bot)(?P<s>[0-9]{8,10}:AA[A-Za-z0-9_\-]{33})(?:[^A-Za-z0-9_\-]|$)",
            any,
        ),
        prefixed(
            "discord-bot-token",
            "[MNO][A-Za-z0-9_\\-]{23,25}\\.[A-Za-z0-9_\\-]{6}\\.[A-Za-z0-9_\\-]{27,38}",
        ),
        rule(
            "authorization-header",
            r#"(?i:\b(?:proxy-)?authorization\\?["']?\s*[:=]\s*\\?["']?(?:bearer|basic|token|bot)\s+)(?P<s>[A-Za-z0-9._~+/=\-]{8,})|\bBearer\s+(?P<s2>[A-Za-z0-9._~+/\-]{20,}=*)"#,
            any,
        ),
        // Every cookie of a `Cookie:` or `Set-Cookie:` header (or curl's `--cookie`),
        // to the end of the header.
        rule(
            "cookie-header",
            r#"(?i:\b(?:set-)?cookie\\?["']?[ \t]*:[ \t]*\\?["']?|--cookie[ \t]+["']?)(?P<s>[^\s=;"'`\\]+=(?:[^\r\n"'`\\]*[^\s"'`\\;])?)"#,
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
        // Passwords given on a command line: `curl -u user:pass`, `mysql -pPASS`,
        // `sshpass -p PASS`, `docker login -p PASS`. The command is named, since `-u` and
        // `-p` mean other things to other programs (`docker run -u 1000:1000`).
        rule(
            "command-line-password",
            &format!(
                r#"\bcurl\b[^\n|;&]*?[ \t](?:-u|--user)[ \t]*["']?[^\s:"'`$]*:(?P<s>[^\s"'`]+)|\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump)\b[^\n|;&]*?[ \t]-p(?:"(?P<s2>[^"\n]+)"|'(?P<s3>[^'\n]+)'|(?P<s4>[^\s"'`]+))|\b(?:sshpass\b[^\n|;&]*?[ \t]-p[ \t]*|(?:docker|podman|nerdctl|buildah|skopeo|helm[ \t]+registry|oras)[ \t]+login\b[^\n|;&]*?[ \t](?:-p|--password)(?:[ \t]+|=)){}"#,
                arg("5")
            ),
            command_password,
        ),
        rule(
            "assignment",
            &format!(
                r#"(?P<n>(?i:{assign_key})){sep}{}|(?P<n2>(?i:--(?:[a-z0-9]+-)*(?:password|passwd|token|secret|api-key|apikey)))[ \t]+(?:"(?P<s4>[^"\n]*)"|'(?P<s5>[^'\n]*)'|(?P<s6>[^\s"'\-][^\s"']*))"#,
                arg("")
            ),
            assigned_secret,
        ),
    ]
});

/// Values that a name like `password` or `token` is given in code without being a
/// secret: types, literals, references to variables, placeholders; and the names that
/// say `token` of what is no secret (a page token, a count of tokens).
fn assigned_secret(f: &Found) -> bool {
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
    // A cursor over a listing (`next_page_token`, `pageToken`, AWS's `NextToken`,
    // `continuation_token`) opens nothing by itself.
    let name: String = f
        .name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    const CURSORS: &[&str] = &[
        "pagetoken",
        "nexttoken",
        "continuationtoken",
        "paginationtoken",
        "cursortoken",
        "synctoken",
    ];
    if CURSORS.iter().any(|c| name.ends_with(c)) {
        return false;
    }
    let (value, after) = (f.value, f.after);
    let v = value.trim();
    if v.chars().count() < 4
        || WORDS.iter().any(|w| v.eq_ignore_ascii_case(w))
        || is_reference(v)
        || v.contains(MARK)
        || documented_example(v)
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
    let counts = Counts::default();
    // Most texts hold no secret: one search for every rule at once tells so, where the
    // rules one by one cost a search each, whatever the text's length (a capture
    // redacts every short field of every record). A text no rule matches is left as it
    // is by all of them in turn, since each then sees it unchanged.
    if !ANY_RULE.is_match(text) {
        return (Cow::Borrowed(text), counts);
    }
    each_rule(text, counts)
}

/// The rules in order, each on what the ones before left.
fn each_rule(text: &str, mut counts: Counts) -> (Cow<'_, str>, Counts) {
    let mut current = Cow::Borrowed(text);
    for rule in RULES.iter() {
        if let Some(changed) = apply(rule, &current, &mut counts) {
            current = Cow::Owned(changed);
        }
    }
    (current, counts)
}

/// Every rule's pattern, to tell in one search whether any may match.
static ANY_RULE: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new(RULES.iter().map(|r| r.re.as_str()))
        .unwrap_or_else(|e| panic!("redact rules as one set: {e}"))
});

/// The groups that hold a secret, one per alternative of a rule.
const VALUE_GROUPS: &[&str] = &["s", "sa", "sb", "s2", "s3", "s4", "s5", "s5a", "s5b", "s6"];

fn apply(rule: &Rule, text: &str, counts: &mut Counts) -> Option<String> {
    let mut out = String::new();
    let mut last = 0;
    let mut n = 0;
    for caps in rule.re.captures_iter(text) {
        let Some(secret) = VALUE_GROUPS.iter().find_map(|g| caps.name(g)) else {
            continue;
        };
        let name = ["n", "n2"]
            .iter()
            .find_map(|g| caps.name(g))
            .map_or("", |m| m.as_str());
        let found = Found {
            name,
            value: secret.as_str(),
            after: &text[secret.end()..],
        };
        if secret.as_str() == MARK || secret.start() < last || !(rule.accept)(&found) {
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
        assert_eq!(ANY_RULE.len(), RULES.len());
    }

    /// The one search for any rule changes no outcome: texts with secrets of several
    /// kinds, look-alikes that a rule matches but does not take, and plain text.
    #[test]
    fn the_search_for_any_rule_changes_nothing() {
        let ghp = format!("ghp_{}", "a1B2".repeat(9));
        let texts = [
            String::new(),
            "cargo test --release -p core".to_string(),
            "é ü 日本 plain words, no secret".to_string(),
            format!("export GITHUB_TOKEN={ghp}"),
            format!("token={ghp} and password=hunter2x9 then AKIAIOSFODNN7EXAMPLE"),
            r#"{"api_key": "q8Zr2LmP0xTy"}"#.to_string(),
            "password=$DB_PASSWORD and token=${{ secrets.X }}".to_string(),
            "models/sk-3f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c.bin".to_string(),
            "postgres://app:s3cr3tpw@db:5432/x".to_string(),
            format!("password=[redacted] {MARK}"),
            "curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZA==' x".to_string(),
        ];
        for text in &texts {
            assert_eq!(redact(text), each_rule(text, Counts::default()), "{text}");
        }
        // Both kinds are among the texts: some no rule matches, some a rule does.
        assert!(texts.iter().any(|t| ANY_RULE.is_match(t)));
        assert!(texts.iter().any(|t| !ANY_RULE.is_match(t)));
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
    fn a_value_starting_with_a_sigil_is_a_value_and_only_a_whole_reference_stays() {
        for (text, secret) in [
            ("DJANGO_SECRET_KEY='%k9Xq!b2(zz)'", "%k9Xq!b2(zz)"),
            ("password = \"$up3rS3cret!\"", "$up3rS3cret!"),
            ("DB_PASSWORD='@dm1n2024!'", "@dm1n2024!"),
            ("secret: \"*starry-n1ght\"", "*starry-n1ght"),
            ("token = \"{abc-123\"", "{abc-123"),
            ("api_key='<3kittens42'", "<3kittens42"),
            ("password=\"${DB_PASSWORD}x\"", "${DB_PASSWORD}x"),
            ("password=\"$$d0llar\"", "$$d0llar"),
            ("password=\"%50off%\"", "%50off%"),
            ("password=@t-home9", "@t-home9"),
            ("password=*Star9", "*Star9"),
        ] {
            assert_eq!(
                r(text).0,
                text.replacen(secret, MARK, 1),
                "{text}: {secret} is a value"
            );
        }
        for text in [
            "password = \"$DB_PASSWORD\"",
            "password=$DB_PASSWORD",
            "DB_PASSWORD=\"${DB_PASSWORD}\"",
            "DB_PASSWORD=\"${DB_PASSWORD:-postgres}\"",
            "TOKEN=\"$(cat ~/.token)\"",
            "token: '${{ secrets.DEPLOY_TOKEN }}'",
            "set PASSWORD=%DB_PASSWORD%",
            "password = \"%(db_password)s\" % cfg",
            "password: \"{{ vault_db_password }}\"",
            "api_key = \"{api_key}\"",
            "client_secret: '<from the console>'",
            "secret: '@Microsoft.KeyVault(SecretUri=https://v.vault.azure.net/secrets/db/)'",
        ] {
            assert_eq!(r(text).0, text, "{text} is a reference");
        }
    }

    #[test]
    fn look_alikes_stay() {
        for text in [
            // A listing's cursor.
            "next_page_token = \"CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA\"",
            "{\"nextPageToken\": \"CAUQAA\", \"NextToken\": \"eyJhIjogMX0=\"}",
            "?pageToken=CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA&pageSize=10",
            // File names with a token's stem.
            "loaded models/sk-4f7e8d2c9b1a3e5f6d8c0b2a4e6f8d0c.bin",
            "~/.cache/sk-4f7e8d2c9b1a3e5f6d8c0b2a4e6f8d0c-q4_0.gguf",
            "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567.safetensors",
            // AWS's documented keys.
            "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            // -u and -p that are no password.
            "docker run -u 1000:1000 ghcr.io/acme/build",
            "mysql -h 127.0.0.1 -P 3306 -u root -p shop",
            "curl -u admin: https://localhost:8080/api",
            "curl -u \"$CI_USER:$CI_TOKEN\" https://nexus.acme.lan/",
            "mysql -p\"$MYSQL_PWD\" shop",
            "echo \"$T\" | docker login ghcr.io -u ci --password-stdin",
            "Cookie consent: shown once",
            "docker run -d mysql:8 -p3306:3306",
            "keybase: alice",
        ] {
            assert_eq!(r(text).0, text, "{text}");
        }
        // In Markdown, a code span's backtick ends the value.
        for (text, want) in [
            (
                "run `curl -u user:pass` (or `--user`)",
                "run `curl -u user:[redacted]` (or `--user`)",
            ),
            (
                "`mysql -pPASS` asks nothing",
                "`mysql -p[redacted]` asks nothing",
            ),
            ("`Cookie: a=b` and more", "`Cookie: [redacted]` and more"),
        ] {
            assert_eq!(r(text).0, want, "{text}");
        }
        // A token followed by a full stop is still one.
        let key = format!("sk-{}", "a1B2c3D4".repeat(5));
        assert_eq!(
            r(&format!("I pasted {key}. Rotate it.")).0,
            "I pasted [redacted]. Rotate it."
        );
    }

    #[test]
    fn a_putty_key_goes_whole_or_cut_off() {
        let key = "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: k\nPublic-Lines: 1\nAAAAB3NzaC1yc2E\nPrivate-Lines: 1\nAAAAgQC7\nPrivate-MAC: 0a1b2c3d";
        assert_eq!(
            r(&format!("$ cat k.ppk\n{key}\n$ ls")),
            (
                "$ cat k.ppk\n[redacted]\n$ ls".to_string(),
                vec![("putty-private-key", 1)]
            )
        );
        let cut = "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAAIH3nQx8Vr2m";
        assert_eq!(r(&format!("key: {cut}")).0, "key: [redacted]");
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
