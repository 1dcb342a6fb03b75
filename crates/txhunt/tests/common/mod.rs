//! What the command-line tests share: running the `txhunt` binary.

use std::process::{Command, Output};

/// Runs `txhunt ARGS` to its end.
pub fn txhunt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(args)
        .output()
        .expect("txhunt runs")
}

/// The standard output of `txhunt ARGS`, which must succeed.
pub fn succeeded(args: &[&str]) -> String {
    let run = txhunt(args);
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    stdout
}
