//! Parses arguments, dispatches, maps the outcome to an exit code. Nothing else.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(gpu_doctor::facts::driver_api::WORKER_SUBCOMMAND) {
        std::process::exit(gpu_doctor::facts::driver_api::worker_main());
    }
    let host = gpu_doctor::host::Host::from_env();
    let facts = gpu_doctor::facts::gather(&host, &Default::default());
    let (findings, errors) =
        gpu_doctor::checks::evaluate(&facts, &Default::default(), &Default::default());
    let report =
        gpu_doctor::report::Report::new(gpu_doctor::matrix::bundled(), facts, findings, errors);
    match serde_json::to_string_pretty(&report) {
        Ok(s) => println!("{s}"),
        Err(e) => eprintln!("gpu-doctor: {e}"),
    }
    std::process::exit(report.exit_code);
}
