//! What `txhunt` writes to stderr when it is not a terminal: plain text a file or a pipe keeps.

use std::path::Path;
use std::process::Command;

#[test]
fn log_lines_on_a_redirected_stderr_carry_no_colour_codes() {
    let scenario =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/turso/writer-waits.sql");
    // The Turso engine logs its file opening and page writes at debug level.
    let out = Command::new(env!("CARGO_BIN_EXE_txhunt"))
        .args(["run", "--target", "turso"])
        .arg(&scenario)
        .env("RUST_LOG", "debug")
        .env_remove("NO_COLOR")
        .output()
        .expect("txhunt runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("DEBUG"), "log lines on stderr: {stderr}");
    assert!(
        !stderr.contains("\x1b["),
        "ANSI escape codes on a redirected stderr: {stderr}"
    );
}
