//! A synthetic library: Zipf-distributed vocabulary, titles of 5–12 words, summaries of
//! 40–80, questions, atoms with error strings and file names, 20 projects of very
//! different sizes, several sources, dates over three years. Seeded: the same N gives
//! the same library.
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Zipf};

pub const VOCABULARY: usize = 30_000;
pub const PROJECTS: usize = 20;
const SOURCES: &[&str] = &[
    "agent-claude",
    "agent-codex",
    "ci-bot",
    "human-notes",
    "agent-local",
];
const ERRORS: &[&str] = &[
    "database is locked",
    "ECONNREFUSED 127.0.0.1:5432",
    "error[E0502]: cannot borrow",
    "TypeError: Cannot read properties of undefined",
    "ModuleNotFoundError: No module named",
    "panic: runtime error: index out of range",
    "OOMKilled",
    "blocked by CORS policy",
    "segmentation fault",
    "permission denied",
];
const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "de", "po", "ga", "li", "mo", "ta", "re", "si",
    "no", "be", "da", "fu", "ke", "pa", "zo", "ri", "ma", "te", "cho", "bri", "stu", "pla",
];

/// Word `i` of the vocabulary: frequent words are short, rare words longer.
pub fn word(i: usize) -> String {
    let mut n = i + 1;
    let mut w = String::new();
    while n > 0 {
        w.push_str(SYLLABLES[n % SYLLABLES.len()]);
        n /= SYLLABLES.len();
    }
    if i % 7 == 3 {
        w.push_str("er");
    }
    w
}

/// The share of items in project p: the first projects are huge, the last tiny.
/// Project 5 holds about 5% of the items (the benchmark's "5% project").
pub fn project_weights() -> Vec<f64> {
    let raw: Vec<f64> = (0..PROJECTS)
        .map(|p| 1.0 / (p as f64 + 1.0).powf(1.1))
        .collect();
    let total: f64 = raw.iter().sum();
    raw.iter().map(|w| w / total).collect()
}

/// Distinct names, as real projects have (names that share most of their text, like
/// "project-01" and "project-02", make the project filter inside FTS5 scan the shared
/// trigrams of every project).
const PROJECT_NAMES: [&str; PROJECTS] = [
    "atlas",
    "borealis",
    "cobalt-api",
    "dynamo",
    "ember-web",
    "fjord",
    "granite",
    "helix-ml",
    "ivory",
    "juniper",
    "kestrel-ios",
    "lumen",
    "mistral-etl",
    "nimbus",
    "obsidian",
    "quartz-docs",
    "rhubarb",
    "saffron",
    "tundra-infra",
    "umbra",
];

pub fn project_name(p: usize) -> String {
    PROJECT_NAMES[p].to_string()
}

pub struct Generator {
    rng: StdRng,
    zipf: Zipf<f64>,
    weights: Vec<f64>,
}

impl Generator {
    pub fn new(seed: u64) -> Generator {
        Generator {
            rng: StdRng::seed_from_u64(seed),
            zipf: Zipf::new(VOCABULARY as f64, 1.07).expect("zipf"),
            weights: project_weights(),
        }
    }

    pub fn word(&mut self) -> String {
        word(self.zipf.sample(&mut self.rng) as usize - 1)
    }

    fn words(&mut self, min: usize, max: usize) -> String {
        let n = self.rng.random_range(min..=max);
        (0..n).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }

    pub fn project(&mut self) -> usize {
        let x: f64 = self.rng.random();
        let mut acc = 0.0;
        for (p, w) in self.weights.iter().enumerate() {
            acc += w;
            if x < acc {
                return p;
            }
        }
        PROJECTS - 1
    }

    /// One item as JSON.
    pub fn item(&mut self) -> serde_json::Value {
        let project = self.project();
        let e = ERRORS[self.rng.random_range(0..ERRORS.len())];
        let file = format!("src/{}/{}.rs", self.word(), self.word());
        let day = self.rng.random_range(0..1095);
        let secs = self.rng.random_range(0..86_400);
        let t = 1_672_531_200i64 + day * 86_400 + secs; // from 2023-01-01
        serde_json::json!({
            "source": SOURCES[self.rng.random_range(0..SOURCES.len())],
            "project": project_name(project),
            "title": self.words(5, 12),
            "summary": self.words(40, 80),
            "questions": [format!("{}?", self.words(4, 9))],
            "atoms": [e, file],
            "occurred_at": t,
        })
    }

    /// A query of 2–5 words from the same distribution; some hold a quoted phrase or a
    /// short word (dropped by the trigram minimum).
    pub fn query(&mut self) -> String {
        let n = self.rng.random_range(2..=5);
        let mut words: Vec<String> = (0..n).map(|_| self.word()).collect();
        match self.rng.random_range(0..6) {
            0 => {
                let phrase = format!("\"{} {}\"", self.word(), self.word());
                words.push(phrase);
            }
            1 => words.push("ok".to_string()),
            _ => {}
        }
        words.join(" ")
    }

    pub fn below(&mut self, n: i64) -> i64 {
        self.rng.random_range(1..=n)
    }
}
