//! Search stage, profiling: the process's CPU time and memory from
//! `/proc`, printed with `KANSOKU_TIMINGS`. Linux only; `None` elsewhere.

/// A `kB` line of `/proc/self/status` (`VmRSS`, `VmHWM`), for
/// `KANSOKU_TIMINGS`; `None` where there is no `/proc`.
pub(super) fn proc_status_kb(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU time used by this process so far (user + system, every thread), for
/// `KANSOKU_TIMINGS`: on a shared machine the stage's wall time says little.
/// Linux only; `None` elsewhere. `/proc` counts in ticks of 10 ms (USER_HZ
/// is 100 on every Linux architecture kansoku builds for).
pub(super) fn process_cpu_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces), from field 3.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    Some((ticks(11)? + ticks(12)?) * 10)
}
