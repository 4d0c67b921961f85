//! Helpers shared by the integration tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `program args…`, writes `script` to its standard input, closes it, and waits.
pub fn run_with_stdin(program: &str, args: &[&str], script: &str) -> Output {
    try_run_with_stdin(program, args, script).unwrap_or_else(|e| panic!("run {program}: {e}"))
}

/// [`run_with_stdin`], with failure to start the program as an error. The
/// script is written from another thread: a long script's answers would
/// otherwise fill the output pipe while the script is still being written.
pub fn try_run_with_stdin(program: &str, args: &[&str], script: &str) -> std::io::Result<Output> {
    let mut child =
        Command::new(program).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let script = script.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(script.as_bytes()));
    let out = child.wait_with_output()?;
    // A program that quits before reading everything closes the pipe; that is its answer, not an error here.
    let _ = writer.join().expect("writer thread");
    Ok(out)
}
