//! Running a capture's command within bounds (issue 39, M5): a time limit
//! and a limit on each stream's size. The command runs in a process group
//! of its own, so that what it starts is stopped with it; its streams come
//! through pipes into temporary files that have no name (nothing is left
//! behind, however kansoku ends), counted as they arrive. On a limit the
//! whole group is stopped and the run is an error: a cut output is never
//! recorded as a capture. On SIGINT, SIGTERM or SIGHUP to kansoku, the
//! signal handler (`site::output`) stops the group registered here.

use crate::error::{Error, Result};
use std::fs::File;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The bounds a command runs within.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How long it may run.
    pub timeout: Duration,
    /// How many bytes it may print on each stream.
    pub max_output: u64,
}

/// The default time limit, also `--timeout`'s default as shown by `--help`.
pub const DEFAULT_TIMEOUT: &str = "10m";
/// The default output limit per stream, as `--max-output` shows it.
pub const DEFAULT_MAX_OUTPUT: &str = "1GiB";

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            timeout: Duration::from_secs(600),
            max_output: 1 << 30,
        }
    }
}

/// How a command that ran within its bounds ended, and what it printed.
pub(crate) struct Ran {
    /// `0`, `3`, `signal 9` or `unknown`.
    pub(crate) exit: String,
    /// Its stdout and stderr, at their start.
    pub(crate) out: File,
    pub(crate) err: File,
}

/// Runs `cmd` (its stdin closed) within `limits`. `shown` is the command
/// line for messages.
pub(crate) fn run(mut cmd: Command, shown: &str, limits: Limits) -> Result<Ran> {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    #[cfg(target_os = "linux")]
    crate::site::output::adopt_orphans();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| {
        Error::Usage(format!(
            "could not run `{shown}`: {e}; check that it is installed and on PATH"
        ))
    })?;
    // Registered at once: a signal from here on stops the whole group.
    let _registered = crate::site::output::child(child.id(), shown.to_owned());
    let (Some(out_pipe), Some(err_pipe)) = (child.stdout.take(), child.stderr.take()) else {
        crate::site::output::stop_child(&mut child);
        return Err(Error::Usage(format!(
            "could not read the output of `{shown}`"
        )));
    };
    let (out_over, err_over) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicBool::new(false)),
    );
    let out_reader = spool(out_pipe, limits.max_output, Arc::clone(&out_over));
    let err_reader = spool(err_pipe, limits.max_output, Arc::clone(&err_over));
    let deadline = Instant::now() + limits.timeout;
    let mut status = None;
    let stopped = loop {
        if out_over.load(Ordering::SeqCst) {
            break Some(Stop::Output("stdout"));
        }
        if err_over.load(Ordering::SeqCst) {
            break Some(Stop::Output("stderr"));
        }
        if status.is_none() {
            status = child
                .try_wait()
                .map_err(|e| Error::Usage(format!("could not wait for `{shown}`: {e}")))?;
        }
        // Done when the command has ended and its output is all read
        // (a process it started may still hold the pipes open).
        if status.is_some() && out_reader.is_finished() && err_reader.is_finished() {
            break None;
        }
        if Instant::now() >= deadline {
            break Some(Stop::Time);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    // Stopped by the signal handler: what it printed is not a capture.
    if crate::site::output::interrupted() {
        return Err(Error::Usage(format!(
            "`{shown}` was stopped by an interruption"
        )));
    }
    if let Some(stop) = stopped {
        crate::site::output::stop_child(&mut child);
        let message = match stop {
            Stop::Time => format!(
                "`{shown}` ran longer than {} and was stopped, with every process it started; nothing was written: give it more time with --timeout (e.g. --timeout 30m)",
                duration_shown(limits.timeout)
            ),
            Stop::Output(which) => format!(
                "`{shown}` printed more than {} on {which} and was stopped, with every process it started; nothing was written: raise the limit with --max-output (e.g. --max-output 4GiB), or capture less",
                size_shown(limits.max_output)
            ),
        };
        return Err(Error::Usage(message));
    }
    let Some(status) = status else {
        return Err(Error::Usage(format!("`{shown}` ended without a status")));
    };
    let read = |h: std::thread::JoinHandle<std::io::Result<File>>, what: &str| {
        h.join()
            .map_err(|_| Error::Usage(format!("reading {what} of `{shown}` failed")))?
            .map_err(|e| Error::Usage(format!("could not keep {what} of `{shown}`: {e}")))
    };
    let out = read(out_reader, "stdout")?;
    let err = read(err_reader, "stderr")?;
    Ok(Ran {
        exit: exit_of(&status),
        out,
        err,
    })
}

enum Stop {
    Time,
    Output(&'static str),
}

/// Copies `pipe` into a nameless temporary file, up to `max` bytes; past
/// it, sets `over` and stops reading (the command then gets SIGPIPE).
fn spool(
    mut pipe: impl Read + Send + 'static,
    max: u64,
    over: Arc<AtomicBool>,
) -> std::thread::JoinHandle<std::io::Result<File>> {
    std::thread::spawn(move || {
        let mut file = tempfile::tempfile()?;
        let mut buf = vec![0u8; 64 * 1024];
        let mut total = 0u64;
        loop {
            let n = match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            total += n as u64;
            if total > max {
                over.store(true, Ordering::SeqCst);
                return Ok(file);
            }
            file.write_all(&buf[..n])?;
        }
        use std::io::Seek;
        file.rewind()?;
        Ok(file)
    })
}

fn exit_of(status: &std::process::ExitStatus) -> String {
    match (status.code(), signal_of(status)) {
        (Some(c), _) => c.to_string(),
        (None, Some(s)) => format!("signal {s}"),
        (None, None) => "unknown".to_owned(),
    }
}

#[cfg(unix)]
fn signal_of(status: &std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn signal_of(_: &std::process::ExitStatus) -> Option<i32> {
    None
}

/// `90s`, `10m`, `2h`, `1h30m` (or seconds alone): `--timeout`.
pub fn parse_duration(s: &str) -> std::result::Result<Duration, String> {
    let bad = || format!("`{s}` is not a duration: write it as 90s, 10m or 2h");
    let t = s.trim();
    if t.is_empty() {
        return Err(bad());
    }
    let mut total = 0u64;
    let mut digits = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            _ => return Err(bad()),
        };
        let n: u64 = digits.parse().map_err(|_| bad())?;
        total = total.saturating_add(n.saturating_mul(unit));
        digits.clear();
    }
    if !digits.is_empty() {
        total = total.saturating_add(digits.parse::<u64>().map_err(|_| bad())?);
    }
    if total == 0 {
        return Err(format!("`{s}`: a time limit is at least one second"));
    }
    Ok(Duration::from_secs(total))
}

/// `512KiB`, `64MiB`, `4GiB` (`K`, `KB`, `M`… read as binary multiples
/// too), or bytes alone: `--max-output`.
pub fn parse_size(s: &str) -> std::result::Result<u64, String> {
    let bad = || format!("`{s}` is not a size: write it as 512KiB, 64MiB or 4GiB");
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(split);
    let n: u64 = n.parse().map_err(|_| bad())?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(bad()),
    };
    let bytes = n
        .checked_shl(shift)
        .filter(|b| b >> shift == n)
        .ok_or_else(bad)?;
    if bytes == 0 {
        return Err(format!("`{s}`: an output limit is at least one byte"));
    }
    Ok(bytes)
}

/// A duration as `--timeout` takes it: `1s`, `10m`, `1h30m`.
pub(crate) fn duration_shown(d: Duration) -> String {
    let s = d.as_secs();
    let (h, m, sec) = (s / 3600, s % 3600 / 60, s % 60);
    let mut out = String::new();
    for (n, unit) in [(h, "h"), (m, "m"), (sec, "s")] {
        if n > 0 {
            out.push_str(&format!("{n}{unit}"));
        }
    }
    if out.is_empty() {
        out.push_str("0s");
    }
    out
}

/// A size in the largest binary unit it is a whole number of: `64 KiB`.
pub(crate) fn size_shown(bytes: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_sizes_read_and_show() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("45"), Ok(Duration::from_secs(45)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("0s").is_err());
        assert_eq!(duration_shown(Duration::from_secs(5400)), "1h30m");
        assert_eq!(parse_size("64KiB"), Ok(65536));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("4g"), Ok(4 << 30));
        assert_eq!(parse_size("100"), Ok(100));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("99999999999TiB").is_err());
        assert_eq!(size_shown(1 << 30), "1 GiB");
        assert_eq!(size_shown(65536), "64 KiB");
        assert_eq!(size_shown(100), "100 bytes");
    }
}
