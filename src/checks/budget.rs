//! `host.budget_skipped`: what `--budget` left out, so a verdict never hides what it did
//! not look at.

use super::catalogue::{Action, Area, Check};
use super::Ctx;
use crate::finding::{Finding, Severity};

pub const HOST_BUDGET_SKIPPED: Check = Check {
    id: "host.budget_skipped",
    name: "host.time_budget",
    area: Area::Host,
    title: "(--budget) every step fitted in the time budget",
    failing: "info only: the steps `--budget` left out, named",
    why: "A bounded run (a Slurm health check, a prolog) may leave steps out; a verdict must not hide what it did not look at.",
    next_step: "Give a larger --budget, or run the deep tier outside the health check.",
    action: Action::None,
    reads: &["skipped", "options"],
    not_in_paste: None,
    run: budget_skipped,
};

pub fn budget_skipped(ctx: &Ctx) -> Vec<Finding> {
    if ctx.facts.skipped.is_empty() {
        return Vec::new();
    }
    vec![HOST_BUDGET_SKIPPED
        .finding(
            Severity::Info,
            format!(
                "--budget left out {} step(s): {}",
                ctx.facts.skipped.len(),
                ctx.facts.skipped.join("; ")
            ),
        )
        .details(
            "The run was bounded by --budget, and these steps did not fit in what was left; \
         their checks say nothing about this machine. Give a larger budget or --tier quick \
         to run only what fits.",
        )
        .evidence("skipped", ctx.facts.skipped.join("; "))]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::checks::CheckOptions;

    #[test]
    fn names_every_skipped_step_and_is_silent_without_a_budget() {
        let opts = CheckOptions::default();
        let run = |facts: &crate::facts::Facts| {
            budget_skipped(&Ctx {
                facts,
                opts: &opts,
                matrix: matrix(),
            })
        };
        let mut facts = healthy();
        assert!(run(&facts).is_empty());
        facts.skipped = vec![
            "kernel log (Xid/SXid) not read".into(),
            "GPU probes oom not run".into(),
        ];
        let f = run(&facts);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Info);
        assert!(f[0]
            .summary
            .contains("2 step(s): kernel log (Xid/SXid) not read; GPU probes oom not run"));
    }
}
