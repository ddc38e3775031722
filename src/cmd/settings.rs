//! The command line turned into settings once: commands and the UIs below them never see
//! clap's types.

use std::path::PathBuf;

use crate::checks::{CheckOptions, Selection};
use crate::cli::{Cli, ColorChoice, Tier};
use crate::facts::GatherOptions;
use crate::pipeline::Request;
use crate::probes::plan::ProbeOptions;

/// What every command may need from the global flags, and the pipeline's request.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `--json`: the machine-readable output.
    pub json: bool,
    /// `--plain`: the text output even on a terminal.
    pub plain: bool,
    pub color: ColorChoice,
    pub verbose: bool,
    /// `--matrix DIR` / `GPU_DOCTOR_MATRIX`.
    pub matrix_dir: Option<PathBuf>,
    /// `--prometheus FILE`.
    pub prometheus: Option<PathBuf>,
    /// `--save FILE`.
    pub save: Option<PathBuf>,
    /// `--slurm`.
    pub slurm: bool,
    /// `--npd`: node-problem-detector's custom-plugin line and exit code.
    pub npd: bool,
    /// `--labels FILE`: Kubernetes node labels as a feature file ('-' prints them).
    pub labels: Option<PathBuf>,
    /// `--budget`: the whole run ends within this time (the deadline is set when it starts).
    pub budget: Option<std::time::Duration>,
    /// `--expect PROFILE`: read when the report runs (a malformed one is exit code 3).
    pub expect: Option<PathBuf>,
    /// The pipeline's request (its selection not yet checked against the catalogue).
    pub request: Request,
}

impl Settings {
    /// The report's options, or a subcommand's merged with those of them written before
    /// its name (`cli::parse` has refused any other report option given with it).
    pub fn from_cli(cli: &Cli) -> Settings {
        let sub = cli
            .command
            .as_ref()
            .map(crate::cli::Command::shared)
            .unwrap_or_default();
        let mut pythons = cli.python.clone();
        pythons.extend(sub.python.iter().cloned());
        let matrix = sub.matrix.clone().or_else(|| cli.matrix.clone());
        Settings {
            json: cli.json || sub.json,
            plain: cli.plain || sub.plain,
            color: sub.color.unwrap_or(cli.color),
            verbose: cli.verbose || sub.verbose,
            matrix_dir: matrix.clone(),
            prometheus: sub.prometheus.or_else(|| cli.prometheus.clone()),
            save: sub.save.or_else(|| cli.save.clone()),
            slurm: cli.slurm,
            npd: cli.npd,
            labels: cli.labels.clone(),
            budget: cli.budget,
            expect: cli.expect.clone(),
            request: Request {
                from: cli.from.clone(),
                gather: GatherOptions {
                    pythons,
                    deep: match cli.tier {
                        Some(Tier::Quick) => false,
                        Some(Tier::Deep) => true,
                        None => cli.deep,
                    },
                    redact: cli.redact,
                    kernel_log_since: cli.since,
                    deadline: None,
                    driver_api_asked: Default::default(),
                },
                checks: CheckOptions {
                    expect_gpus: cli.expect_gpus,
                    expect: None,
                },
                selection: Selection {
                    only: cli.only.clone(),
                    skip: cli.skip.clone(),
                },
                matrix_dir: matrix,
                probes: ProbeOptions {
                    enabled: !cli.no_probes && cli.tier != Some(Tier::Quick),
                    probes: cli.probes.clone(),
                    gpus: cli.gpus.clone(),
                    force: cli.force,
                    timeout: cli.probe_timeout,
                },
                ready: None,
            },
        }
    }

    /// `--json` or `--plain`: an output for scripts, never a UI.
    pub fn scriptable(&self) -> bool {
        self.json || self.plain
    }
}
