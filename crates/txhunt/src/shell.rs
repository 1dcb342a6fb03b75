//! `txhunt shell N TARGET`: N sessions behind one prompt.
//!
//! A line `2> UPDATE t SET v = 1;` sends the statement to session 2 (`t2>` works too; a
//! statement may continue on the next lines until its `;`). A statement that waits on a lock
//! is shown as waiting, and its outcome is printed when it completes, while the other sessions
//! go on. `\state` prints the committed contents of every table; `\q` (or end of input) quits.

use crate::interrupt;
use crate::levels::isolation_flag;
use anyhow::Context;
use clap::Args;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::mpsc::channel;
use txhunt_db::open_target;
use txhunt_exec::interactive::{Shell, ShellEvent};

/// Arguments of `txhunt shell`.
#[derive(Args)]
#[command(after_help = crate::targets::TARGETS)]
pub struct ShellArgs {
    /// How many sessions.
    sessions: usize,
    /// The target (*Targets* below).
    target: String,
    /// Isolation level of every session (default: the target's).
    #[arg(long)]
    isolation: Option<String>,
    /// Where the server binaries are, for `mariadb|postgres`.
    #[arg(long)]
    bin_dir: Option<PathBuf>,
}

/// Runs the prompt until `\q`, end of input or Ctrl-C.
pub fn shell(args: &ShellArgs) -> anyhow::Result<bool> {
    anyhow::ensure!(args.sessions >= 1, "shell: at least one session");
    let target = open_target(&args.target, args.bin_dir.as_deref())?;
    let isolation = match args.isolation.as_deref() {
        Some(flag) => match isolation_flag(flag, target.as_ref())?.as_slice() {
            [one] => *one,
            _ => anyhow::bail!("--isolation: a shell runs at one level"),
        },
        None => target.profile().default_isolation(),
    };
    let (tx, rx) = channel();
    let shell = Shell::open(target.as_ref(), args.sessions, isolation, tx)
        .context("opening the sessions")?;
    let printer = std::thread::spawn(move || {
        for event in rx {
            show(&event);
        }
    });
    interrupt::make_graceful();
    let interactive = std::io::stdin().is_terminal();
    if interactive {
        eprintln!(
            "{} sessions on {} at {isolation}; type `N> SQL;` (\\state shows the tables, \\q quits)",
            args.sessions,
            target.name()
        );
    }
    let mut pending: Option<(usize, String)> = None;
    for line in std::io::stdin().lock().lines() {
        let line = line.context("reading standard input")?;
        let trimmed = line.trim();
        if pending.is_none() {
            match trimmed {
                "" => continue,
                "\\q" | "quit" | "exit" => break,
                "\\state" => {
                    match shell.state() {
                        Ok(state) => print!("{state}"),
                        Err(e) => println!("error: {e}"),
                    }
                    continue;
                }
                _ => {}
            }
            match split_session(trimmed) {
                Some((k, sql)) => pending = Some((k, sql.to_string())),
                None => {
                    println!("expected `N> SQL;` with N from 1 to {}", shell.len());
                    continue;
                }
            }
        } else if let Some((_, sql)) = pending.as_mut() {
            sql.push('\n');
            sql.push_str(trimmed);
        }
        if let Some((k, sql)) = pending.take_if(|(_, sql)| sql.trim_end().ends_with(';')) {
            let sql = sql.trim_end().trim_end_matches(';').trim().to_string();
            match shell.submit(k, &sql) {
                Ok(event) => show(&event),
                Err(e) => println!("{e}"),
            }
        }
    }
    drop(shell);
    let _ = printer.join();
    Ok(true)
}

/// Prints one session event.
fn show(event: &ShellEvent) {
    match event {
        ShellEvent::Running { session } => println!("[{session}] running …"),
        ShellEvent::Waiting { session } => println!("[{session}] waiting on a lock …"),
        ShellEvent::Done {
            session,
            outcome,
            waited,
        } => {
            let mark = if *waited { "resumed: " } else { "" };
            println!("[{session}] {mark}{outcome}");
        }
    }
    let _ = std::io::stdout().flush();
}

/// `2> SQL` or `t2> SQL` → (2, SQL).
fn split_session(line: &str) -> Option<(usize, &str)> {
    let (head, sql) = line.split_once('>')?;
    let number = head.trim().trim_start_matches('t');
    Some((number.parse().ok()?, sql.trim_start()))
}
