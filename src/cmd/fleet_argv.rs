//! The fleet's command line is checked before clap reads it, so that a host list expanded
//! onto argv (`gpu-doctor fleet $(cat hosts)`) can never smuggle in an option:
//! after the first host, every argument up to `--` must be a host. An argument there that
//! starts with `-` (`-oProxyCommand=…`, `--remote-cmd=…`, `--ssh-config=…`, `--push`) is
//! an error (exit 3), never an option. Options go before the hosts.

use std::ffi::OsString;

use clap::CommandFactory;

/// Why the command line was refused before any parsing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{arg:?} follows the host {host:?}, where only hosts may be, and is not a valid host name; \
     options go before the hosts (gpu-doctor fleet [OPTIONS] HOST... [-- REMOTE ARGS])"
)]
pub struct Injected {
    pub arg: String,
    pub host: String,
}

/// Looks for a `fleet` subcommand in `args` (argv, program name first) and checks that
/// nothing after its first host looks like an option. Other commands pass untouched.
pub fn check(args: &[OsString]) -> Result<(), Injected> {
    let mut cmd = crate::cli::Cli::command();
    cmd.build();
    let mut i = 1;
    // Top-level options, up to the subcommand's name.
    while i < args.len() {
        let Some(a) = args[i].to_str() else {
            return Ok(());
        };
        if a == "--" {
            return Ok(());
        }
        if a.starts_with('-') && a.len() > 1 {
            i += 1 + usize::from(takes_separate_value(&cmd, a));
            continue;
        }
        if a != "fleet" {
            return Ok(());
        }
        i += 1;
        break;
    }
    let Some(fleet) = cmd.find_subcommand("fleet") else {
        return Ok(());
    };
    let mut first_host: Option<String> = None;
    while i < args.len() {
        let a = args[i].to_string_lossy();
        if a == "--" {
            return Ok(());
        }
        let dash = a.starts_with('-') && a.len() > 1;
        match (&first_host, dash) {
            (Some(host), true) => {
                return Err(Injected {
                    arg: a.into_owned(),
                    host: host.clone(),
                })
            }
            (None, true) => i += 1 + usize::from(takes_separate_value(fleet, &a)),
            (None, false) => {
                first_host = Some(a.into_owned());
                i += 1;
            }
            (Some(_), false) => i += 1,
        }
    }
    Ok(())
}

/// True when the option `a` (`--name`, `-x`, `-xyz`) takes its value from the next
/// argument (not `--name=value`, not `-oValue`).
fn takes_separate_value(cmd: &clap::Command, a: &str) -> bool {
    let takes = |arg: &clap::Arg| arg.get_action().takes_values();
    if let Some(long) = a.strip_prefix("--") {
        if long.contains('=') {
            return false;
        }
        return cmd
            .get_arguments()
            .find(|arg| {
                arg.get_long() == Some(long)
                    || arg.get_all_aliases().is_some_and(|al| al.contains(&long))
            })
            .is_some_and(takes);
    }
    let shorts: Vec<char> = a.chars().skip(1).collect();
    for (n, c) in shorts.iter().enumerate() {
        if let Some(arg) = cmd.get_arguments().find(|arg| arg.get_short() == Some(*c)) {
            if takes(arg) {
                // `-j4`: the value is attached; `-j 4`: it is the next argument.
                return n + 1 == shorts.len();
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(a: &[&str]) -> Vec<OsString> {
        std::iter::once("gpu-doctor")
            .chain(a.iter().copied())
            .map(OsString::from)
            .collect()
    }

    #[test]
    fn options_after_a_host_are_refused() {
        for bad in [
            &["fleet", "node01", "-oProxyCommand=touch /tmp/x"][..],
            &["fleet", "node01", "--remote-cmd=touch /tmp/x"],
            &["fleet", "node01", "--ssh-config=/tmp/evil"],
            &["fleet", "node01", "node02", "--push"],
            &["fleet", "-j", "4", "node01", "-o", "ProxyCommand=x"],
            &["--json", "fleet", "node01", "--json"],
            &["fleet", "--hosts", "h.txt", "node01", "-j4"],
        ] {
            let err = check(&argv(bad)).unwrap_err();
            assert!(err.arg.starts_with('-'), "{bad:?}");
        }
    }

    #[test]
    fn options_before_hosts_and_remote_args_after_dashes_pass() {
        for good in [
            &["fleet", "node01"][..],
            &[
                "fleet",
                "-o",
                "User=ops",
                "--jobs",
                "4",
                "node[01-04]",
                "n5",
            ],
            &["fleet", "-oUser=ops", "-j4", "--json", "node01"],
            &[
                "fleet",
                "--remote-cmd",
                "/opt/gd",
                "node01",
                "--",
                "--expect-gpus",
                "8",
            ],
            &["--matrix", "fleet", "fleet", "node01"],
            &["fleet", "--hosts", "-", "-"],
            &["explain", "node01", "--file", "x"],
            &["--from", "r.json"],
        ] {
            assert_eq!(check(&argv(good)), Ok(()), "{good:?}");
        }
    }
}
