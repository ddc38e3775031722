//! Command-line arguments (clap derive). Placeholder until the CLI lands.
