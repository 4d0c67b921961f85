//! Helpers shared by the integration tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `program args…`, writes `script` to its standard input, closes it, and waits.
pub fn run_with_stdin(program: &str, args: &[&str], script: &str) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {program}: {e}"));
    child.stdin.take().expect("stdin is piped").write_all(script.as_bytes()).expect("write script");
    child.wait_with_output().expect("wait for the program")
}
