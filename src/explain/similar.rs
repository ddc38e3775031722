//! Known cases that read like the pasted text: the casebook.
//!
//! The casebook is the development part of the real-case corpus (`tests/corpus/errors/*.toml`,
//! `split = "dev"` only: the frozen held-out part is never in it), each case reduced to its
//! thread's link, the cause the thread established, and the set of words of its text. It is
//! generated (`GPU_DOCTOR_UPDATE_CASEBOOK=1 cargo test --test explain_casebook`) and a test
//! keeps it equal to the corpus.
//!
//! Why: a message no rule knows still resembles messages people have pasted before, and the
//! causes their threads established are evidence the rules' generic answer lacks. Measured on
//! cases gathered after the rules were written (SPLIT.md, "The casebook"), letting the ten
//! nearest cases vote on the generic answer's ranking found the established cause first for
//! 15 more of 245 texts than the generic answer alone. The links are also what a person wants
//! next: the thread where the same text was solved.
//!
//! Similarity is TF-IDF cosine over word sets (no stemming, no embeddings): cheap (the whole
//! book is scored per query in well under a millisecond), deterministic, and explainable.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::OnceLock;

/// The generated casebook: `id \t cause \t source \t word word …` per line.
const CASEBOOK: &str = include_str!("casebook.tsv");

/// Nearest cases that vote.
pub const VOTERS: usize = 15;
/// How much the voters' summed similarity weighs against the generic answer's weights.
pub const VOTE_WEIGHT: f64 = 0.3;
/// A text that no rule and no generic signal knows is answered from the casebook alone only
/// when its nearest case is at least this similar (cosine): below it, the neighbours of an
/// unrelated text would be noise.
pub const ALONE_SIMILARITY: f64 = 0.5;
/// Nearest cases shown to the reader.
pub const SHOWN: usize = 3;
/// A case is shown to the reader only from this similarity up.
pub const SHOWN_SIMILARITY: f64 = 0.3;

/// Words that say nothing about the cause (they appear in every kind of report).
const STOP: &[&str] = &[
    "the", "and", "for", "with", "this", "that", "from", "are", "was", "not", "you", "but", "have",
    "has", "can", "when", "use", "using", "then", "what", "error", "errors", "run", "running",
    "file", "line", "python", "lib", "site", "packages", "usr", "local", "home",
    // greetings and courtesy of an issue's first lines ("Hello, I want to know...")
    "hello", "thanks", "thank", "please", "regards", "hey",
];

/// One known case.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct KnownCase {
    /// The corpus id (`rsh-err-123`).
    pub id: String,
    /// The thread it came from.
    pub source: String,
    /// The cause the thread established (a finding id, or "none").
    pub cause: String,
    /// Cosine similarity to the text, 0..1.
    pub similarity: f64,
}

/// The words of a text, as the casebook stores them: lower-case ASCII runs that start with a
/// letter or `_` and go on with letters, digits, `_`, `.` or `-` (so `libcudnn.so.8`,
/// `cuda-12.1`, `sm_86` stay one word), or runs of digits; trimmed of `.`, `-`, `_` at both
/// ends; three characters or more; stop words left out.
pub fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i].to_ascii_lowercase();
        let start = i;
        if b.is_ascii_lowercase() || b == b'_' {
            i += 1;
            while i < bytes.len() {
                let c = bytes[i].to_ascii_lowercase();
                if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'_' | b'.' | b'-') {
                    i += 1;
                } else {
                    break;
                }
            }
        } else if b.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
        } else {
            i += 1;
            continue;
        }
        let word = text
            .get(start..i)
            .unwrap_or("")
            .to_ascii_lowercase()
            .trim_matches(|c| matches!(c, '.' | '-' | '_'))
            .to_string();
        if word.len() >= 3 && !STOP.contains(&word.as_str()) {
            out.push(word);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

struct Entry {
    id: &'static str,
    cause: &'static str,
    source: &'static str,
    /// Indices into the vocabulary, sorted, distinct.
    words: Vec<u32>,
}

struct Book {
    entries: Vec<Entry>,
    vocab: HashMap<&'static str, u32>,
    /// In how many entries each word is.
    df: Vec<u32>,
}

/// Reads the casebook's lines; a malformed line (none is, the test checks) is skipped.
fn parse(text: &'static str) -> Book {
    let mut vocab: HashMap<&'static str, u32> = HashMap::new();
    let mut df: Vec<u32> = Vec::new();
    let mut entries = Vec::new();
    for line in text.lines() {
        let mut cols = line.split('\t');
        let (Some(id), Some(cause), Some(source), Some(ws)) =
            (cols.next(), cols.next(), cols.next(), cols.next())
        else {
            continue;
        };
        let mut words: Vec<u32> = Vec::new();
        for w in ws.split(' ').filter(|w| !w.is_empty()) {
            let next = u32::try_from(vocab.len()).unwrap_or(u32::MAX);
            let k = *vocab.entry(w).or_insert(next);
            if k as usize == df.len() {
                df.push(0);
            }
            words.push(k);
        }
        words.sort_unstable();
        words.dedup();
        for &k in &words {
            if let Some(d) = df.get_mut(k as usize) {
                *d += 1;
            }
        }
        entries.push(Entry {
            id,
            cause,
            source,
            words,
        });
    }
    Book { entries, vocab, df }
}

fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| parse(CASEBOOK))
}

/// How many cases the casebook holds.
pub fn len() -> usize {
    book().entries.len()
}

/// The known cases most like `text`, most similar first (at most `k`, similarity > 0).
/// `leave_out` names a casebook case to ignore as if it were not there (its words do not
/// count in the word weights either): how the corpus test measures a case against the
/// others.
pub fn nearest(text: &str, k: usize, leave_out: Option<&str>) -> Vec<KnownCase> {
    let b = book();
    let text = bounded(text);
    let out_idx = leave_out.and_then(|id| b.entries.iter().position(|e| e.id == id));
    let left_words: HashSet<u32> = out_idx
        .and_then(|i| b.entries.get(i))
        .map(|e| e.words.iter().copied().collect())
        .unwrap_or_default();
    let n = b.entries.len() - usize::from(out_idx.is_some());
    let idf = |w: u32| -> f64 {
        let df =
            b.df.get(w as usize)
                .copied()
                .unwrap_or(0)
                .saturating_sub(u32::from(left_words.contains(&w)));
        if df == 0 {
            0.0
        } else {
            ((n as f64 + 1.0) / (f64::from(df) + 1.0)).ln()
        }
    };
    let query: HashMap<u32, f64> = words(&text)
        .iter()
        .filter_map(|w| b.vocab.get(w.as_str()).copied())
        .map(|w| (w, idf(w)))
        .filter(|(_, x)| *x > 0.0)
        .collect();
    let qnorm = query.values().map(|x| x * x).sum::<f64>().sqrt();
    if qnorm == 0.0 {
        return Vec::new();
    }
    let mut scored: Vec<(f64, usize)> = Vec::new();
    for (i, e) in b.entries.iter().enumerate() {
        if Some(i) == out_idx {
            continue;
        }
        let (mut dot, mut norm) = (0.0, 0.0);
        for &w in &e.words {
            let x = idf(w);
            norm += x * x;
            if let Some(q) = query.get(&w) {
                dot += q * x;
            }
        }
        if dot > 0.0 && norm > 0.0 {
            scored.push((dot / (qnorm * norm.sqrt()), i));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored
        .into_iter()
        .take(k)
        .filter_map(|(s, i)| {
            let e = b.entries.get(i)?;
            Some(KnownCase {
                id: e.id.to_string(),
                source: e.source.to_string(),
                cause: e.cause.to_string(),
                similarity: s,
            })
        })
        .collect()
}

/// The words of a long log are read from its first and last [`READ_BYTES`] / 2 only: the
/// casebook's texts are a few lines, a huge log's middle would only dilute the resemblance, and
/// the memory stays bounded whatever is pasted.
pub const READ_BYTES: usize = 64 * 1024;

fn bounded(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= READ_BYTES {
        return std::borrow::Cow::Borrowed(text);
    }
    let half = READ_BYTES / 2;
    let mut head = half;
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = text.len() - half;
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    std::borrow::Cow::Owned(format!(
        "{}\n{}",
        text.get(..head).unwrap_or(""),
        text.get(tail..).unwrap_or("")
    ))
}

/// The voters' summed similarity per cause, largest first.
pub fn votes(cases: &[KnownCase]) -> Vec<(String, f64)> {
    let mut by: BTreeMap<&str, f64> = BTreeMap::new();
    for c in cases {
        *by.entry(c.cause.as_str()).or_default() += c.similarity;
    }
    let mut v: Vec<(String, f64)> = by.into_iter().map(|(c, s)| (c.to_string(), s)).collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

/// One casebook line for a case (what the generator writes and `parse` reads).
pub fn casebook_line(id: &str, cause: &str, source: &str, text: &str) -> String {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    format!(
        "{}\t{}\t{}\t{}",
        clean(id),
        clean(cause),
        clean(source),
        words(text).join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_library_names_versions_and_ids_whole() {
        let w = words("ImportError: libcudnn.so.8: cannot open shared object (sm_86, CUDA-12.1.)");
        for want in [
            "importerror",
            "libcudnn.so.8",
            "cannot",
            "open",
            "shared",
            "object",
            "sm_86",
            "cuda-12.1",
        ] {
            assert!(w.contains(&want.to_string()), "{want} in {w:?}");
        }
        // Stop words, short words and non-ASCII are not words.
        assert!(!w.iter().any(|x| x == "the" || x == "so" || x == "py"));
        assert_eq!(words("ünïcödé — ✓"), Vec::<String>::new());
        assert_eq!(words("error 12020 12020"), vec!["12020".to_string()]);
    }

    #[test]
    fn nearest_ranks_by_shared_rare_words_and_leaves_out_what_it_is_told() {
        let b = parse(
            "a\tdriver.too_old_for_torch\thttps://x/a\tfound insufficient version 12020\n\
             b\tgpu.busy\thttps://x/b\tmemory busy process\n\
             c\tdriver.too_old_for_torch\thttps://x/c\tinsufficient driver version\n\
             broken line without tabs\n",
        );
        assert_eq!(b.entries.len(), 3, "the malformed line is skipped");
        assert_eq!(b.df.len(), b.vocab.len());
        // The real book: a text that is a case's own words finds that case first, and not
        // when it is left out.
        let Some(first) = book().entries.first() else {
            return;
        };
        let text = book_words(first);
        let near = nearest(&text, 3, None);
        assert_eq!(near.first().map(|c| c.id.as_str()), Some(first.id));
        assert!(near[0].similarity > 0.99);
        let without = nearest(&text, 3, Some(first.id));
        assert!(without.iter().all(|c| c.id != first.id));
        assert!(nearest("", 3, None).is_empty());
        assert!(nearest("zzzz qqqq", 3, None).is_empty());
    }

    fn book_words(e: &Entry) -> String {
        let b = book();
        let mut rev: Vec<&str> = vec![""; b.vocab.len()];
        for (w, &k) in &b.vocab {
            if let Some(slot) = rev.get_mut(k as usize) {
                *slot = w;
            }
        }
        e.words
            .iter()
            .filter_map(|&k| rev.get(k as usize).copied())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn a_huge_text_is_read_from_its_ends_only() {
        let mut big = "ünï ".repeat(100_000);
        big.push_str("tail_word_here");
        let b = bounded(&big);
        assert!(b.len() <= READ_BYTES + 1);
        assert!(b.ends_with("tail_word_here"));
        assert!(b.starts_with("ünï"));
        assert_eq!(bounded("short"), "short");
    }

    #[test]
    fn votes_sum_similarity_per_cause() {
        let k = |c: &str, s: f64| KnownCase {
            id: String::new(),
            source: String::new(),
            cause: c.to_string(),
            similarity: s,
        };
        let v = votes(&[k("a", 0.3), k("b", 0.5), k("a", 0.4)]);
        assert_eq!(v[0].0, "a");
        assert!((v[0].1 - 0.7).abs() < 1e-9);
        assert_eq!(v[1].0, "b");
    }

    #[test]
    fn casebook_line_round_trips_through_parse() {
        let line = casebook_line(
            "x-1",
            "gpu.busy",
            "https://e/1",
            "GPU is busy\tor unavailable",
        );
        let b = parse(Box::leak(line.into_boxed_str()));
        assert_eq!(b.entries.len(), 1);
        assert_eq!(b.entries[0].cause, "gpu.busy");
        assert_eq!(b.entries[0].words.len(), 3, "gpu busy unavailable");
    }
}
