//! Parses arguments, dispatches, maps the outcome to an exit code. Nothing else.

use gpu_doctor::{cmd, facts::driver_api, host::Host, probes, report::exit};

fn main() {
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == driver_api::WORKER_SUBCOMMAND)
    {
        std::process::exit(driver_api::worker_main());
    }
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == probes::protocol::WORKER_SUBCOMMAND)
    {
        let args: Vec<String> = std::env::args().skip(2).collect();
        std::process::exit(probes::worker::worker_main(&args));
    }
    // Before clap reads argv: a host list expanded onto the fleet's command line must not
    // turn into options.
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Err(e) = gpu_doctor::cmd::fleet_argv::check(&argv) {
        let _ = std::io::Write::write_fmt(
            &mut std::io::stderr(),
            format_args!("gpu-doctor fleet: {e}\n"),
        );
        std::process::exit(exit::NO_VERDICT);
    }
    let cli = match gpu_doctor::cli::parse(&argv) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                exit::NO_VERDICT
            } else {
                exit::OK
            };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    std::process::exit(cmd::run(&cli, &Host::from_env()));
}
