//! Command-line arguments (clap derive), resolved once into what the pipeline needs.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

pub const EXIT_CODES_HELP: &str = "\
Exit codes:
  0  nothing above info: the machine can run CUDA/PyTorch work
  1  warnings only
  2  at least one failure
  3  gpu-doctor could not reach a verdict (bad arguments, unreadable input, internal error),
     or a file asked for (--save, --prometheus, --labels) could not be written: the report is
     still printed and stderr says why
  (--npd follows node-problem-detector instead: 0 healthy, 1 a problem, 2 unknown)

Findings carry stable ids (e.g. driver.library_mismatch); `gpu-doctor checks` lists them.";

/// The report of this machine is the command without a subcommand: every option below is
/// the report's. A subcommand has its own options (`gpu-doctor SUBCOMMAND --help`); a report
/// option given with a subcommand that does not use it is a usage error ([`parse`]).
#[derive(Debug, Parser)]
#[command(
    name = "gpu-doctor",
    version = crate::version::VERSION,
    long_version = crate::version::LONG_VERSION,
    about = "Tells whether this NVIDIA GPU machine can really run CUDA and PyTorch work, and if not, why and what fixes it",
    after_help = EXIT_CODES_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Print the whole report as JSON (schema: assets/report.schema.json).
    #[arg(long)]
    pub json: bool,

    /// Print the plain text report (the default when stdout is not a terminal).
    #[arg(long, conflicts_with = "json")]
    pub plain: bool,

    /// Also write the JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,

    /// Judge the facts of a saved JSON report (from this or another machine) instead of this machine ('-' reads stdin).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["python", "deep"])]
    pub from: Option<PathBuf>,

    /// Also look at this Python interpreter or environment folder (repeatable); one that is missing, not executable or not a Python is an error (exit 3).
    #[arg(long = "python", value_name = "PATH")]
    pub python: Vec<PathBuf>,

    /// Also run each Python interpreter (with a time limit) to ask torch itself whether CUDA works.
    #[arg(long)]
    pub deep: bool,

    /// Replace the host name, user names, /home/<user> paths and GPU UUIDs with stable hashes (host-…, user-…, GPU-…): the same input gives the same token on every run and host.
    #[arg(long)]
    pub redact: bool,

    /// Fail unless at least N GPUs are usable by CUDA.
    #[arg(long, value_name = "N")]
    pub expect_gpus: Option<u32>,

    /// Report drift (host.drift) from PROFILE: a TOML profile (gpus, gpu_model, nvlinks_per_gpu, driver_branch, cuda, torch) or a saved golden JSON report.
    #[arg(long, value_name = "PROFILE")]
    pub expect: Option<PathBuf>,

    /// Run only these checks: ids or areas, comma-separated (e.g. driver,torch.cpu_only).
    #[arg(long, value_name = "ID|AREA", value_delimiter = ',')]
    pub only: Vec<String>,

    /// Skip these checks: ids or areas, comma-separated.
    #[arg(long, value_name = "ID|AREA", value_delimiter = ',')]
    pub skip: Vec<String>,

    /// Do not run the GPU smoke probes (facts and checks only: about 0.3 s on a GPU node).
    #[arg(long, conflicts_with_all = ["probes", "force"])]
    pub no_probes: bool,

    /// Run only these probes, comma-separated: launch, grid_limit, ordinal, cublaslt, graph, bandwidth, oom (per GPU); p2p, nccl (between GPUs, with two or more).
    #[arg(long, value_name = "PROBE", value_delimiter = ',', value_parser = parse_probe)]
    pub probes: Vec<crate::facts::probe::ProbeKind>,

    /// Probe only these GPUs: nvidia-smi indices or GPU-UUID prefixes, comma-separated; one that matches no GPU CUDA sees is an error (exit 3).
    #[arg(long, value_name = "GPU", value_delimiter = ',')]
    pub gpus: Vec<String>,

    /// Run the out-of-memory probe and the probes between GPUs (p2p, nccl) even where other processes hold GPU memory.
    #[arg(long)]
    pub force: bool,

    /// Time limit per probe (e.g. 30s, 500ms, 2m); past it the probe's worker is killed.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "60s")]
    pub probe_timeout: std::time::Duration,

    /// Show details, evidence and fixes for every finding.
    #[arg(short, long)]
    pub verbose: bool,

    /// Judge against the compatibility matrix in DIR instead of the bundled one.
    #[arg(long, value_name = "DIR", env = "GPU_DOCTOR_MATRIX")]
    pub matrix: Option<PathBuf>,

    /// Colour in the text report (NO_COLOR is honoured by `auto`).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,

    /// Also write node_exporter textfile-collector metrics to FILE (atomically).
    #[arg(long, value_name = "FILE")]
    pub prometheus: Option<PathBuf>,

    /// Also write Kubernetes node labels (GPU Feature Discovery's nvidia.com/* names and the verdict) to FILE as a Node Feature Discovery feature file, atomically; '-' prints them instead of the report.
    #[arg(long, value_name = "FILE")]
    pub labels: Option<PathBuf>,

    /// Slurm HealthCheckProgram mode: silent when the node can run work, else one line with the reason and a non-zero exit.
    #[arg(long, conflicts_with_all = ["json", "plain"])]
    pub slurm: bool,

    /// Kubernetes node-problem-detector custom plugin: exit 0 healthy, 1 a problem, 2 unknown; one line of at most 80 characters on stdout.
    #[arg(long, conflicts_with_all = ["json", "plain", "slurm"])]
    pub npd: bool,

    /// Read Xid/SXid kernel-log lines of only this last while (e.g. 2h, 30m); default: since boot.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub since: Option<std::time::Duration>,

    /// quick: facts, checks and the kernel log, no GPU probes and no Python runs (fits a Slurm HealthCheckProgram or prolog); deep: also every GPU probe and --deep.
    #[arg(long, value_enum, value_name = "TIER")]
    pub tier: Option<Tier>,

    /// Bound the whole run (e.g. 45s): steps that no longer fit are skipped and named in a host.budget_skipped finding.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub budget: Option<std::time::Duration>,
}

/// `--tier`: how much a run does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Tier {
    /// Facts, checks and the kernel log: no GPU probes, no Python interpreter runs.
    Quick,
    /// Everything: every GPU probe and the --deep PyTorch runs.
    Deep,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every check: id and what it verifies (--json: the whole catalogue; --markdown: the README's table).
    Checks(ChecksArgs),
    /// Print the JSON Schema of the --json report.
    Schema,
    /// The compatibility matrix: validate a matrix folder, answer questions from it, fetch a newer one.
    Matrix {
        #[command(subcommand)]
        action: MatrixCommand,
    },
    /// Check many hosts over SSH: runs `gpu-doctor --json` on each and shows the fleet (groups, drift).
    Fleet(FleetCmd),
    /// Explain pasted CUDA/PyTorch/driver errors (TEXT, --file LOG or stdin): causes by finding id, why, and the fix.
    Explain(ExplainArgs),
    /// Judge a machine from what was pasted about it (collect_env, nvidia-smi, versions...) and the error seen (--log).
    Diagnose(DiagnoseArgs),
    /// Blocks an attention launch maps onto the limited grid axis, and the largest batch chunk that fits.
    Grid(GridArgs),
    /// What differs between two saved JSON reports (facts and findings), most relevant first.
    Diff(DiffArgs),
    /// Print a shell completion script (e.g. `gpu-doctor completions bash > /etc/bash_completion.d/gpu-doctor`).
    Completions(CompletionsArgs),
    /// Print the manual page (roff) to stdout, or write one page per command to --dir.
    Man(ManArgs),
}

#[derive(Debug, clap::Args)]
pub struct ChecksArgs {
    /// Print the whole catalogue as JSON.
    #[arg(long)]
    pub json: bool,
    /// Print the table of checks in Markdown (the README's "Findings" table).
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
}

/// `gpu-doctor fleet`: the fleet's own arguments and its outputs.
#[derive(Debug, clap::Args)]
pub struct FleetCmd {
    #[command(flatten)]
    pub args: crate::fleet::FleetArgs,
    /// Print the fleet as JSON, host by host as results come.
    #[arg(long)]
    pub json: bool,
    /// Print the plain text table (the default when stdout is not a terminal).
    #[arg(long, conflicts_with = "json")]
    pub plain: bool,
    /// Also write node_exporter textfile-collector metrics to FILE (atomically), one series per host.
    #[arg(long, value_name = "FILE")]
    pub prometheus: Option<PathBuf>,
    /// Colour in the fleet table UI (NO_COLOR is honoured by `auto`).
    #[arg(long, value_enum, value_name = "WHEN")]
    pub color: Option<ColorChoice>,
}

#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// The error text (several words are joined); `-`, or none and no --file: standard input.
    pub text: Vec<String>,
    /// Read the text from LOG ('-' for standard input).
    #[arg(long, value_name = "LOG", conflicts_with = "text")]
    pub file: Option<PathBuf>,
    /// Do not gather this machine's facts to refine the causes.
    #[arg(long)]
    pub offline: bool,
    /// Refine the causes with the facts of a saved JSON report (the machine the error came from) instead of this machine's.
    #[arg(long, value_name = "REPORT", conflicts_with = "offline")]
    pub from: Option<PathBuf>,
    /// Refine the causes with the torch of this Python interpreter or environment too (repeatable): the one the error came from.
    #[arg(long = "python", value_name = "PATH", conflicts_with_all = ["offline", "from"])]
    pub python: Vec<PathBuf>,
    /// Every cause with its fix, not only the likeliest.
    #[arg(short, long)]
    pub verbose: bool,
    /// Print the causes as JSON.
    #[arg(long)]
    pub json: bool,
    /// Judge against the compatibility matrix in DIR instead of the bundled one.
    #[arg(long, value_name = "DIR", env = "GPU_DOCTOR_MATRIX")]
    pub matrix: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct DiagnoseArgs {
    /// What was pasted about the machine, any format ('-' for standard input): collect_env of
    /// torch, detectron2 or vLLM, nvidia-smi (-q), ds_report, sglang/jax/ComfyUI info,
    /// pip/conda lists, nvcc --version, dmesg, free-form versions, mixed with a traceback.
    #[arg(value_name = "FILE", required_unless_present = "collect_env")]
    pub paste: Option<PathBuf>,
    /// The same, the older way to pass it.
    #[arg(long = "collect-env", value_name = "FILE", conflicts_with = "paste")]
    pub collect_env: Option<PathBuf>,
    /// The error the person saw (a traceback or log).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Details, evidence and fixes for every finding.
    #[arg(short, long)]
    pub verbose: bool,
    /// Print the diagnosis as JSON.
    #[arg(long)]
    pub json: bool,
    /// Print the plain text diagnosis (the default when stdout is not a terminal).
    #[arg(long, conflicts_with = "json")]
    pub plain: bool,
    /// Also write the JSON diagnosis to FILE.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Judge against the compatibility matrix in DIR instead of the bundled one.
    #[arg(long, value_name = "DIR", env = "GPU_DOCTOR_MATRIX")]
    pub matrix: Option<PathBuf>,
    /// Colour in the text output (NO_COLOR is honoured by `auto`).
    #[arg(long, value_enum, value_name = "WHEN")]
    pub color: Option<ColorChoice>,
}

#[derive(Debug, clap::Args)]
pub struct GridArgs {
    /// Batch size (clips, images, sequences).
    #[arg(long)]
    pub batch: u64,
    /// Attention heads.
    #[arg(long)]
    pub heads: u64,
    /// Spatial size HxW folded into the batch (temporal attention), e.g. 40x64.
    #[arg(long, value_name = "HxW")]
    pub spatial: Option<String>,
    /// The grid axis the product lands on.
    #[arg(long, value_enum, default_value_t = GridAxis::Y)]
    pub axis: GridAxis,
    /// Read the limit from GPU N's CUDA device facts instead of CUDA's 65535.
    #[arg(long, value_name = "N")]
    pub gpu: Option<u32>,
    /// Print the answer as JSON.
    #[arg(long)]
    pub json: bool,
}

pub use crate::grid::GridAxis; // moved: src/grid.rs

#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The first saved report (gpu-doctor --save / --json).
    pub a: PathBuf,
    /// The second saved report.
    pub b: PathBuf,
    /// Print the differences as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Write one page per command (gpu-doctor.1, gpu-doctor-fleet.1, ...) into DIR instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum MatrixCommand {
    /// Check a matrix folder (default: the matrix in use) and report every problem with file and line; exit 3 when invalid.
    Validate {
        /// The folder holding matrix.toml, toolkits.toml, drivers.toml, archs.toml, gpus.toml, torch.toml, cudnn.toml, xid.toml.
        dir: Option<PathBuf>,
        /// The matrix in use when no DIR is given (default: the bundled one).
        #[arg(long, value_name = "DIR", env = "GPU_DOCTOR_MATRIX")]
        matrix: Option<PathBuf>,
    },
    /// Answer a question from the matrix (with --json for scripts).
    Show {
        /// A GPU name (or part of one, e.g. "RTX 5090") or a PCI device id: compute capability, builds and toolkits that support it, minimum driver.
        #[arg(long, value_name = "NAME")]
        gpu: Option<String>,
        /// A PyTorch version (2.4 or 2.4.1): its CUDA variants, arch lists, driver floors and install commands.
        #[arg(long, value_name = "VERSION")]
        torch: Option<String>,
        /// A driver version (535.104.05): the CUDA it supports and which PyTorch variants run on it.
        #[arg(long, value_name = "VERSION")]
        driver: Option<String>,
        /// Print the answers as JSON.
        #[arg(long)]
        json: bool,
        /// Answer from the compatibility matrix in DIR instead of the bundled one.
        #[arg(long, value_name = "DIR", env = "GPU_DOCTOR_MATRIX")]
        matrix: Option<PathBuf>,
    },
    /// Pack a matrix folder into one JSON bundle for signing and publishing (maintainers).
    Bundle {
        /// The matrix folder (default: ./compat-matrix).
        dir: Option<PathBuf>,
        /// Write the bundle here (default: standard output).
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Fetch a newer matrix, verify its signature and contents, and keep it for later reports.
    Update {
        /// Where the signed matrix bundle is (its signature is URL.minisig).
        #[arg(long, value_name = "URL")]
        url: Option<String>,
        /// Compare with the matrix in DIR instead of the one in use.
        #[arg(long, value_name = "DIR", env = "GPU_DOCTOR_MATRIX")]
        matrix: Option<PathBuf>,
    },
}

/// Parses the command line (program name first). A report option written before a
/// subcommand (`gpu-doctor --json checks`) counts as the subcommand's when the subcommand
/// has an option of that name, and is a usage error otherwise
/// (`gpu-doctor --prometheus m.prom explain ...`), as an option after it would be.
pub fn parse<I, T>(argv: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::{CommandFactory, FromArgMatches};
    let mut cmd = Cli::command();
    let matches = cmd.try_get_matches_from_mut(argv)?;
    let cli = Cli::from_arg_matches(&matches)?;
    let Some((name, mut sub_matches)) = matches.subcommand() else {
        return Ok(cli);
    };
    // The leaf: `matrix show`, not `matrix`.
    let mut path = vec![name.to_string()];
    let mut leaf = cmd.find_subcommand(name).cloned();
    while let Some((n, m)) = sub_matches.subcommand() {
        path.push(n.to_string());
        leaf = leaf.and_then(|c| c.find_subcommand(n).cloned());
        sub_matches = m;
    }
    let leaf_ids: Vec<String> = leaf
        .iter()
        .flat_map(|c| c.get_arguments())
        .map(|a| a.get_id().to_string())
        .collect();
    let top: Vec<clap::Arg> = cmd.get_arguments().cloned().collect();
    for arg in &top {
        let id = arg.get_id().as_str();
        let given = matches
            .value_source(id)
            .is_some_and(|s| s == clap::parser::ValueSource::CommandLine);
        let forwarded = SHARED_IDS.contains(&id) && leaf_ids.iter().any(|l| l == id);
        if given && !forwarded {
            let flag = arg
                .get_long()
                .map(|l| format!("--{l}"))
                .or_else(|| arg.get_short().map(|s| format!("-{s}")))
                .unwrap_or_else(|| id.to_string());
            let which = path.join(" ");
            return Err(cmd.error(
                clap::error::ErrorKind::ArgumentConflict,
                format!(
                    "{flag} is an option of the report of this machine, not of `gpu-doctor {which}`; `gpu-doctor {which} --help` lists its options"
                ),
            ));
        }
    }
    Ok(cli)
}

/// The report options a subcommand may also take before its name: [`Shared`]'s.
const SHARED_IDS: &[&str] = &[
    "json",
    "plain",
    "matrix",
    "prometheus",
    "save",
    "color",
    "verbose",
    "python",
];

/// The options a subcommand shares with the report, as given after the subcommand.
#[derive(Debug, Default, Clone)]
pub struct Shared {
    pub json: bool,
    pub plain: bool,
    pub matrix: Option<PathBuf>,
    pub prometheus: Option<PathBuf>,
    pub save: Option<PathBuf>,
    pub color: Option<ColorChoice>,
    pub verbose: bool,
    pub python: Vec<PathBuf>,
}

impl Command {
    /// This subcommand's values of the options it shares with the report.
    pub fn shared(&self) -> Shared {
        match self {
            Command::Checks(a) => Shared {
                json: a.json,
                ..Shared::default()
            },
            Command::Schema | Command::Completions(_) | Command::Man(_) => Shared::default(),
            Command::Matrix { action } => match action {
                MatrixCommand::Validate { matrix, .. } | MatrixCommand::Update { matrix, .. } => {
                    Shared {
                        matrix: matrix.clone(),
                        ..Shared::default()
                    }
                }
                MatrixCommand::Show { json, matrix, .. } => Shared {
                    json: *json,
                    matrix: matrix.clone(),
                    ..Shared::default()
                },
                MatrixCommand::Bundle { .. } => Shared::default(),
            },
            Command::Fleet(f) => Shared {
                json: f.json,
                plain: f.plain,
                prometheus: f.prometheus.clone(),
                color: f.color,
                ..Shared::default()
            },
            Command::Explain(a) => Shared {
                json: a.json,
                matrix: a.matrix.clone(),
                verbose: a.verbose,
                python: a.python.clone(),
                ..Shared::default()
            },
            Command::Diagnose(a) => Shared {
                json: a.json,
                plain: a.plain,
                matrix: a.matrix.clone(),
                save: a.save.clone(),
                color: a.color,
                verbose: a.verbose,
                ..Shared::default()
            },
            Command::Grid(a) => Shared {
                json: a.json,
                ..Shared::default()
            },
            Command::Diff(a) => Shared {
                json: a.json,
                ..Shared::default()
            },
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

fn parse_probe(s: &str) -> Result<crate::facts::probe::ProbeKind, String> {
    crate::facts::probe::ProbeKind::parse(s).ok_or_else(|| {
        let names: Vec<&str> = crate::facts::probe::ProbeKind::ALL
            .iter()
            .map(|k| k.as_str())
            .collect();
        format!("unknown probe {s:?}; probes are {}", names.join(", "))
    })
}

/// "30s", "500ms", "2m", "1h" or a plain number of seconds.
pub fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (number, unit) = s.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{s:?} is not a duration (e.g. 30s, 500ms, 2m)"))?;
    let seconds = match unit.trim() {
        "" | "s" => value,
        "ms" => value / 1e3,
        "m" | "min" => value * 60.0,
        "h" => value * 3600.0,
        other => {
            return Err(format!(
                "unknown unit {other:?} in {s:?} (use ms, s, m or h)"
            ))
        }
    };
    if !seconds.is_finite() || seconds <= 0.0 || seconds > 86_400.0 {
        return Err(format!("{s:?} must be more than 0 and at most a day"));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod duration_tests {
    use super::parse_duration;
    use std::time::Duration;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("7"), Ok(Duration::from_secs(7)));
        for bad in ["", "s", "-1s", "0", "5 parsecs", "1e400", "NaN"] {
            assert!(parse_duration(bad).is_err(), "{bad:?}");
        }
    }
}
