//! `gpu-doctor fleet`: runs `gpu-doctor --json` on many hosts over the system ssh, in a
//! bounded pool, and aggregates what comes back.
//!
//! ```text
//! inventory::expand / parse_list  -> Vec<Target>      the host-list grammar, validated
//! run(&[Target], &FleetOptions)   -> Vec<HostResult>  ssh::run_one + classify::classify per host
//! aggregate::groups / drift       -> folded rows, outliers against the majority
//! render::plain / json            -> what the operator reads; exit code = the worst host
//! ```
//!
//! Every host ends in exactly one [`Status`]. Nothing a remote host prints reaches the
//! terminal unfiltered, and only a bounded number of bytes of it is read.

pub mod aggregate;
pub mod classify;
pub mod cmd;
pub mod expect;
pub mod inventory;
pub mod prometheus;
pub mod render;
pub mod reports;
pub mod ssh;
pub use crate::tui::fleet as tui; // moved: src/tui/fleet.rs

/// The environment variable naming the ssh program (default `ssh` on PATH).
pub const SSH_ENV: &str = "GPU_DOCTOR_SSH";

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::checks::view;
use crate::finding::Severity;
use crate::report::{exit, Report, Verdict};
use inventory::Target;
use ssh::{Mode, SshOptions};

/// `gpu-doctor fleet` arguments.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = FLEET_HELP)]
pub struct FleetArgs {
    /// Hosts: `[user@]host[:port]`, ranges `node[01-32]`, lists `gpu-[a,b,c]`; `-` reads a host list from stdin. Options go before the hosts: after the first host, every argument up to `--` must be a host.
    #[arg(value_name = "HOST")]
    pub hosts: Vec<String>,

    /// Read hosts from FILE: one per line, `#` comments, the same grammar ('-' for stdin).
    #[arg(long = "hosts", value_name = "FILE")]
    pub hosts_file: Vec<PathBuf>,

    /// At most N ssh connections at once.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub jobs: u32,

    /// Seconds one host may take in all (connection included) before it counts as `timeout`.
    #[arg(long, value_name = "SECS", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub timeout: u64,

    /// ssh's ConnectTimeout, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub connect_timeout: u64,

    /// The gpu-doctor command on the hosts (a remote shell command line).
    #[arg(long, value_name = "CMD", default_value = "gpu-doctor")]
    pub remote_cmd: String,

    /// Where gpu-doctor is missing, older than this one or unreadable, copy this binary to a private temporary folder on the host, run it and remove it.
    #[arg(long)]
    pub push: bool,

    /// Use this ssh_config file (`ssh -F FILE`) instead of ~/.ssh/config.
    #[arg(long, value_name = "FILE")]
    pub ssh_config: Option<PathBuf>,

    /// Extra ssh option (`ssh -o OPTION`), repeatable, e.g. -o User=ops.
    #[arg(long = "ssh-option", short = 'o', value_name = "OPTION")]
    pub ssh_options: Vec<String>,

    /// Refuse remote output larger than this many bytes (`bad_output`).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_OUTPUT_BYTES)]
    pub max_output: u64,

    /// Read saved reports from DIR instead of running ssh: one file per host, as `srun gpu-doctor --json > DIR/%N.json`, pdsh, Ansible or a Kubernetes Job write them.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["hosts", "hosts_file", "push"])]
    pub reports: Option<PathBuf>,

    /// With --reports: name each host by its file (less `.json`) or by the host name in its report.
    #[arg(long, value_enum, value_name = "FROM", default_value_t = reports::Names::File, requires = "reports")]
    pub names: reports::Names,

    /// Compare every host with this known-good node's saved report instead of with the majority; any drift makes the exit code at least 1.
    #[arg(long, value_name = "REPORT")]
    pub golden: Option<PathBuf>,

    /// Judge every host against this profile (a TOML profile or a known-good node's saved report, as `gpu-doctor --expect`): read once here and applied to each host's report (host.drift, and host.expected_gpus from its `gpus`); nothing is copied to the hosts.
    #[arg(long, value_name = "PROFILE")]
    pub expect: Option<PathBuf>,

    /// Arguments for the remote gpu-doctor after `--json` (after `--`, e.g. -- --expect-gpus 8).
    #[arg(last = true, value_name = "ARGS")]
    pub remote_args: Vec<String>,
}

pub const FLEET_HELP: &str = "\
Statuses: ok, unreachable, auth_failed, host_key_mismatch, timeout, not_installed,
incompatible, bad_output, error. Exit code: the worst host (0 ok, 1 warnings, 2 failures or any
host not ok, 3 bad arguments). ssh runs with BatchMode=yes; GPU_DOCTOR_SSH names another ssh.
With --reports DIR, each saved file gets the status an ssh host printing it would (an empty,
truncated or foreign file is bad_output, an older schema incompatible).";

pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 16 * 1024 * 1024;

/// The one outcome of each host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    Unreachable,
    AuthFailed,
    HostKeyMismatch,
    Timeout,
    NotInstalled,
    Incompatible,
    BadOutput,
    Error,
}

impl Status {
    pub const ALL: [Status; 9] = [
        Status::Ok,
        Status::Unreachable,
        Status::AuthFailed,
        Status::HostKeyMismatch,
        Status::Timeout,
        Status::NotInstalled,
        Status::Incompatible,
        Status::BadOutput,
        Status::Error,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Unreachable => "unreachable",
            Status::AuthFailed => "auth_failed",
            Status::HostKeyMismatch => "host_key_mismatch",
            Status::Timeout => "timeout",
            Status::NotInstalled => "not_installed",
            Status::Incompatible => "incompatible",
            Status::BadOutput => "bad_output",
            Status::Error => "error",
        }
    }
}

/// What the fleet views need from one report, extracted once (the report itself is
/// kept as compact JSON).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostSummary {
    pub verdict: Verdict,
    pub exit_code: i32,
    pub pass: u32,
    pub info: u32,
    pub warn: u32,
    pub fail: u32,
    /// GPUs any source sees (PCI, NVML, device nodes).
    pub gpus: u32,
    /// GPU models (NVML names, else PCI ids), each once, sorted.
    pub gpu_models: Vec<String>,
    pub driver: Option<String>,
    /// The highest CUDA version the driver supports.
    pub cuda: Option<String>,
    pub toolkits: Vec<String>,
    /// Torch builds, e.g. "2.4.1 (CUDA 12.1)", each once, sorted.
    pub torch: Vec<String>,
    pub matrix: String,
    pub gpu_doctor: String,
    /// Warn and fail findings as `id:severity`, failures first.
    pub problems: Vec<String>,
    /// The first failure or warning: its id and summary.
    pub top_finding: Option<String>,
    pub top_summary: Option<String>,
}

impl HostSummary {
    pub fn of(r: &Report) -> HostSummary {
        use classify::clean_text;
        let f = &r.facts;
        let c = |s: &str| clean_text(s, 80);
        let mut models: Vec<String> = view::nvml_devices(f)
            .iter()
            .filter_map(|d| d.name.value().map(|n| c(n)))
            .collect();
        if models.is_empty() {
            if let Some(pci) = f.pci_gpus.value() {
                models = pci
                    .iter()
                    .map(|g| c(&format!("{}:{}", g.vendor_id, g.device_id)))
                    .collect();
            }
        }
        models.sort();
        models.dedup();
        let mut torch: Vec<String> = f
            .python
            .iter()
            .flat_map(|e| e.torch.first())
            .map(|t| {
                let v = t.version.value().map_or("?", String::as_str);
                match t.cuda.value() {
                    Some(Some(cu)) => c(&format!("{v} (CUDA {cu})")),
                    Some(None) => c(&format!("{v} (CPU-only)")),
                    None => c(v),
                }
            })
            .collect();
        torch.sort();
        torch.dedup();
        let mut toolkits: Vec<String> = f
            .toolkits
            .toolkits
            .iter()
            .filter_map(|t| t.version.value().map(|v| c(v)))
            .collect();
        toolkits.sort();
        toolkits.dedup();
        let problems: Vec<&crate::finding::Finding> = r
            .findings
            .iter()
            .filter(|x| x.severity >= Severity::Warn)
            .collect();
        let mut problem_ids: Vec<String> = problems
            .iter()
            .map(|x| c(&format!("{}:{}", x.id, severity_name(x.severity))))
            .collect();
        problem_ids.dedup();
        // The text report's "Cause": a real H100 whose cuInit failed showed
        // torch.cuda_unavailable here, the last failure, not the cuInit it followed from.
        let top = crate::report::lead_cause(r);
        HostSummary {
            verdict: r.summary.verdict,
            exit_code: r.exit_code,
            pass: r.summary.pass,
            info: r.summary.info,
            warn: r.summary.warn,
            fail: r.summary.fail,
            gpus: u32::try_from(view::gpus_seen(f)).unwrap_or(u32::MAX),
            gpu_models: models,
            driver: view::driver_version(f).map(|v| c(&v.to_string())),
            cuda: view::nvml(f)
                .and_then(|n| n.cuda_driver_version.value().cloned())
                .or_else(|| view::cuda(f).and_then(|x| x.driver_version.value().cloned()))
                .map(|v| c(&v)),
            toolkits,
            torch,
            matrix: c(&r.matrix.version),
            gpu_doctor: c(&r.tool.version),
            problems: problem_ids,
            top_finding: top.map(|x| c(&x.id)),
            top_summary: top.map(|x| clean_text(&x.summary, 200)),
        }
    }
}

pub fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Pass => "pass",
        Severity::Info => "info",
        Severity::Warn => "warn",
        Severity::Fail => "fail",
    }
}

/// One host's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct HostResult {
    /// The host as written (after range expansion).
    pub host: String,
    pub status: Status,
    /// This host's contribution to the exit code: its report's (3 counts as 2), 2 when not ok.
    pub exit_code: i32,
    pub elapsed_ms: u64,
    /// True when the local binary was pushed to get this result.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pushed: bool,
    /// Why the status is not ok (ssh's own error text, cleaned), or a note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<HostSummary>,
    /// The host's whole report (schema `assets/report.schema.json`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<Box<RawValue>>,
}

impl HostResult {
    /// The report, parsed again, for views that show one host in full: every string in
    /// it made safe for a terminal first (control characters other than newlines become
    /// spaces), since a remote host wrote it. `--json` keeps the report as it came.
    pub fn parsed_report(&self) -> Option<Report> {
        let mut v: serde_json::Value = serde_json::from_str(self.report.as_ref()?.get()).ok()?;
        crate::report::defang(&mut v);
        let mut r: Report = serde_json::from_value(v).ok()?;
        r.restore_ids();
        Some(r)
    }

    pub fn verdict(&self) -> Option<Verdict> {
        self.summary.as_ref().map(|s| s.verdict)
    }
}

/// Everything one fleet run needs, resolved from the arguments.
#[derive(Debug, Clone)]
pub struct FleetOptions {
    pub ssh: SshOptions,
    pub jobs: usize,
    pub push: bool,
    /// Keep each host's whole report (for `--json`, `--prometheus` and the UI); without it
    /// only the summary is kept, so memory stays small with thousands of hosts.
    pub keep_reports: bool,
    /// Keep the reports in the results [`run`] returns, after `on_result` has seen them;
    /// without it `--json` streams each report as it comes and memory stays flat.
    pub retain_reports: bool,
    /// `--expect PROFILE`, read once: each host's report is judged against it.
    pub expect: Option<Arc<expect::Expectation>>,
}

impl FleetOptions {
    pub fn from_args(args: &FleetArgs, ssh_program: Option<&str>) -> FleetOptions {
        FleetOptions {
            ssh: SshOptions {
                program: PathBuf::from(ssh_program.filter(|s| !s.is_empty()).unwrap_or("ssh")),
                config: args.ssh_config.clone(),
                options: args.ssh_options.clone(),
                connect_timeout: Duration::from_secs(args.connect_timeout),
                timeout: Duration::from_secs(args.timeout),
                remote_cmd: args.remote_cmd.clone(),
                remote_args: args.remote_args.clone(),
                max_output_bytes: args.max_output,
                control_dir: None,
                running: ssh::Running::default(),
            },
            jobs: usize::try_from(args.jobs).unwrap_or(1).max(1),
            push: args.push,
            keep_reports: true,
            retain_reports: true,
            expect: None,
        }
    }
}

/// Checks one host: the installed gpu-doctor, then (with `--push`) this binary where
/// that one is missing, older or unreadable.
pub fn check_host(target: &Target, opts: &FleetOptions) -> HostResult {
    let start = Instant::now();
    let raw = ssh::run_one(&opts.ssh, target, Mode::Installed);
    let mut c = classify::classify(&raw, opts.ssh.max_output_bytes);
    let mut pushed = false;
    if opts.push && wants_push(&c) {
        let mut push_opts = opts.ssh.clone();
        push_opts.timeout = opts.ssh.timeout.saturating_sub(start.elapsed());
        if !push_opts.timeout.is_zero() {
            let raw = ssh::run_one(&push_opts, target, Mode::Push);
            c = classify::classify(&raw, opts.ssh.max_output_bytes);
            pushed = true;
        }
    }
    if let (Some(e), Some(r)) = (&opts.expect, c.report.as_mut()) {
        e.apply(r);
    }
    let elapsed_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    let summary = c.report.as_ref().map(HostSummary::of);
    let report = c
        .report
        .as_ref()
        .filter(|_| opts.keep_reports)
        .and_then(|r| crate::report::safe_json::to_string(r).ok())
        .and_then(|s| RawValue::from_string(s).ok());
    let exit_code = match (&c.status, &summary) {
        (Status::Ok, Some(s)) => s.exit_code.clamp(exit::OK, exit::FAILURES),
        _ => exit::FAILURES,
    };
    HostResult {
        host: target.label(),
        status: c.status,
        exit_code,
        elapsed_ms,
        pushed,
        detail: c.detail,
        summary,
        report,
    }
}

fn wants_push(c: &classify::Classified) -> bool {
    match c.status {
        Status::NotInstalled | Status::Incompatible => true,
        Status::Ok => c
            .report
            .as_ref()
            .is_some_and(|r| older(&r.tool.version, env!("CARGO_PKG_VERSION"))),
        _ => false,
    }
}

/// `a < b` for dotted versions (`0.1.0`, `1.2.3-rc1`: the numeric prefix of each part).
pub fn older(a: &str, b: &str) -> bool {
    fn parts(v: &str) -> Vec<u64> {
        v.split(['.', '-', '+'])
            .take(3)
            .map(|p| {
                p.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
                    .parse()
                    .unwrap_or(0)
            })
            .collect()
    }
    parts(a) < parts(b)
}

/// Checks every host with at most `opts.jobs` at once; `on_result(index, &result)` is
/// called (on the calling thread) as each host finishes. Results come back in input order.
pub fn run(
    targets: &[Target],
    opts: &FleetOptions,
    on_result: &mut dyn FnMut(usize, &HostResult),
) -> Vec<HostResult> {
    // Connection sharing pays only where a host gets a second connection: --push.
    let mut opts = opts.clone();
    if opts.push && opts.ssh.control_dir.is_none() {
        opts.ssh.control_dir = ssh::control_dir();
    }
    let results = run_pool(targets, &opts, on_result);
    if let Some(dir) = &opts.ssh.control_dir {
        let _ = std::fs::remove_dir_all(dir);
    }
    results
}

fn run_pool(
    targets: &[Target],
    opts: &FleetOptions,
    on_result: &mut dyn FnMut(usize, &HostResult),
) -> Vec<HostResult> {
    let next = Arc::new(AtomicUsize::new(0));
    let targets: Arc<Vec<Target>> = Arc::new(targets.to_vec());
    let (tx, rx) = mpsc::channel::<(usize, HostResult)>();
    let workers = opts.jobs.min(targets.len());
    for _ in 0..workers {
        let (next, targets, tx, opts) = (next.clone(), targets.clone(), tx.clone(), opts.clone());
        let _ = std::thread::Builder::new().spawn(move || loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(t) = targets.get(i) else { break };
            if tx.send((i, check_host(t, &opts))).is_err() {
                break;
            }
        });
    }
    drop(tx);
    let mut slots: Vec<Option<HostResult>> = vec![None; targets.len()];
    for (i, mut r) in rx {
        on_result(i, &r);
        if !opts.retain_reports {
            r.report = None;
        }
        if let Some(s) = slots.get_mut(i) {
            *s = Some(r);
        }
    }
    slots
        .into_iter()
        .zip(targets.iter())
        .map(|(r, t)| {
            r.unwrap_or_else(|| HostResult {
                host: t.label(),
                status: Status::Error,
                exit_code: exit::FAILURES,
                elapsed_ms: 0,
                pushed: false,
                detail: Some("the worker checking this host stopped".into()),
                summary: None,
                report: None,
            })
        })
        .collect()
}

/// The fleet's exit code: the worst host's; 3 when there were no hosts.
pub fn exit_code(results: &[HostResult]) -> i32 {
    results
        .iter()
        .map(|r| r.exit_code)
        .max()
        .unwrap_or(exit::NO_VERDICT)
}

/// Reads the hosts named on the command line and in `--hosts` files (`-` is stdin).
pub fn targets(args: &FleetArgs) -> Result<Vec<Target>, FleetError> {
    let mut out = Vec::new();
    let mut stdin_used = false;
    let mut read = |path: &std::path::Path, out: &mut Vec<Target>| -> Result<(), FleetError> {
        let name = if path == std::path::Path::new("-") {
            if stdin_used {
                return Ok(());
            }
            stdin_used = true;
            "stdin".to_string()
        } else {
            path.display().to_string()
        };
        // One limit for a file, a pipe (`<(cmd)`, a FIFO: read without blocking, with a
        // time limit on silence) and stdin.
        let bytes = crate::host::open_input(path)
            .and_then(|r| crate::host::read_all_bounded(r, MAX_HOST_FILE_BYTES))
            .map_err(|e| FleetError::HostFile(name.clone(), e.to_string()))?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        out.extend(inventory::parse_list(&text, &name)?);
        Ok(())
    };
    for h in &args.hosts {
        if h == "-" {
            read(std::path::Path::new("-"), &mut out)?;
        } else {
            out.extend(inventory::expand(h, "command line")?);
        }
    }
    for f in &args.hosts_file {
        read(f, &mut out)?;
    }
    let out = inventory::dedup(out);
    if out.is_empty() {
        return Err(FleetError::NoHosts);
    }
    if out.len() > inventory::MAX_HOSTS {
        return Err(FleetError::TooMany(out.len()));
    }
    Ok(out)
}

const MAX_HOST_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a fleet run could not start (exit code 3).
#[derive(Debug, thiserror::Error)]
pub enum FleetError {
    #[error("{0}")]
    Inventory(#[from] inventory::InventoryError),
    #[error("could not read the host list {0}: {1}")]
    HostFile(String, String),
    #[error("no hosts: name them (node[01-04], user@host:22) or give --hosts FILE")]
    NoHosts,
    #[error("{0} hosts is more than the {max} a run takes", max = inventory::MAX_HOSTS)]
    TooMany(usize),
    #[error(
        "no report files in {0} (one file per host, e.g. srun gpu-doctor --json > {0}/%N.json)"
    )]
    NoReports(String),
    #[error("the golden report {0} is not a usable report ({1})")]
    Golden(String, String),
    #[error("ssh option {0:?} starts with '-'; give it as KEY=VALUE")]
    BadSshOption(String),
    #[error("ssh option {0:?} runs a local command; set it in an ssh_config file (--ssh-config FILE) instead")]
    CommandSshOption(String),
}

/// ssh options that make ssh run a command on this machine: refused on the command line,
/// where a host list expanded onto argv could have put them.
const COMMAND_SSH_OPTIONS: [&str; 5] = [
    "proxycommand",
    "localcommand",
    "permitlocalcommand",
    "knownhostscommand",
    "match",
];

/// Validates what is passed to ssh besides hosts.
pub fn check_args(args: &FleetArgs) -> Result<(), FleetError> {
    if let Some(o) = args
        .ssh_options
        .iter()
        .find(|o| o.starts_with('-') || o.chars().any(char::is_control))
    {
        return Err(FleetError::BadSshOption(o.clone()));
    }
    if let Some(o) = args.ssh_options.iter().find(|o| {
        let key = o
            .trim_start()
            .split(|c: char| c == '=' || c.is_whitespace())
            .next()
            .unwrap_or("");
        COMMAND_SSH_OPTIONS
            .iter()
            .any(|k| k.eq_ignore_ascii_case(key.trim_matches('"')))
    }) {
        return Err(FleetError::CommandSshOption(o.clone()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fleet_arguments() {
        use clap::Parser;
        let cli = crate::cli::Cli::try_parse_from([
            "gpu-doctor",
            "fleet",
            "node[1-2]",
            "-j",
            "4",
            "--json",
            "-o",
            "User=ops",
            "--prometheus",
            "/tmp/f.prom",
            "--",
            "--expect-gpus",
            "8",
        ])
        .unwrap();
        let Some(crate::cli::Command::Fleet(f)) = &cli.command else {
            panic!("not fleet: {cli:?}");
        };
        assert!(f.json);
        assert!(f.prometheus.is_some());
        let a = &f.args;
        assert_eq!(a.hosts, ["node[1-2]"]);
        assert_eq!(a.jobs, 4);
        assert_eq!(a.remote_args, ["--expect-gpus", "8"]);
        assert_eq!(targets(a).unwrap().len(), 2);
        let opts = FleetOptions::from_args(a, Some("/usr/bin/ssh"));
        assert_eq!(
            opts.ssh.remote_command(Mode::Installed),
            "gpu-doctor --json --expect-gpus 8"
        );
        assert!(crate::cli::Cli::try_parse_from(["gpu-doctor", "fleet", "a", "-j", "0"]).is_err());
        let bad = crate::cli::Cli::try_parse_from(["gpu-doctor", "fleet", "a", "-o", "-F/x"]);
        if let Ok(crate::cli::Cli {
            command: Some(crate::cli::Command::Fleet(crate::cli::FleetCmd { args: a, .. })),
            ..
        }) = bad
        {
            assert!(check_args(&a).is_err());
        }
        for local in [
            "ProxyCommand=touch /tmp/x",
            "proxycommand touch /tmp/x",
            " LocalCommand=id",
            "KnownHostsCommand=/bin/x",
            "PermitLocalCommand=yes",
        ] {
            let Ok(crate::cli::Cli {
                command: Some(crate::cli::Command::Fleet(crate::cli::FleetCmd { args: a, .. })),
                ..
            }) = crate::cli::Cli::try_parse_from(["gpu-doctor", "fleet", "-o", local, "n1"])
            else {
                panic!("{local:?} not parsed");
            };
            assert!(
                matches!(check_args(&a), Err(FleetError::CommandSshOption(_))),
                "{local:?}"
            );
        }
    }

    #[test]
    fn a_5_mb_host_file_is_read_like_16_mb_of_stdin() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("hosts");
        let mut text = "# padding\n".repeat(500_000);
        text.push_str("node01\n");
        assert!(text.len() > 5_000_000);
        std::fs::write(&p, &text).unwrap();
        let Ok(crate::cli::Cli {
            command: Some(crate::cli::Command::Fleet(crate::cli::FleetCmd { args: a, .. })),
            ..
        }) = <crate::cli::Cli as clap::Parser>::try_parse_from([
            "gpu-doctor",
            "fleet",
            "--hosts",
            p.to_str().unwrap(),
        ])
        else {
            panic!("not parsed");
        };
        assert_eq!(targets(&a).unwrap().len(), 1);
        std::fs::write(&p, "x".repeat(MAX_HOST_FILE_BYTES as usize + 1)).unwrap();
        assert!(targets(&a).unwrap_err().to_string().contains("larger than"));
    }

    #[test]
    fn version_order() {
        assert!(older("0.1.0", "0.2.0"));
        assert!(older("0.9.9", "0.10.0"));
        assert!(!older("0.1.0", "0.1.0"));
        assert!(!older("1.0.0", "0.9.0"));
        assert!(older("garbage", "0.1.0"));
    }

    #[test]
    fn summary_of_a_report() {
        let r = Report::new(
            crate::matrix::bundled(),
            crate::checks::testutil::healthy(),
            vec![crate::finding::Finding::new(
                "env.launch_blocking",
                Severity::Warn,
                "CUDA_LAUNCH_BLOCKING=1\x1b[2J",
            )],
            Vec::new(),
        );
        let s = HostSummary::of(&r);
        assert_eq!(s.verdict, Verdict::Warnings);
        assert_eq!(s.problems, ["env.launch_blocking:warn"]);
        assert_eq!(s.top_finding.as_deref(), Some("env.launch_blocking"));
        assert_eq!(s.top_summary.as_deref(), Some("CUDA_LAUNCH_BLOCKING=1 [2J"));
    }

    /// The top finding is the root cause: not the last failure, not one another explains.
    #[test]
    fn the_top_finding_is_the_root_cause() {
        use crate::finding::{CauseRef, Finding, Scope};
        let mut torch = Finding::new(
            "torch.cuda_unavailable",
            Severity::Fail,
            "is_available() is False",
        );
        torch.caused_by = Some(CauseRef {
            id: "driver.cuda_init_failed".into(),
            scope: Scope::Host,
        });
        let findings = vec![
            Finding::new("host.shm_small", Severity::Warn, "/dev/shm is 64 MiB"),
            Finding::new("driver.cuda_init_failed", Severity::Fail, "cuInit failed"),
            Finding::new("driver.nouveau_loaded", Severity::Fail, "nouveau"),
            torch,
        ];
        let r = Report::new(
            crate::matrix::bundled(),
            crate::checks::testutil::healthy(),
            findings,
            Vec::new(),
        );
        let s = HostSummary::of(&r);
        assert_eq!(s.top_finding.as_deref(), Some("driver.cuda_init_failed"));
    }
}
