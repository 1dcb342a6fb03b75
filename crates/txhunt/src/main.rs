//! The `txhunt` command line.

mod bench;
mod corpus;
mod format;
mod fuzz;
mod interrupt;
mod levels;
mod run;
mod server;
mod shell;

use clap::{Parser, Subcommand};
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
    /// Replay scenario files and check their expectations.
    Run(run::RunArgs),
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
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level)),
        )
        .init();
    interrupt::install();
    let result = match cli.command {
        Command::Fuzz(args) => fuzz::fuzz(&args),
        Command::Run(args) => run::run(&args),
        Command::Corpus(command) => corpus::corpus(&command),
        Command::Server(args) => server::serve(&args),
        Command::Shell(args) => shell::shell(&args),
        Command::Bench(command) => bench::bench(&command),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
