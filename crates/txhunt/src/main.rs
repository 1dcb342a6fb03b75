//! The `txhunt` command line.

mod bench;
mod corpus;
mod findings;
mod flags;
mod format;
mod fuzz;
mod interrupt;
mod levels;
mod paths;
mod recording;
mod reduce;
mod run;
mod server;
mod shell;
mod stress;
mod targets;

use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::process::ExitCode;

/// Finds transaction bugs in SQL database systems.
#[derive(Parser)]
#[command(name = "txhunt", version, about, long_about = None)]
struct Cli {
    /// More log output on stderr (-v info, -vv debug).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate, run and judge random test cases until a budget runs out or Ctrl-C.
    Fuzz(fuzz::FuzzArgs),
    /// Run a workload on truly concurrent sessions and judge the whole history (DSG, the
    /// workload's invariant, real-time order): timing bugs the exact protocol cannot produce.
    Stress(stress::StressArgs),
    /// Replay scenario files and check their expectations.
    Run(run::RunArgs),
    /// What the findings store holds: list, show, report and export findings; HTML pages of
    /// campaigns.
    #[command(subcommand)]
    Findings(findings::FindingsCommand),
    /// Cut a finding's scenario down to what the finding needs (delta debugging).
    Reduce(reduce::ReduceArgs),
    /// The known-bug corpus: replay every published PoC that applies to a target.
    #[command(subcommand)]
    Corpus(corpus::CorpusCommand),
    /// Start a private MariaDB or PostgreSQL server, print its URL, serve until Ctrl-C.
    Server(server::ServerArgs),
    /// Open N sessions on a target behind one prompt: `2> UPDATE …;` runs on session 2.
    Shell(shell::ShellArgs),
    /// Benchmarks, each comparing two ways in one run.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let level = match cli.verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(colour(
            std::io::stderr().is_terminal(),
            std::env::var_os("NO_COLOR"),
        ))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level)),
        )
        .init();
    interrupt::install();
    // Servers and directories of earlier runs killed outright (their watchdogs too).
    txhunt_db::testbed::guard::reap_stale();
    // A campaign stopped by Ctrl-C ends as an interrupted command does; `server` and `shell`
    // are stopped by Ctrl-C as their normal end.
    let fuzzing = matches!(cli.command, Command::Fuzz(_) | Command::Stress(_));
    let result = match cli.command {
        Command::Fuzz(args) => fuzz::fuzz(&args),
        Command::Stress(args) => stress::stress(&args),
        Command::Run(args) => run::run(&args),
        Command::Reduce(args) => reduce::reduce_files(&args),
        Command::Findings(command) => findings::findings(&command),
        Command::Corpus(command) => corpus::corpus(&command),
        Command::Server(args) => server::serve(&args),
        Command::Shell(args) => shell::shell(&args),
        Command::Bench(command) => bench::bench(&command),
    };
    match result {
        Ok(_) if fuzzing && interrupt::requested() => ExitCode::from(130),
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Whether log lines get ANSI colours: only on a terminal, and not when `NO_COLOR` is set to
/// anything but the empty string (<https://no-color.org>).
fn colour(terminal: bool, no_color: Option<std::ffi::OsString>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::colour;

    #[test]
    fn colours_only_a_terminal_without_no_color() {
        assert!(colour(true, None));
        assert!(colour(true, Some("".into())));
        assert!(!colour(true, Some("1".into())));
        assert!(!colour(false, None));
    }
}
