//! `gpu-doctor explain`: finds every CUDA / PyTorch / cuBLAS / cuDNN / NCCL / NVML /
//! driver / kernel-log error in pasted text and names its causes with finding ids,
//! ranked, each with why and the fix; where a machine's findings are at hand (this
//! machine's, or a collect_env paste's) they confirm or rule out the machine causes.
//!
//! This is the one place that classifies errors by their message text: its input is text a
//! person pasted. Nothing in it may panic on any input.

pub mod cmd;
mod generic;
pub mod nccl;
pub mod render;
pub mod rules;
pub mod similar;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use crate::finding::{Finding, Severity};
use rules::{Cause, Rule, RULES};

/// Distinct matches kept from one text (a log can repeat one error thousands of times).
pub const MAX_MATCHES: usize = 100;
/// Characters of the matched line shown in `text`.
const MAX_EXCERPT_CHARS: usize = 300;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    pub matches: Vec<Match>,
    /// Index into `matches` of the one that explains the text best (the most specific
    /// message); `None` when nothing matched.
    pub primary: Option<usize>,
    /// Whose facts refined the ranking: "none (--offline)", "this machine", "the collect_env paste".
    pub facts: String,
    /// Known real cases whose text reads most like this one (the casebook: threads whose
    /// cause was established), most similar first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub similar: Vec<similar::KnownCase>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Match {
    /// The message kind, e.g. "cuda.no_kernel_image".
    pub id: String,
    pub title: String,
    /// The line the message is on (trimmed).
    pub text: String,
    /// Byte offsets [start, end) of the first occurrence in the input.
    pub span: [usize; 2],
    /// 1-based line of the first occurrence.
    pub line: usize,
    pub occurrences: u32,
    /// How specific the message is (higher wins the primary match).
    pub priority: u8,
    /// Numbers and names read from the message: sm, xid, pci, driver_cuda, torch, ...
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub extracted: BTreeMap<String, String>,
    /// Most likely first.
    pub causes: Vec<RankedCause>,
    pub tells_apart: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankedCause {
    /// A finding id (finding-ids.md).
    pub id: String,
    /// 0..1; the causes of one match sum to at most 1.
    pub confidence: f64,
    pub why: String,
    pub fix: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<String>,
    /// What the machine's findings say about this cause.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    #[serde(skip)]
    weight: f64,
    /// The message itself observed this cause (e.g. "found version 12020" for a driver
    /// too old): a machine's passing finding does not rule it out (observation beats
    /// inference).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub observed: bool,
}

/// A rule and, compiled on first use, its pattern and hints: a text needs only the rules the
/// set says match, and compiling all of them up front was most of `explain`'s start-up.
struct Compiled {
    rule: &'static Rule,
    re: OnceLock<Option<Regex>>,
    hints: OnceLock<Vec<(Regex, &'static str, f64)>>,
}

impl Compiled {
    /// The rule's pattern (`None` if it does not compile; a unit test makes sure all do).
    fn re(&self) -> Option<&Regex> {
        self.re.get_or_init(|| compile(self.rule.pattern)).as_ref()
    }

    fn hints(&self) -> &[(Regex, &'static str, f64)] {
        self.hints.get_or_init(|| {
            self.rule
                .hints
                .iter()
                .filter_map(|h| Some((compile(h.when)?, h.cause, h.delta)))
                .collect()
        })
    }
}

fn compile(pattern: &str) -> Option<Regex> {
    regex::RegexBuilder::new(&tolerate_padding(pattern))
        .case_insensitive(true)
        .multi_line(true)
        .size_limit(50 * 1024 * 1024)
        .build()
        .ok()
}

/// `pattern` where a literal quote (`'`, `"`) may be followed by the padding the ASCII shadow
/// puts after a typographic quote's first byte ("couldn‘t" scans as "couldn'\x7f\x7ft"), so a
/// rule written with ASCII quotes matches text typed with typographic ones. Quotes inside a
/// character class and escaped characters are left alone.
fn tolerate_padding(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => {
                out.push(ch);
                if let Some(next) = chars.next() {
                    out.push(next);
                    // `\x22` / `\x27` are quotes too.
                    if next == 'x' {
                        let hex: String = chars.by_ref().take(2).collect();
                        if (hex == "22" || hex == "27") && !in_class {
                            // `\xHH` becomes `(?:\xHH\x7f*)`, so a quantifier after it
                            // still applies to the whole.
                            out.pop();
                            out.pop();
                            out.push_str("(?:\\x");
                            out.push_str(&hex);
                            out.push_str("\\x7f*)");
                        } else {
                            out.push_str(&hex);
                        }
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push(ch);
                // A leading `]` or `^]` is part of the class.
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push(']');
                    chars.next();
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(ch);
            }
            '\'' | '"' if !in_class => {
                out.push_str("(?:");
                out.push(ch);
                out.push_str("\\x7f*)");
            }
            _ => out.push(ch),
        }
    }
    out
}

/// All rule patterns as one set, so a long log is scanned once to learn which rules
/// match at all (`None` if the set does not build; then every rule scans).
///
/// The set runs over the ASCII shadow of the text, so it is built without Unicode: on ASCII
/// text `\w`, `\b`, `\d`, `\s` and case folding mean what their Unicode forms mean, and
/// the ASCII classes compile several times faster (most of `explain`'s start-up). It only
/// says which rules to run; each rule's own (Unicode) pattern finds the match.
fn rule_set() -> Option<&'static regex::bytes::RegexSet> {
    static S: OnceLock<Option<regex::bytes::RegexSet>> = OnceLock::new();
    S.get_or_init(|| {
        regex::bytes::RegexSetBuilder::new(
            compiled().iter().map(|c| tolerate_padding(c.rule.pattern)),
        )
        .unicode(false)
        .case_insensitive(true)
        .multi_line(true)
        .size_limit(200 * 1024 * 1024)
        .dfa_size_limit(64 * 1024 * 1024)
        .build()
        .ok()
    })
    .as_ref()
}

/// The rules, each compiled on first use ([`Compiled`]).
fn compiled() -> &'static [Compiled] {
    static C: OnceLock<Vec<Compiled>> = OnceLock::new();
    C.get_or_init(|| {
        RULES
            .iter()
            .map(|rule| Compiled {
                rule,
                re: OnceLock::new(),
                hints: OnceLock::new(),
            })
            .collect()
    })
}

/// A helper pattern (numbers, names), compiled on first use and kept for the process.
fn small(pattern: &'static str) -> Option<&'static Regex> {
    static CACHE: OnceLock<std::sync::Mutex<BTreeMap<&'static str, &'static Regex>>> =
        OnceLock::new();
    let cache = CACHE.get_or_init(|| std::sync::Mutex::new(BTreeMap::new()));
    let mut map = cache.lock().ok()?;
    if let Some(re) = map.get(pattern) {
        return Some(re);
    }
    let re: &'static Regex = Box::leak(Box::new(compile(pattern)?));
    map.insert(pattern, re);
    Some(re)
}

/// Finds and ranks every known error in `text`, without any machine's facts.
pub fn explain(text: &str) -> Explanation {
    explain_in(text, "")
}

/// `explain`, where the hints that tell causes apart also read `context` (e.g. the
/// collect_env paste that came with the error); matches come from `text` only.
pub fn explain_in(original: &str, context: &str) -> Explanation {
    explain_with(original, context, Casebook::Use)
}

/// `explain` as if the casebook did not hold the case `case_id`: how the corpus tests measure
/// a development case against the others (the casebook is the development corpus).
pub fn explain_leaving_out(text: &str, case_id: &str) -> Explanation {
    explain_with(text, "", Casebook::LeaveOut(case_id))
}

/// `explain_in` from the rules and the generic answer alone, without the known cases:
/// `diagnose` reads environment pastes, whose words are versions and settings, not the
/// wording of an error the casebook's cases could resemble.
pub fn explain_by_rules(original: &str, context: &str) -> Explanation {
    explain_with(original, context, Casebook::Ignore)
}

/// Whether the known cases (the casebook) take part in the ranking.
#[derive(Clone, Copy)]
enum Casebook<'a> {
    Use,
    LeaveOut(&'a str),
    Ignore,
}

fn explain_with(original: &str, context: &str, casebook: Casebook<'_>) -> Explanation {
    // The rules are ASCII: scanning an ASCII shadow of the text (same byte offsets) keeps
    // the regex engines on their fast path, so non-ASCII text costs what ASCII does.
    let shadow = unquote(ascii_shadow(original));
    let text: &str = &shadow;
    let context_shadow = ascii_shadow(context);
    let context: &str = &context_shadow;
    let mut matches: Vec<Match> = Vec::new();
    let mut keys: BTreeMap<String, usize> = BTreeMap::new();
    let hits = rule_set().map(|s| s.matches(text.as_bytes()));
    for (i, c) in compiled().iter().enumerate() {
        if hits.as_ref().is_some_and(|h| !h.matched(i)) {
            continue;
        }
        let Some(re) = c.re() else { continue };
        for m in re.captures_iter(text) {
            let Some(whole) = m.get(0) else { continue };
            // A container started with the GPUs is not this rule's case.
            if c.rule.id == "container.run_without_gpus"
                && small(r"--gpus|--runtime[= ]nvidia|--device[= ]nvidia|nvidia-docker|--nv\b")
                    .is_some_and(|re| re.is_match(whole.as_str()))
            {
                continue;
            }
            // "bf16 would OOM", "to avoid OOM": the word names a failure that did not happen.
            if c.rule.id == "cuda.out_of_memory"
                && oom_only_supposed(original, whole.start(), whole.as_str())
            {
                continue;
            }
            let xid = if c.rule.id == "gpu.xid" {
                xid_of(whole.as_str())
            } else {
                None
            };
            let key = match xid {
                Some(x) => format!("{}#{x}", c.rule.id),
                None => c.rule.id.to_string(),
            };
            if let Some(&i) = keys.get(&key) {
                if let Some(existing) = matches.get_mut(i) {
                    existing.occurrences = existing.occurrences.saturating_add(1);
                }
                continue;
            }
            if matches.len() >= MAX_MATCHES {
                break;
            }
            keys.insert(key, matches.len());
            let (start, end) = (
                floor_boundary(original, whole.start()),
                ceil_boundary(original, whole.end()),
            );
            let mut m = new_match(c, text, context, start, end, xid);
            {
                let (ls, le) = line_bounds(original, start, end);
                m.text = excerpt(original.get(ls..le).unwrap_or(""));
            }
            matches.push(m);
        }
    }
    drop_overlaps(&mut matches);
    container_started_without_gpus(&mut matches);
    let near = match casebook {
        Casebook::Use => similar::nearest(text, similar::VOTERS, None),
        Casebook::LeaveOut(id) => similar::nearest(text, similar::VOTERS, Some(id)),
        Casebook::Ignore => Vec::new(),
    };
    if matches.is_empty() {
        // A message hard-wrapped by a terminal, a log viewer or a mail client ("Resource
        // exhausted: Out \nof memory while trying to allocate"): nothing matched the broken
        // lines, so read it again with those lines joined (same length, same offsets).
        if let Some(joined) = unwrapped(original) {
            return explain_with(&joined, context, casebook);
        }
        matches.extend(generic::fallback(text, original));
        // The generic answer's memory causes read the same words a rule's do, and its
        // ranking the same evidence.
        for m in &mut matches {
            let busy = other_processes_hold_memory(text, &mut m.causes);
            if ranking_evidence(&m.id, text, &mut m.causes) || busy {
                rank(m);
            }
            known_cases_vote(m, &near);
        }
        if matches.is_empty() {
            matches.extend(known_cases_match(original, &near));
        }
    }
    not_pytorch(&mut matches, text);
    matches.sort_by_key(|m| m.span[0]);
    let primary = primary_of(&matches);
    Explanation {
        matches,
        primary,
        facts: "none (--offline)".to_string(),
        similar: near
            .into_iter()
            .filter(|c| c.similarity >= similar::SHOWN_SIMILARITY)
            .take(similar::SHOWN)
            .collect(),
    }
}

/// A `docker run` / `podman run` line in the text that passes no GPU (no `--gpus`, no nvidia
/// runtime: the `container.run_without_gpus` rule matched) is what the text shows of the
/// container the failure happened in: every other match that lists the container without
/// GPUs as a cause ranks it higher ("NVIDIA-SMI has failed" or "driver version is
/// insufficient" inside a container started with plain `docker run`, or with `--device
/// /dev/nvidia0` alone, which gives the nodes but not the driver's libraries).
fn container_started_without_gpus(matches: &mut [Match]) {
    if !matches.iter().any(|m| m.id == "container.run_without_gpus") {
        return;
    }
    for m in matches
        .iter_mut()
        .filter(|m| m.id != "container.run_without_gpus")
    {
        if m.causes.iter().any(|k| k.id == "host.container_no_gpu") {
            raise(
                &mut m.causes,
                "host.container_no_gpu",
                0.5,
                "the text starts the container without --gpus or the nvidia runtime",
            );
            rank(m);
        }
    }
}

/// Programs with a CUDA build of their own, not PyTorch's: MATLAB, Blender/Cycles, ffmpeg
/// and HandBrake, hashcat, Julia's CUDA.jl, Rust's candle and cubecl, .NET, Java (DJL), the
/// other frameworks and CUDA libraries for Python (gradient boosting's CatBoost, XGBoost and
/// LightGBM, FAISS, RAPIDS, Taichi among them).
const OWN_CUDA_PROGRAM: &str = r"(?i)\b(?:matlab|gpuArray|parallel computing toolbox|blender|cycles (?:render|kernel|device)\w*|ffmpeg|handbrake|hashcat|davinci|premiere|julia|CUDA\.jl|candle|cubecl|TorchSharp|\bDJL\b|tensorflow|jaxlib|\bjax\b|cupy|numba|pycuda|onnxruntime|tensorrt|paddle\w*|mxnet|opencv|gromacs|lammps|openmm|leelaz?|kilosort|ml-agents|unity ?(?:3d|editor|ml)|catboost|xgboost|lightgbm|faiss|cudf|cuml|taichi)\b";

/// Words of PyTorch itself in a text (R's torch and TorchSharp say "torch" too, and keep it).
const PYTORCH_WORDS: &str = r"(?i)\btorch\b|pytorch|torchvision|\+cu\d{3}\b|site-packages/torch";

/// A text that names another CUDA program and nothing of PyTorch cannot have a PyTorch
/// build's cause: where a match ranks one first, the same fault of that program's own CUDA
/// build goes before it: its CUDA needs a newer driver (MATLAB's "The CUDA driver ... is too
/// old", HandBrake's NVENC), or its kernels or the toolkit compiling them lack the GPU (nvcc,
/// NVRTC or a build step: the toolkit's; otherwise the program's own binaries).
fn not_pytorch(matches: &mut [Match], text: &str) {
    let names_other = small(OWN_CUDA_PROGRAM).is_some_and(|re| re.is_match(text));
    if !names_other || small(PYTORCH_WORDS).is_some_and(|re| re.is_match(text)) {
        return;
    }
    let framework =
        small(r"(?i)tensorflow|\bjax|paddle|mxnet|caffe").is_some_and(|re| re.is_match(text));
    let building =
        small(r"(?i)\bnvcc\b|\bnvrtc\w*|ptxas|cmake|\bbuild(?:ing)?\b|compil\w+|CUDA_ARCH")
            .is_some_and(|re| re.is_match(text));
    for m in matches.iter_mut() {
        let Some(first) = m.causes.first() else {
            continue;
        };
        let (target, why, fix) = match first.id.as_str() {
            "driver.too_old_for_torch" => (
                "driver.too_old_for_toolkit",
                "The program's own CUDA build (not PyTorch: none is named) needs a newer driver than the one installed.",
                "Install the driver branch the program's CUDA needs (`nvidia-smi` shows the highest CUDA the installed driver supports), or use a release of the program built for an older CUDA.",
            ),
            // another framework's own build lacking the GPU is filed as the framework's
            // (torch.arch_unsupported's sense for Paddle, TensorFlow, JAX, MXNet)
            "torch.arch_unsupported" if framework => continue,
            "torch.arch_unsupported" if building => (
                "toolkit.arch_unsupported",
                "The CUDA toolkit that compiles the program's kernels (nvcc, NVRTC) does not know this GPU's architecture, or the build asks for architectures it dropped.",
                rules::FIX_TOOLKIT_ARCH,
            ),
            "torch.arch_unsupported" => (
                "ext.arch_unsupported",
                "The program's own CUDA binaries carry no kernels for this GPU's architecture.",
                "Use a release of the program built for this GPU's compute capability (`nvidia-smi --query-gpu=name,compute_cap --format=csv`), or build it for it.",
            ),
            _ => continue,
        };
        let lead = first.weight;
        let evidence = "the text names a CUDA program other than PyTorch and nothing of PyTorch";
        if let Some(k) = m.causes.iter_mut().find(|k| k.id == target) {
            k.weight = k.weight.max(lead + 0.05);
            k.evidence.push(evidence.to_string());
        } else {
            let mut k = known_case_cause(target, lead + 0.05, &[]);
            k.why = why.to_string();
            k.fix = fix.to_string();
            k.evidence.push(evidence.to_string());
            m.causes.push(k);
        }
        rank(m);
    }
}

/// The id of the match `explain` gives when neither a rule nor the generic answer knows the
/// text but known cases read very like it.
pub const KNOWN_CASES_MATCH: &str = "similar.known_cases";

/// The generic answer (no rule knew the message) re-ranked by the known cases most like the
/// text: each adds its similarity, times [`similar::VOTE_WEIGHT`], to the cause its thread
/// established. Resemblance does not overrule what the text states: a CUDA status or NVML
/// return code it names keeps the cause its code means, a version check it reads keeps the
/// verdict of the comparison, a finding the reporter states keeps its cause, and a generic answer that puts the workload first (the text
/// speaks of the program's memory or its own bug) is not turned into a machine fault.
fn known_cases_vote(m: &mut Match, near: &[similar::KnownCase]) {
    let votes = similar::votes(near);
    if votes.is_empty()
        || ["cuda_error", "nvml_error", "version_check", "stated"]
            .iter()
            .any(|k| m.extracted.contains_key(*k))
    {
        return;
    }
    let before = m.causes.first().map(|k| k.id.clone());
    let mut m2 = m.clone();
    // a failed link step names no architecture, whatever texts like it had
    let linked = small(generic::LINK_STEP).is_some_and(|re| re.is_match(&m.text));
    for (id, v) in &votes {
        if linked && id.ends_with(".arch_unsupported") {
            continue;
        }
        let add = similar::VOTE_WEIGHT * v;
        if m2.causes.iter().any(|k| &k.id == id) {
            raise(&mut m2.causes, id, add, known_case_evidence(id, near));
        } else {
            m2.causes.push(known_case_cause(id, add, near));
        }
    }
    rank(&mut m2);
    let machine = |id: &str| !(id.starts_with("workload.") || id == "none");
    let after = m2.causes.first().map(|k| k.id.as_str()).unwrap_or("");
    if before
        .as_deref()
        .is_some_and(|b| b.starts_with("workload.") && machine(after))
    {
        return;
    }
    *m = m2;
}

/// Words with which people tell that something went wrong (an error, a failure, a hang, a
/// slowdown, a device not seen), in a message or in prose.
const TELLS_A_FAILURE: &str = r"(?i)\b(?:errors?|fail\w*|cannot|can't|couldn't|unable|not (?:found|available|supported|work\w*|detected|recogni[sz]ed|seen|visible|loaded|running)|doesn't work|isn't (?:working|recogni[sz]ed|detected)|invalid|exception|traceback|crash\w*|hang\w*|hung|freez\w*|stuck|slow\w*|abort\w*|killed|refus\w*|mismatch\w*|missing|denied|time[sd]? ?out|no (?:gpus?|devices?|cuda))\b";

/// "No errors", "without any error", "0 failures": an error word that says there was none.
const NO_FAILURE_SAID: &str =
    r"(?i)\b(?:no|without(?: any)?|zero|0) (?:errors?|failures?|exceptions?|crash(?:es)?)\b";

/// Whether the text tells a failure, its "no errors" aside.
fn tells_a_failure(text: &str) -> bool {
    let told = small(NO_FAILURE_SAID).map_or(std::borrow::Cow::Borrowed(text), |re| {
        re.replace_all(text, "")
    });
    small(TELLS_A_FAILURE).is_some_and(|re| re.is_match(&told))
}

/// A match from the known cases alone, when the nearest is very like the text.
fn known_cases_match(original: &str, near: &[similar::KnownCase]) -> Option<Match> {
    let top = near.first()?;
    let votes = similar::votes(near);
    // Texts like it were harmless, or the text tells no failure at all (an informational
    // line resembling an error's): nothing to explain (the cases are still listed).
    if top.similarity < similar::ALONE_SIMILARITY
        || votes.first().is_some_and(|v| v.0 == "none")
        || !tells_a_failure(original)
    {
        return None;
    }
    let causes: Vec<RankedCause> = votes
        .iter()
        .map(|(id, v)| known_case_cause(id, similar::VOTE_WEIGHT * v, near))
        .collect();
    // The first line with words on it ('\n'-separated, so offsets stay right with CRLF).
    let (start, end) = original
        .split('\n')
        .scan(0usize, |pos, l| {
            let s = *pos;
            *pos += l.len() + 1;
            Some((s, s + l.len(), l))
        })
        .find(|(_, _, l)| !l.trim().is_empty())
        .map(|(s, e, _)| (s, e))?;
    let mut m = Match {
        id: KNOWN_CASES_MATCH.to_string(),
        title: "no rule knows this text; it reads like known cases, ranked by the causes their threads established".to_string(),
        text: excerpt(original.get(start..end).unwrap_or("")),
        span: [start, end],
        line: 1 + original.get(..start).map_or(0, |t| t.matches('\n').count()),
        occurrences: 1,
        priority: 0,
        extracted: BTreeMap::new(),
        causes,
        tells_apart: "Read the known cases' threads (below): the one whose situation is yours tells the cause; run `gpu-doctor` on the machine to confirm it.".to_string(),
    };
    rank(&mut m);
    Some(m)
}

fn known_case_evidence(cause: &str, near: &[similar::KnownCase]) -> String {
    let links: Vec<&str> = near
        .iter()
        .filter(|c| c.cause == cause)
        .take(2)
        .map(|c| c.source.as_str())
        .collect();
    format!(
        "known cases with this cause read like this text: {}",
        links.join(", ")
    )
}

/// A cause the known cases bring: the why and fix of a rule that names it, else of the check
/// that judges it.
/// What a cause voted for by known cases means, where the first rule that names it speaks of
/// its own message only (a Triton kernel's library bug, a collective's buffer sizing): the
/// vote carries no such message, so it gets the cause in general words.
fn in_general_words(id: &str) -> Option<(&'static str, &'static str)> {
    Some(match id {
        "none" => (
            "Texts like this one were harmless in their threads: a warning on a working machine, or the program's own setting.",
            "Nothing to fix on the machine.",
        ),
        "workload.library_bug" => (
            "A bug of the library or program at this version (its threads were fixed by another release or a patch), not of the machine.",
            rules::FIX_LIBRARY_BUG,
        ),
        "workload.illegal_address" => (
            "A kernel of the job touched memory it does not own (an index out of range, shapes that do not match, a race); the GPU only reports it.",
            rules::FIX_ILLEGAL,
        ),
        "workload.nccl" => (
            "A collective of the distributed job failed for a reason in the job or the network (ranks out of step, a crashed rank, interface or firewall settings).",
            "Run with `NCCL_DEBUG=INFO`; the first WARN line names the failing transport; check every rank's log for the first error.",
        ),
        "workload.device_assert" => (
            "A kernel's own check failed on the job's input (an index or label out of range).",
            "Re-run with `CUDA_LAUNCH_BLOCKING=1` (or on the CPU) to see the failing op and the value it rejects.",
        ),
        _ => return None,
    })
}

fn known_case_cause(id: &str, weight: f64, near: &[similar::KnownCase]) -> RankedCause {
    let rule_cause = RULES
        .iter()
        .flat_map(|r| r.causes.iter())
        .find(|c| c.id == id);
    let (why, fix) = match (
        in_general_words(id),
        rule_cause,
        crate::checks::catalogue::by_id(id),
    ) {
        (Some((why, fix)), _, _) => (why.to_string(), fix.to_string()),
        (None, Some(c), _) => (c.why.to_string(), c.fix.to_string()),
        (None, None, Some(check)) => (check.failing.to_string(), check.next_step.to_string()),
        (None, None, None) => (
            format!("Known cases like this text had the cause `{id}`."),
            format!("Check the `{id}` finding: run `gpu-doctor` on the machine to confirm or rule it out."),
        ),
    };
    RankedCause {
        id: id.to_string(),
        confidence: 0.0,
        why,
        fix,
        commands: Vec::new(),
        evidence: vec![known_case_evidence(id, near)],
        weight,
        observed: false,
    }
}

/// Messages that state their cause as an observation (the program checked and said so):
/// (rule id, cause id). A machine's or paste's passing finding does not outrank them.
const OBSERVED: &[(&str, &str)] = &[
    ("torch.sm_not_compatible", "torch.arch_unsupported"),
    ("nvml.library_mismatch", "driver.library_mismatch"),
    ("nvrm.legacy_gpu", "driver.gpu_unsupported"),
    ("kernel.nova_core", "driver.nouveau_loaded"),
    ("flash_attn.arch", "ext.arch_unsupported"),
    // nvcc itself saying it does not know the `-arch` value (`native`) it was given.
    ("nvcc.arch_value_unknown", "toolkit.arch_unsupported"),
    // The installer, DKMS or the boot log saying the module was not built or is not there.
    ("kernel.module_not_built", "driver.module_not_loaded"),
    ("kernel.module_missing", "driver.module_not_loaded"),
];

/// The id of the match `explain` gives when no rule knows the message.
pub const GENERIC_MATCH: &str = "generic.gpu_error";
/// Rules that read a symptom only as the reporter words it ("it will not use the GPU", NCCL
/// between nodes), with causes ranked by what else the text names: as weak as the generic
/// answer where facts can speak instead (`diagnose`).
pub const SAID_ONLY_MATCHES: &[&str] = &["gpu.not_used_said", "nccl.network_config_said"];
/// How much less a generic answer is trusted than a rule's.
const GENERIC_CONFIDENCE: f64 = 0.5;

/// `text` with every non-ASCII character replaced by ASCII of the same byte length
/// (typographic quotes and full-width colons by their ASCII twins, the rest by DEL), so
/// byte offsets into it are offsets into `text`.
/// Blanks the "> " that quoting in an issue or a mail puts before each line (nested too), so
/// the rules read a quoted error as they read it bare; byte offsets stay the same. A Python
/// prompt (">>> ") is not a quote and stays.
fn unquote(text: std::borrow::Cow<'_, str>) -> std::borrow::Cow<'_, str> {
    if !text.starts_with("> ") && !text.contains("\n> ") {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let mut rest = line;
        while let Some(after) = rest.strip_prefix("> ") {
            out.push_str("  ");
            rest = after;
        }
        out.push_str(rest);
    }
    std::borrow::Cow::Owned(out)
}

/// The text with its hard-wrapped lines joined, or `None` where it has none: a line of at
/// least [`WRAPPED_WIDTH`] characters whose next line goes on in lower case, mid-sentence
/// ("... Resource exhausted: Out " / "of memory while trying to allocate ..."). The break
/// becomes one space (the spaces it leaves over go to the end of the joined line), so the
/// text keeps its length and every line after the joined one its offsets.
fn unwrapped(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut joined = false;
    let mut spare = 0;
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        let next = lines.peek();
        let goes_on = next.is_some_and(|n| n.starts_with(|c: char| c.is_ascii_lowercase()))
            && !line.trim_end().ends_with(['.', ':', ';', '!', '?']);
        if goes_on && line.chars().count() >= WRAPPED_WIDTH {
            let kept = line.trim_end_matches([' ', '\t', '\r']);
            out.push_str(kept);
            out.push(' ');
            spare += line.len() - kept.len();
            joined = true;
            continue;
        }
        out.push_str(line);
        out.extend(std::iter::repeat_n(' ', spare));
        spare = 0;
        if next.is_some() {
            out.push('\n');
        }
    }
    joined.then_some(out)
}

/// The narrowest width a wrapped line is taken to have (terminals wrap at 80 columns or
/// more; a mail client at 72).
const WRAPPED_WIDTH: usize = 72;

fn ascii_shadow(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch.is_ascii() {
            out.push(ch);
            continue;
        }
        let first = match ch {
            '\u{2018}' | '\u{2019}' | '\u{2032}' => '\'',
            '\u{201C}' | '\u{201D}' => '"',
            '\u{FF1A}' => ':',
            '\u{00A0}' | '\u{3000}' | '\u{2002}'..='\u{200A}' => ' ',
            '\u{2010}'..='\u{2014}' => '-',
            _ => '\u{7f}',
        };
        out.push(first);
        for _ in 1..ch.len_utf8() {
            out.push('\u{7f}');
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Words before a bare "OOM" that make it a supposition or a thing avoided, not what
/// happened: "using bf16 would OOM", "otherwise it will OOM", "to avoid OOM", Chinese
/// "…的话会OOM" (if …, would) and "避免OOM" (avoid). A plain "will OOM" stays an
/// observation: people write it of what happens every time.
const SUPPOSED_BEFORE: &str = r"(?i)(?:\b(?:would(?:n't| not)?|wo?n't|could|might|otherwise(?: it)?(?: will)?|or else(?: it)?(?: will)?|to avoid|avoid(?:s|ing)?|prevent(?:s|ing)?|without|risk(?:s|ing)?(?: an?)?|no more|never)\s+(?:\w+\s+)?|\x{7684}\x{8bdd}\x{4f1a}|\x{5426}\x{5219}(?:\x{4f1a})?|\x{907f}\x{514d}|\x{9632}\x{6b62}|\x{4e0d}\x{4f1a})$";

/// Whether a match of the out-of-memory rule is a bare "OOM" word supposed or avoided on its
/// line, rather than an out-of-memory error (the errors' own words are never bare "OOM").
fn oom_only_supposed(original: &str, start: usize, matched: &str) -> bool {
    if !matches!(
        matched.trim().to_ascii_lowercase().as_str(),
        "oom" | "ooms" | "oomed"
    ) {
        return false;
    }
    let start = floor_boundary(original, start);
    let line_start = original[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = &original[line_start..start];
    let from = floor_boundary(before, before.len().saturating_sub(48));
    small(SUPPOSED_BEFORE).is_some_and(|re| re.is_match(&before[from..]))
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Where two matches cover the same bytes (one message two rules know), the more
/// specific one stays.
fn drop_overlaps(matches: &mut Vec<Match>) {
    let snapshot: Vec<([usize; 2], u8)> = matches.iter().map(|m| (m.span, m.priority)).collect();
    let mut i = 0usize;
    matches.retain(|m| {
        let me = i;
        i += 1;
        !snapshot.iter().enumerate().any(|(j, (span, prio))| {
            j != me
                && span[0] < m.span[1]
                && m.span[0] < span[1]
                && (*prio > m.priority || (*prio == m.priority && j < me))
        })
    });
}

fn primary_of(matches: &[Match]) -> Option<usize> {
    matches
        .iter()
        .enumerate()
        .max_by(|(_, a), (_, b)| {
            a.priority
                .cmp(&b.priority)
                .then_with(|| b.span[0].cmp(&a.span[0]))
        })
        .map(|(i, _)| i)
}

fn xid_of(s: &str) -> Option<u32> {
    if s.to_ascii_lowercase().contains("fallen off the bus") && !s.contains("Xid") {
        return Some(79);
    }
    let re = small(r"(?:Xid \(PCI:[0-9A-Fa-f:.]+\): |Xid(?: error)?[ :]+)(\d{1,3})\b")?;
    re.captures(s)?.get(1)?.as_str().parse().ok()
}

fn line_bounds(text: &str, start: usize, end: usize) -> (usize, usize) {
    let ls = text
        .get(..start)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1);
    let le = text
        .get(end..)
        .and_then(|t| t.find('\n'))
        .map_or(text.len(), |i| end + i);
    (ls, le)
}

fn excerpt(s: &str) -> String {
    let t = s.trim();
    if t.chars().count() <= MAX_EXCERPT_CHARS {
        return t.to_string();
    }
    let mut out: String = t.chars().take(MAX_EXCERPT_CHARS).collect();
    out.push('…');
    out
}

fn new_match(
    c: &Compiled,
    text: &str,
    context: &str,
    start: usize,
    end: usize,
    xid: Option<u32>,
) -> Match {
    let (ls, le) = line_bounds(text, start, end);
    let line_text = text.get(ls..le).unwrap_or("");
    let matched = text.get(start..end).unwrap_or("");
    let line = text.get(..start).map_or(0, |t| t.matches('\n').count()) + 1;
    // The line before often carries the call and its number ("cudaGetDeviceCount returned 803").
    let prev = text
        .get(..ls.saturating_sub(1))
        .and_then(|t| t.rsplit('\n').next())
        .unwrap_or("");
    let mut extracted = extract(text, matched, &format!("{prev}\n{line_text}"));
    let base: Vec<Cause> = match xid {
        Some(x) => {
            extracted.insert("xid".into(), x.to_string());
            rules::xid_causes(x)
        }
        None => c
            .rule
            .causes
            .iter()
            .map(|k| Cause {
                id: k.id,
                weight: k.weight,
                why: k.why,
                fix: k.fix,
            })
            .collect(),
    };
    let mut causes: Vec<RankedCause> = base
        .iter()
        .map(|k| RankedCause {
            id: k.id.to_string(),
            confidence: 0.0,
            why: k.why.to_string(),
            fix: k.fix.to_string(),
            commands: Vec::new(),
            evidence: Vec::new(),
            weight: k.weight,
            observed: false,
        })
        .collect();
    for (re, cause, delta) in c.hints() {
        if re.is_match(text) || (!context.is_empty() && re.is_match(context)) {
            if let Some(k) = causes.iter_mut().find(|k| k.id == *cause) {
                k.weight = (k.weight + delta).max(0.0);
            }
        }
    }
    let _ = other_processes_hold_memory(text, &mut causes);
    let _ = ranking_evidence(c.rule.id, text, &mut causes);
    specialise(c.rule.id, text, &extracted, &mut causes);
    for k in &mut causes {
        if OBSERVED
            .iter()
            .any(|(rule, cause)| *rule == c.rule.id && *cause == k.id)
        {
            k.observed = true;
        }
    }
    let title = match xid {
        Some(x) => format!("Xid {x} in the kernel log"),
        None => c.rule.title.to_string(),
    };
    let mut m = Match {
        id: c.rule.id.to_string(),
        title,
        text: excerpt(line_text),
        span: [start, end],
        line,
        occurrences: 1,
        priority: c.rule.priority,
        extracted,
        causes,
        tells_apart: c.rule.tells_apart.to_string(),
    };
    rank(&mut m);
    m
}

/// Words with which a paste says other processes hold the GPU's memory ("when I clear the gpu
/// of other processes", "13GB allocated by someone", "a zombie process"): tensorflow/tensorflow
/// #9489, wencolani/CrossE#2.
const OTHER_PROCESSES_HOLD_MEMORY: &str = r"(?:\b(?:other|another|second|zombie|stale|orphan(?:ed)?|leftover|background|previous|old)\s+(?:\w+\s+)?process(?:es)?\b[^\n]{0,60}\b(?:hold|holds|holding|held|use|uses|using|used|occup\w*|eat\w*|tak\w+|allocat\w*|memory|VRAM)|\bclear(?:ed|ing)?\s+the\s+gpu\s+of\b|\b(?:allocated|used|held|occupied|taken|eaten(?:\s+up)?|reserved)\s+by\s+(?:someone|something|another|other|a different|a zombie)\b|\bkill(?:ed|ing)?\s+(?:the\s+|all\s+)?(?:other|old|zombie|stale|leftover)\s+process)";

/// A memory failure (the match's causes include the job's own out of memory) whose paste says
/// other processes hold the GPU's memory: `gpu.busy` rises, and is added where the rule did
/// not list it (cuBLAS' handle creation). Observation beats inference: the reporter saw them.
/// True when it changed the causes.
fn other_processes_hold_memory(text: &str, causes: &mut Vec<RankedCause>) -> bool {
    let memory = causes.iter().any(|k| {
        matches!(
            k.id.as_str(),
            "workload.out_of_memory" | "workload.cublas_alloc" | "gpu.busy"
        )
    });
    if !memory || !small(OTHER_PROCESSES_HOLD_MEMORY).is_some_and(|re| re.is_match(text)) {
        return false;
    }
    let note = "the text says other processes hold the GPU's memory".to_string();
    if let Some(k) = causes.iter_mut().find(|k| k.id == "gpu.busy") {
        k.weight += 0.6;
        k.evidence.push(note);
    } else {
        causes.push(RankedCause {
            id: "gpu.busy".to_string(),
            confidence: 0.0,
            why: "Other processes hold most of the GPU's memory, so this one's allocation (here a library's handle or workspace) fails.".to_string(),
            fix: rules::FIX_BUSY.to_string(),
            commands: Vec::new(),
            evidence: vec![note],
            weight: 0.6,
            observed: false,
        });
    }
    true
}

/// A torch version string that names the CPU build ("torch-2.1.0+cpu", "pytorch 1.13.1+cpu",
/// xformers' "(you have 2.1.2+cpu)", collect_env's "CUDA used to build PyTorch: None"): what the
/// installed torch is, observed. torchvision's or torchaudio's own version does not count.
const TORCH_CPU_BUILD: &str = r"(?:\b(?:py)?torch(?:==|-|\s+|\s*version\s*[:=]?\s*)v?\d+\.\d+(?:\.\d+)?(?:\.\w+)?\+cpu\b|\byou have \d+\.\d+(?:\.\d+)?\+cpu\b|torch\.__version__[^\n]{0,40}\+cpu\b|CUDA used to build PyTorch: None|torch\.version\.cuda\s*[:=]?\s*None)";

/// Causes under which a CPU-only torch is the likelier reading when the text shows one: an
/// extension's ops that do not load against it, torch finding no GPU.
const CPU_BUILD_EXPLAINS: &[&str] = &[
    "torch.cpu_only",
    "ext.abi_mismatch",
    "torch.cuda_unavailable",
    "torch.wheel_deps_mismatch",
];

/// Words with which a paste says the driver is too old ("the msg is that my Nvidia version is too
/// old", "driver version is outdated"): pytorch/pytorch#28195.
const DRIVER_SAID_TOO_OLD: &str =
    r"\b(?:nvidia|driver)\b[^\n.]{0,30}\b(?:too old|outdated|out of date)\b";

/// A driver version the paste names ("Driver Version: 410.48", "driver 515.65.01",
/// "nvidia-driver-470", a bare "410.48" on its own line): the branch number.
const DRIVER_VERSION: &str = r"(?m)(?:Driver Version:?\s*|NVIDIA-SMI\s+|\bdriver(?: version)?[ :=]+|\bnvidia-(?:driver-)?|^\s*)(\d{3})\.\d{2,3}(?:\.\d{2,3})?\b(?:[^\n\w.]|$)";

/// The paste says its author built the failing code ("Built with pytorch 1.7, cuda 10.2", "I
/// compiled it from source", `python setup.py install`, `MMCV_WITH_OPS=1`): a kernel image missing
/// for the GPU is then that build's architecture list, not the torch wheel's. PyTorch's own
/// "PyTorch built with:" (collect_env, mmcv's environment dump) does not count.
fn built_locally(text: &str) -> bool {
    let Some(re) = small(
        r"\b(?:built|compiled|rebuilt|recompiled)\b[^\n]{0,40}?\b(?:with|from source|from the source|against|using)\b|\bMMCV_WITH_OPS\b|python setup\.py (?:install|build|develop)|pip install (?:-e|--editable)\b",
    ) else {
        return false;
    };
    re.find_iter(text).any(|m| {
        let before = text.get(..m.start()).unwrap_or("");
        let tail: String = before
            .chars()
            .rev()
            .take(12)
            .collect::<String>()
            .to_ascii_lowercase();
        // Reversed: "hcrotyp" is "pytorch", "hcrot" is "torch" just before the word.
        !(tail.trim_start().starts_with("hcrot") || tail.trim_start().starts_with("hcrotyp"))
    })
}

/// Evidence in the text that decides between a match's causes (issue #14, round 4: the right
/// cause was in the list but a competing one won):
/// - a torch version string naming the CPU build makes `torch.cpu_only` the observed cause of a
///   failure it explains (xformers "built for PyTorch 2.1.0+cu121 (you have 2.1.0+cpu)",
///   ultralytics' "torch-2.1.0+cpu"), added where the match did not list it;
/// - a paste saying the driver is too old, or naming a driver branch older than any CUDA build
///   of torch the text shows needs (cu12x: 525, cu11x: 450, else 418), raises
///   `driver.too_old_for_torch` where the match lists it (pytorch/pytorch#31243, #28195).
///
/// True when it changed the causes.
fn ranking_evidence(rule: &str, text: &str, causes: &mut Vec<RankedCause>) -> bool {
    let mut changed = false;
    let listed = |causes: &[RankedCause], id: &str| causes.iter().any(|k| k.id == id);
    let explains_cpu = rule == GENERIC_MATCH
        || rule == "ext.built_for_other_torch"
        || causes
            .iter()
            .any(|k| CPU_BUILD_EXPLAINS.contains(&k.id.as_str()));
    if explains_cpu && small(TORCH_CPU_BUILD).is_some_and(|re| re.is_match(text)) {
        let note = "the text shows a CPU-only torch build (+cpu / CUDA None)".to_string();
        if let Some(k) = causes.iter_mut().find(|k| k.id == "torch.cpu_only") {
            k.weight += 1.0;
            k.observed = true;
            k.evidence.push(note);
        } else {
            causes.push(RankedCause {
                id: "torch.cpu_only".to_string(),
                confidence: 0.0,
                why: "The installed torch is a CPU-only build (a `+cpu` wheel: pip's default on Windows, or an updater that replaced the CUDA build), so nothing built for CUDA torch loads and no GPU is used.".to_string(),
                fix: "Install a CUDA build into the same environment: `pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu124` (pick the CUDA your driver supports), then the extension's build for it.".to_string(),
                commands: Vec::new(),
                evidence: vec![note],
                weight: 1.0,
                observed: true,
            });
        }
        changed = true;
    }
    // The paste says PyTorch itself lacks the GPU's architecture ("it seems that PyTorch does not
    // support the compute capability of the RTX 5090 (sm_120)": vllm-project/vllm#16901), even
    // where an extension (vLLM) is named.
    if rule == "cuda.no_kernel_image"
        && listed(causes, "torch.arch_unsupported")
        && small(r"\b(?:py)?torch\b[^\n.]{0,40}\b(?:does not|doesn'?t|do not|don'?t|not yet|no longer) supports?\b[^\n.]{0,50}\b(?:gpu|compute capability|sm_\d+|architecture|arch|rtx|card)")
            .is_some_and(|re| re.is_match(text))
    {
        raise(
            causes,
            "torch.arch_unsupported",
            0.4,
            "the text says PyTorch does not support the GPU's architecture",
        );
        changed = true;
    }
    if rule == "cuda.no_kernel_image"
        && listed(causes, "ext.arch_unsupported")
        && built_locally(text)
    {
        raise(
            causes,
            "ext.arch_unsupported",
            0.35,
            "the text says the code was built or compiled locally",
        );
        changed = true;
    }
    // "operation not supported" from a program that chose the driver's asynchronous allocator
    // (ComfyUI's default cudaMallocAsync on GPUs without it: Comfy-Org/ComfyUI#940, #1845), not
    // from expandable segments the user set.
    if rule == "cuda.not_supported"
        && listed(causes, "workload.library_bug")
        && small(r"cudaMallocAsync|cuda[-_ ]malloc\b|\bComfyUI\b|\bmem_get_info\b|cudaMemGetInfo")
            .is_some_and(|re| re.is_match(text))
        && !small(r"expandable_segments").is_some_and(|re| re.is_match(text))
    {
        raise(
            causes,
            "workload.library_bug",
            0.4,
            "the program chose the driver's asynchronous allocator (cudaMallocAsync), which this GPU or driver does not offer: --disable-cuda-malloc",
        );
        changed = true;
    }
    // cuDNN loaded NEWER than the framework was compiled with: the framework imported is an
    // older copy than the environment (see `cudnn.loaded_runtime_mismatch`).
    // In a container image or a conda environment there is one framework: the cuDNN it
    // carries is the newer one, and installing the one the build names fixes it
    // (tensorflow/models#3835: `conda install cudnn=7.0`).
    if rule == "cudnn.loaded_runtime_mismatch" && cudnn_loaded_newer(text) {
        let one_framework = small(r"(?i)\bdocker\b|\bcontainer\b|\bconda\b|nvcr\.io")
            .is_some_and(|re| re.is_match(text));
        let (cause, why) = if one_framework {
            (
                "torch.wheel_deps_mismatch",
                "the cuDNN the image or environment carries is newer than the one the framework was compiled with",
            )
        } else {
            (
                "torch.multiple_installs",
                "the cuDNN loaded is newer than the one the framework was compiled with",
            )
        };
        raise(causes, cause, 0.8, why);
        changed = true;
    }
    // A floor the message names ("Requires NVIDIA GPU with compute capability 3.0") that the
    // GPU the text names meets ("my graphics card does have compute capability 7.5"): not the
    // GPU; the build has no kernels at all (UPBGE/upbge#1738: a source build without CUDA).
    if rule == "arch.library_floor" && listed(causes, "torch.cpu_only") {
        if let Some((need, have)) = floor_met(text) {
            raise(
                causes,
                "torch.cpu_only",
                0.9,
                format!("the text names compute capability {have}, above the {need} the message requires"),
            );
            changed = true;
        }
    }
    if listed(causes, "driver.too_old_for_torch") {
        let said = small(DRIVER_SAID_TOO_OLD).is_some_and(|re| re.is_match(text));
        let needs = if small(r"\+cu12\d\b").is_some_and(|re| re.is_match(text)) {
            525
        } else if small(r"\+cu11\d\b").is_some_and(|re| re.is_match(text)) {
            450
        } else {
            418
        };
        let old_branch = small(DRIVER_VERSION)
            .and_then(|re| {
                re.captures_iter(text)
                    .filter_map(|c| c.get(1)?.as_str().parse::<u32>().ok())
                    .filter(|b| (300..700).contains(b))
                    .min()
            })
            .filter(|b| *b < needs);
        // An old driver named beside a runtime other than PyTorch (MXNet, Paddle, ONNX
        // Runtime, CuPy, TensorRT, ...) and no torch: that runtime's own CUDA needs the newer
        // driver (apache/mxnet#2508), not a torch build.
        let other_runtime = !said
            && small(OTHER_CUDA_RUNTIME).is_some_and(|re| re.is_match(text))
            && !small(r"\btorch\b|pytorch").is_some_and(|re| re.is_match(text));
        if let (true, Some(b)) = (other_runtime, old_branch) {
            raise(
                causes,
                "driver.too_old_for_toolkit",
                0.6,
                format!("the text names driver {b} and a CUDA program other than PyTorch, which brings its own CUDA runtime"),
            );
            changed = true;
        } else if said || old_branch.is_some() {
            raise(causes, "driver.too_old_for_torch", 0.6, match old_branch {
                Some(b) => format!("the text names driver {b}, older than the {needs} branch this torch's CUDA needs"),
                None => "the text says the driver is too old".to_string(),
            });
            changed = true;
        }
    }
    changed
}

/// The capability floor a message requires and a higher capability the text names for the GPU
/// (both as "major.minor"), where the text names one above the floor.
fn floor_met(text: &str) -> Option<(String, String)> {
    let cc = |m: &regex::Captures| -> Option<(u32, u32)> {
        Some((
            m.get(1)?.as_str().parse().ok()?,
            m.get(2)?.as_str().parse().ok()?,
        ))
    };
    let need = small(r"(?:requires?|minimum required|needs?|at least)[^\n]{0,60}?(?:compute|cuda) capability(?: of| is|:)? (\d{1,2})\.(\d)")?
        .captures(text)
        .and_then(|m| cc(&m))?;
    let have = small(r"(?:compute|cuda) capability(?: of| is|:)? (\d{1,2})\.(\d)")?
        .captures_iter(text)
        .filter_map(|m| cc(&m))
        .max()?;
    (have > need).then(|| {
        (
            format!("{}.{}", need.0, need.1),
            format!("{}.{}", have.0, have.1),
        )
    })
}

/// A CUDA runtime other than PyTorch named in a text (it brings its own CUDA runtime).
const OTHER_CUDA_RUNTIME: &str = r"\bmxnet\b|\bpaddle\w*|onnxruntime|\bcupy\b|\bnumba\b|\bjaxlib\b|tensorrt|trtexec|\bcaffe\b|\bgromacs\b|\blammps\b|\bopenmm\b|\bhashcat\b|\bblender\b";

/// Adds `by` to the weight of cause `id`, where the match lists it, with `note` as the evidence.
fn raise(causes: &mut [RankedCause], id: &str, by: f64, note: impl Into<String>) {
    if let Some(k) = causes.iter_mut().find(|k| k.id == id) {
        k.weight += by;
        k.evidence.push(note.into());
    }
}

/// Whether a "Loaded runtime CuDNN library: A … but source was compiled with: B" names a loaded
/// version A newer than B. Versions come dotted ("7.4.1") or as cuDNN's integer (`4007`, `5103`:
/// major·1000 + minor·100 + patch; from cuDNN 9 `90100`: major·10000 + minor·100 + patch).
fn cudnn_loaded_newer(text: &str) -> bool {
    fn version(s: &str) -> Option<(u32, u32, u32)> {
        if s.contains('.') {
            let mut it = s.split('.').map(|p| p.parse::<u32>().ok());
            return Some((
                it.next()??,
                it.next().flatten().unwrap_or(0),
                it.next().flatten().unwrap_or(0),
            ));
        }
        let n = s.parse::<u32>().ok()?;
        Some(if n >= 10000 {
            (n / 10000, n / 100 % 100, n % 100)
        } else {
            (n / 1000, n / 100 % 10, n % 100)
        })
    }
    small(r"Loaded\s+(?:runtime\s+)?CuDNN\s*l\s*i\s*b\s*r\s*a\s*r\s*y:?\s*(\d+(?:\.\d+)*)[^\n]{0,60}\s*but\s+source\s+was\s+compiled\s+(?:with|against):?\s*(\d+(?:\.\d+)*)")
        .and_then(|re| re.captures(text))
        .and_then(|c| Some((version(c.get(1)?.as_str())?, version(c.get(2)?.as_str())?)))
        .is_some_and(|(loaded, compiled)| loaded > compiled)
}

/// Numbers and names in the message that the causes can use.
fn extract(text: &str, matched: &str, line: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let here = format!("{matched}\n{line}");
    if let Some(sm) = small(r"\b(sm_\d{2,3}a?)\b")
        .and_then(|re| re.captures(&here).or_else(|| re.captures(text)))
        .and_then(|c| c.get(1))
    {
        out.insert("sm".into(), sm.as_str().to_string());
    } else if let Some(cc) = small(r"cuda capability (\d+)\.(\d+)")
        .and_then(|re| re.captures(text))
        .and_then(|c| Some(format!("sm_{}{}", c.get(1)?.as_str(), c.get(2)?.as_str())))
    {
        out.insert("sm".into(), cc);
    }
    if let Some(v) = small(r"found version (\d{4,6})")
        .and_then(|re| re.captures(text))
        .and_then(|c| c.get(1)?.as_str().parse::<i64>().ok())
    {
        out.insert(
            "driver_cuda".into(),
            crate::version::cuda_version_from_int(v),
        );
    }
    if let Some(t) = small(r"\btorch(?:==| |-)(\d+\.\d+(?:\.\d+)?(?:\+(?:cu\d+|cpu|rocm[\d.]+))?)")
        .and_then(|re| re.captures(text))
        .and_then(|c| c.get(1))
    {
        out.insert("torch".into(), t.as_str().to_string());
    }
    if let Some(p) = small(r"Xid \(PCI:([0-9A-Fa-f:.]+)\)")
        .and_then(|re| re.captures(&here))
        .and_then(|c| c.get(1))
    {
        out.insert("pci".into(), p.as_str().to_string());
    }
    if let Some(gpu) = small(r"(NVIDIA [A-Za-z][\w -]{2,40}?|GeForce [\w ]{3,30}?|Tesla [\w-]{2,20}) with CUDA capability")
        .and_then(|re| re.captures(text))
        .and_then(|c| c.get(1))
    {
        out.insert("gpu".into(), gpu.as_str().trim().to_string());
    }
    if let Some((n, name)) = small(r"(?:error|returned|code|failure)[\s:=(]*(\d{1,3})\b")
        .and_then(|re| re.captures(&here))
        .and_then(|c| c.get(1)?.as_str().parse::<u32>().ok())
        .and_then(|n| cuda_error_name(n).map(|name| (n, name)))
    {
        out.insert("cuda_error".into(), format!("{n} ({name})"));
    }
    if let Some(so) = small(r"([\w./+-]*\.so[\w.]*): undefined symbol")
        .and_then(|re| re.captures(&here))
        .and_then(|c| c.get(1))
    {
        out.insert("library".into(), so.as_str().to_string());
    }
    if let Some(sym) = small(r"undefined symbol:\s*([\w@.]+)")
        .and_then(|re| re.captures(&here))
        .and_then(|c| c.get(1))
    {
        out.insert("symbol".into(), sym.as_str().to_string());
    }
    out
}

/// cudaError_t / CUresult numbers that appear bare in messages ("error 802",
/// "cudaGetDeviceCount returned 35"), by the runtime's enum name.
pub fn cuda_error_name(code: u32) -> Option<&'static str> {
    generic::status_name(code)
}

/// Adjustments that need the message's numbers, not only its words.
fn specialise(
    rule: &str,
    text: &str,
    extracted: &BTreeMap<String, String>,
    causes: &mut [RankedCause],
) {
    let bump = |causes: &mut [RankedCause], id: &str, delta: f64, note: Option<String>| {
        if let Some(k) = causes.iter_mut().find(|k| k.id == id) {
            k.weight = (k.weight + delta).max(0.0);
            if let Some(n) = note {
                k.evidence.push(n);
            }
        }
    };
    match rule {
        "cuda.out_of_memory" => {
            // The cudaMallocAsync backend's message (ComfyUI's default): what this process holds
            // plus what it asked for fits under the device limit, yet CUDA has nothing free:
            // the rest is held by other programs (Comfy-Org/ComfyUI#3278).
            if let Some(a) = async_oom_figures(text) {
                let elsewhere = a.limit - a.allocated - a.free;
                if a.allocated + a.requested < a.limit && a.free < a.requested && elsewhere > 0.0 {
                    bump(
                        causes,
                        "gpu.busy",
                        0.6,
                        Some(format!(
                            "the message says {:.2} GiB of {:.2} GiB is held outside this process: its {:.2} GiB plus the {:.2} GiB asked for would fit",
                            elsewhere, a.limit, a.allocated, a.requested
                        )),
                    );
                }
            }
            if let Some(pct) = nvidia_smi_memory_use(text) {
                if pct > 0.9 {
                    bump(
                        causes,
                        "gpu.busy",
                        0.4,
                        Some(format!(
                            "the pasted nvidia-smi shows a GPU with {:.0}% of its memory in use",
                            pct * 100.0
                        )),
                    );
                }
            }
            if let Some(o) = oom_figures(text) {
                if let (Some(total), Some(free), Some(mine)) = (o.total, o.free, o.this_process) {
                    let others = (total - free - mine).max(0.0);
                    if total > 0.0 && others / total > 0.25 {
                        bump(causes, "gpu.busy", 0.6, Some(format!("the message says {:.2} GiB of {:.2} GiB is used outside this process", others, total)));
                    }
                }
                if let Some(reserved) = o.reserved_unallocated {
                    if reserved > 1.0 {
                        bump(causes, "workload.out_of_memory", 0.0, Some(format!("{reserved:.2} GiB is reserved by PyTorch but unallocated: fragmentation; `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` helps")));
                    }
                }
            }
        }
        "gpu.xid" => {
            // NVIDIA's catalogue: an application fault (13/31/43) that repeats across
            // programs points at the GPU or driver, not at one program. Processes count by
            // their name where the line gives one: two pids of one program (Chrome's
            // processes, a restarted job) are still one program's fault
            // (NVIDIA/open-gpu-kernel-modules#363).
            let pids: std::collections::BTreeSet<&str> =
                small(r"Xid \(PCI:[^)]*\): \d+, pid=(\d+)(?:, name=([^\s,]+))?")
                    .map(|re| {
                        re.captures_iter(text)
                            .filter_map(|c| c.get(2).or_else(|| c.get(1)).map(|m| m.as_str()))
                            .collect()
                    })
                    .unwrap_or_default();
            if pids.len() >= 2 {
                bump(
                    causes,
                    "gpu.xid",
                    0.5,
                    Some(format!(
                        "Xids from {} different programs: not one program's fault",
                        pids.len()
                    )),
                );
            }
        }
        "cuda.driver_too_old" => {
            // No PyTorch anywhere in the text: a program built with a toolkit.
            // ("RuntimeError: CUDA error: …" is PyTorch's own wording.)
            if !small(r"\btorch|pytorch|site-packages|\.py\b|python|found version|RuntimeError: CUDA error")
                .is_some_and(|re| re.is_match(text))
            {
                bump(causes, "driver.too_old_for_toolkit", 0.3, None);
            }
            if let Some(cuda) = extracted.get("driver_cuda") {
                for k in causes
                    .iter_mut()
                    .filter(|k| k.id == "driver.too_old_for_torch")
                {
                    k.observed = true;
                }
                bump(
                    causes,
                    "driver.too_old_for_torch",
                    0.0,
                    Some(format!(
                        "'found version' says the installed driver supports CUDA {cuda} at most"
                    )),
                );
            }
        }
        "import.undefined_symbol" => {
            if let Some(lib) = extracted.get("library") {
                let name = lib.rsplit('/').next().unwrap_or(lib);
                let cuda_lib = lib.contains("/nvidia/")
                    || small(r"^lib(?:cu\w+|nccl|nvJitLink|nvrtc|nvToolsExt)\.so")
                        .is_some_and(|re| re.is_match(name));
                let torch_lib =
                    small(r"^lib(?:torch(?:_\w+)?|c10\w*)\.so").is_some_and(|re| re.is_match(name));
                // The missing symbol is a CUDA library's C API (cudnnSetConvolutionGroupCount,
                // __nvJitLinkAddData_12_1, cublasLt…): that library was loaded in another
                // version than the one the caller was built against (pytorch/pytorch#3251).
                let cuda_symbol = extracted.get("symbol").is_some_and(|sym| {
                    small(r"^_{0,2}(?:cudnn|cublas|cusparse|cusolver|cufft|curand|nccl|nvJitLink|nvrtc|cuda[A-Z]|cu[A-Z])")
                        .is_some_and(|re| re.is_match(sym))
                });
                if cuda_lib || cuda_symbol {
                    // A CUDA library missing a sibling's symbol: another copy of the
                    // sibling (system, LD_LIBRARY_PATH) was loaded first.
                    bump(causes, "torch.libs_shadowed", 0.5, None);
                    bump(causes, "ext.abi_mismatch", -0.4, None);
                } else if torch_lib {
                    bump(causes, "torch.wheel_deps_mismatch", 0.3, None);
                    bump(causes, "ext.abi_mismatch", -0.4, None);
                } else {
                    bump(causes, "ext.abi_mismatch", 0.2, None);
                }
            }
        }
        _ => {}
    }
}

#[derive(Debug, Default, Clone, Copy)]
struct OomFigures {
    total: Option<f64>,
    free: Option<f64>,
    this_process: Option<f64>,
    reserved_unallocated: Option<f64>,
}

/// The highest memory use (fraction) of the GPU rows of a pasted `nvidia-smi` table
/// ("|  15514MiB / 16130MiB |").
fn nvidia_smi_memory_use(text: &str) -> Option<f64> {
    let re = small(r"\|\s*(\d+)MiB\s*/\s*(\d+)MiB\s*\|")?;
    re.captures_iter(text)
        .filter_map(|c| {
            let used: f64 = c.get(1)?.as_str().parse().ok()?;
            let total: f64 = c.get(2)?.as_str().parse().ok()?;
            (total > 0.0).then(|| used / total)
        })
        .fold(None, |acc: Option<f64>, x| {
            Some(acc.map_or(x, |a| a.max(x)))
        })
}

#[derive(Debug, Clone, Copy)]
struct AsyncOomFigures {
    allocated: f64,
    requested: f64,
    limit: f64,
    free: f64,
}

/// The figures of PyTorch's cudaMallocAsync out-of-memory message, in GiB ("Currently allocated
/// : 21.55 GiB", "Requested : 952.00 MiB", "Device limit : 24.00 GiB", "Free (according to
/// CUDA): 0 bytes").
fn async_oom_figures(text: &str) -> Option<AsyncOomFigures> {
    let gib = |pattern: &'static str| -> Option<f64> {
        let c = small(pattern)?.captures(text)?;
        let v: f64 = c.get(1)?.as_str().parse().ok()?;
        let unit = c.get(2)?.as_str().to_ascii_lowercase();
        let f = match unit.chars().next()? {
            'b' => 1.0 / (1024.0 * 1024.0 * 1024.0),
            'k' => 1.0 / (1024.0 * 1024.0),
            'm' => 1.0 / 1024.0,
            'g' => 1.0,
            't' => 1024.0,
            _ => return None,
        };
        Some(v * f)
    };
    Some(AsyncOomFigures {
        allocated: gib(r"Currently allocated\s*:\s*([\d.]+)\s*([KMGT]i?B|bytes)")?,
        requested: gib(r"Requested\s*:\s*([\d.]+)\s*([KMGT]i?B|bytes)")?,
        limit: gib(r"Device limit\s*:\s*([\d.]+)\s*([KMGT]i?B|bytes)")?,
        free: gib(r"Free \(according to CUDA\)\s*:\s*([\d.]+)\s*([KMGT]i?B|bytes)")?,
    })
}

/// PyTorch's OOM message figures, in GiB.
fn oom_figures(text: &str) -> Option<OomFigures> {
    let gib = |n: &str, unit: &str| -> Option<f64> {
        let v: f64 = n.parse().ok()?;
        let f = match unit.chars().next()? {
            'K' => 1.0 / (1024.0 * 1024.0),
            'M' => 1.0 / 1024.0,
            'G' => 1.0,
            'T' => 1024.0,
            _ => return None,
        };
        Some(v * f)
    };
    let grab = |pattern: &'static str| -> Option<f64> {
        let re = small(pattern)?;
        let c = re.captures(text)?;
        gib(c.get(1)?.as_str(), c.get(2)?.as_str())
    };
    // PyTorch < 2.1: "(GPU 0; 7.92 GiB total capacity; 69.17 MiB already allocated;
    // 24.56 MiB free; 86.00 MiB reserved in total by PyTorch)": the process also holds
    // its CUDA context (about half a GiB) besides what PyTorch reserved.
    let reserved_old = grab(r"([\d.]+) ?([KMGT]i?B) reserved in total by PyTorch").map(|r| r + 0.5);
    let f = OomFigures {
        total: grab(r"total capacity of ([\d.]+) ?([KMGT]i?B)")
            .or_else(|| grab(r"([\d.]+) ?([KMGT]i?B) total capacity")),
        free: grab(r"of which ([\d.]+) ?([KMGT]i?B) (?:is )?free")
            .or_else(|| grab(r"([\d.]+) ?([KMGT]i?B) free;")),
        this_process: grab(r"this process has ([\d.]+) ?([KMGT]i?B) memory in use")
            .or(reserved_old),
        reserved_unallocated: grab(r"([\d.]+) ?([KMGT]i?B) is reserved by PyTorch but unallocated"),
    };
    (f.total.is_some() || f.reserved_unallocated.is_some()).then_some(f)
}

/// Confidence from weights (summing to at most 1), most likely first.
fn rank(m: &mut Match) {
    let sum: f64 = m.causes.iter().map(|k| k.weight).sum();
    let scale = if sum > 1.0 { 1.0 / sum } else { 1.0 };
    // Rounded to the nearest percent, many small weights can still sum past 1 (0.995 in
    // eleven causes' halves); then they are rounded down too.
    let rounded: f64 = m
        .causes
        .iter()
        .map(|k| (k.weight * scale * 100.0).round())
        .sum();
    let down = scale < 1.0 || rounded > 100.0;
    for k in &mut m.causes {
        // Scaled confidences are rounded down, so they still sum to at most 1.
        let pct = k.weight * scale * 100.0;
        k.confidence = if down {
            (pct + 1e-9).floor() / 100.0
        } else {
            pct.round() / 100.0
        };
    }
    // A cause the message observed comes first; then by weight.
    m.causes.sort_by(|a, b| {
        b.observed.cmp(&a.observed).then(
            b.weight
                .partial_cmp(&a.weight)
                .unwrap_or(std::cmp::Ordering::Equal),
        )
    });
}

/// Refines the ranking with a machine's findings: a cause the machine's checks confirm
/// (fail or warn) rises and takes the finding's exact fix; one they rule out (only
/// passes) falls. `facts` names whose findings these are.
pub fn refine(ex: &mut Explanation, findings: &[Finding], facts: &str) {
    ex.facts = facts.to_string();
    for m in &mut ex.matches {
        for k in &mut m.causes {
            let same: Vec<&Finding> = findings.iter().filter(|f| f.id == k.id).collect();
            if same.is_empty() {
                continue;
            }
            let worst = same.iter().map(|f| f.severity).max();
            match worst {
                Some(Severity::Fail | Severity::Warn) => {
                    let bad: Vec<&&Finding> = same
                        .iter()
                        .filter(|f| f.severity >= Severity::Warn)
                        .collect();
                    k.weight += if worst == Some(Severity::Fail) {
                        1.0
                    } else {
                        0.4
                    };
                    for f in &bad {
                        k.evidence
                            .push(format!("{facts}: {} ({})", f.summary, f.severity));
                    }
                    if let Some(fix) = bad.first().and_then(|f| f.fix.as_ref()) {
                        k.fix = fix.text.clone();
                        k.commands = fix.commands.clone();
                    }
                }
                Some(Severity::Pass) if k.observed => {
                    if let Some(f) = same.first() {
                        k.evidence.push(format!(
                            "{facts} says otherwise ({}), but the message observed it: the error came from another environment or driver than the one described",
                            f.summary
                        ));
                    }
                }
                Some(Severity::Pass) => {
                    k.weight *= 0.25;
                    if let Some(f) = same.first() {
                        k.evidence
                            .push(format!("{facts}: ruled out: {}", f.summary));
                    }
                }
                _ => {}
            }
        }
        rank(m);
    }
    nccl::refine(ex, findings, facts);
}

/// Uses the compatibility matrix on the numbers read from the messages (no machine
/// facts needed): the PyTorch build that has kernels for an `sm_XX`, the driver a
/// build's CUDA needs. Adds commands and evidence; the ranking does not change.
pub fn enrich(ex: &mut Explanation, matrix: &crate::matrix::Matrix) {
    use crate::matrix::query::{cuda_of_variant, install_command};
    for m in &mut ex.matches {
        if let Some(cc) = m.extracted.get("sm").and_then(|s| sm_to_cc(s)) {
            if let Some((rel, var)) = matrix.recommend_torch(&[cc], None, None, "linux_x86_64") {
                let cmd = install_command("python", rel, var);
                let sm = format!("sm_{}{}", cc.0, cc.1);
                for k in m
                    .causes
                    .iter_mut()
                    .filter(|k| k.id == "torch.arch_unsupported")
                {
                    let driver = matrix
                        .min_driver_for_cuda(&var.cuda)
                        .map(|d| format!(", with driver {d} or newer"))
                        .unwrap_or_default();
                    k.evidence.push(format!(
                        "matrix {}: PyTorch {} ({}) has kernels for {sm}{driver}",
                        matrix.manifest.version, rel.version, var.name
                    ));
                    if k.commands.is_empty() {
                        k.commands.push(cmd.clone());
                    }
                }
            }
        }
        if let Some(variant) = m
            .extracted
            .get("torch")
            .and_then(|t| t.split_once('+'))
            .and_then(|(_, v)| cuda_of_variant(v))
        {
            if let Some(needed) = matrix.min_driver_for_cuda(&variant) {
                let have = m
                    .extracted
                    .get("driver_cuda")
                    .map(|c| format!("; the installed driver supports CUDA {c}"))
                    .unwrap_or_default();
                for k in m
                    .causes
                    .iter_mut()
                    .filter(|k| k.id == "driver.too_old_for_torch")
                {
                    k.evidence.push(format!(
                        "matrix {}: a CUDA {variant} build needs driver {needed} or newer{have}",
                        matrix.manifest.version
                    ));
                }
            }
        }
    }
}

/// "sm_120" -> (12, 0); "sm_86" -> (8, 6); "sm_90a" -> (9, 0).
fn sm_to_cc(sm: &str) -> Option<(u32, u32)> {
    let digits: String = sm
        .strip_prefix("sm_")?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    if digits.len() < 2 {
        return None;
    }
    let (major, minor) = digits.split_at(digits.len() - 1);
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// The error torch raised, with what `explain` makes of it appended (the same decoder a
/// pasted error goes through), e.g. "… Error 36 … [gpu-doctor: driver.too_old_for_torch:
/// CUDA error 36 is cudaErrorCallRequiresNewerDriver …]". Unchanged when nothing matches.
pub fn decode_error(error: &str) -> String {
    let ex = explain_in(&format!("{error}\n(raised by torch)"), "");
    match ex
        .primary
        .and_then(|i| ex.matches.get(i))
        .and_then(|m| m.causes.first())
    {
        Some(k) => format!("{error} [gpu-doctor: {}: {}]", k.id, k.why),
        None => error.to_string(),
    }
}

/// The top cause of the primary match.
pub fn top_cause(ex: &Explanation) -> Option<&RankedCause> {
    ex.matches.get(ex.primary?)?.causes.first()
}

/// `explain`'s exit code when the text holds no error it knows.
pub const NOTHING_FOUND: i32 = 1;

/// Causes `explain` names that no check judges: machine faults only an error message or the
/// kernel log shows, the workload's own faults, and "none".
pub const EXPLAIN_ONLY_IDS: &[&str] = &[
    "ext.abi_mismatch",
    "workload.grid_limit",
    "workload.out_of_memory",
    "workload.cublas_alloc",
    "workload.illegal_address",
    "workload.device_assert",
    "workload.stream_capture",
    "workload.shared_memory",
    "workload.nccl",
    "workload.library_bug",
    "toolkit.host_compiler_unsupported",
    "workload.gpu_not_requested",
    "host.scheduler_config",
    "host.msvc_runtime_missing",
    "gpu.display_watchdog",
    "host.non_ascii_path",
    "none",
];

/// Every id `explain` may name: the check catalogue's ids, then [`EXPLAIN_ONLY_IDS`].
pub static KNOWN_IDS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    crate::checks::ALL
        .iter()
        .map(|c| c.id)
        .chain(EXPLAIN_ONLY_IDS.iter().copied())
        .collect()
});

#[cfg(test)]
mod tests;
