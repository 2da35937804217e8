//! What keeps builds from hurting each other or leaving litter: one lock
//! per build directory, the removal of what killed builds left behind,
//! and clean-up when the process is interrupted (the commands a capture
//! runs stopped and its temporary files removed too).

use super::tree::remove_tree;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// An exclusive lock on one build directory, held for a whole build and
/// released by the kernel however the process ends (so a killed build never
/// leaves a stale lock).
#[derive(Debug)]
pub(crate) struct BuildLock {
    _file: fs::File,
}

impl BuildLock {
    /// Takes the lock at `path`, waiting for another build that holds it;
    /// says so once on stderr, as cargo does, when it has to wait.
    pub(crate) fn acquire(path: &Path, what: &str) -> io::Result<BuildLock> {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)?;
        #[cfg(unix)]
        {
            use rustix::fs::{flock, FlockOperation};
            match flock(&file, FlockOperation::NonBlockingLockExclusive) {
                Ok(()) => {}
                Err(e) if e == rustix::io::Errno::WOULDBLOCK => {
                    eprintln!(
                        "kansoku: another build into {what} is running; waiting for it to finish (lock: {})",
                        path.display()
                    );
                    flock(&file, FlockOperation::LockExclusive)?;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(BuildLock { _file: file })
    }
}

/// The names a build gives its transient directories beside `out`:
/// `.public.kansoku-staging-PID` (the tree being written) and, from
/// kansoku 0.1, `.public.kansoku-old-PID` (the tree being replaced).
pub(crate) fn sibling(out: &Path, name: &str, tag: &str, pid: u32) -> PathBuf {
    out.with_file_name(format!(".{name}.kansoku-{tag}-{pid}"))
}

/// Removes the transient directories of builds into `out` that are no
/// longer running. Called with the build lock held, so none of them is
/// in use: a build holds the lock from before it makes one until after it
/// is gone. A previous tree that a build killed mid-swap left while `out`
/// is missing is put back rather than removed.
///
/// One that cannot be removed (a directory in it made read-only or
/// immutable by hand) is left, and returned with why: it has another name
/// than this build's, so it stops nothing, and the caller names it.
pub(crate) fn remove_leftovers(
    out: &Path,
    name: &str,
) -> crate::error::Result<Vec<(PathBuf, String)>> {
    use crate::error::Error;
    let mut stuck = Vec::new();
    let Some(parent) = out.parent() else {
        return Ok(stuck);
    };
    let entries = match fs::read_dir(parent) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(stuck),
        Err(e) => return Err(Error::io(parent, e)),
    };
    let own = std::process::id();
    let prefix = format!(".{name}.kansoku-");
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(parent, e))?;
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        let Some((tag, pid)) = rest.rsplit_once('-') else {
            continue;
        };
        if !matches!(tag, "staging" | "old" | "manifest") || pid.parse::<u32>().ok() == Some(own) {
            continue;
        }
        let path = entry.path();
        let out_missing =
            matches!(fs::symlink_metadata(out), Err(e) if e.kind() == io::ErrorKind::NotFound);
        if tag == "old" && out_missing && entry.file_type().is_ok_and(|t| t.is_dir()) {
            fs::rename(&path, out).map_err(|e| Error::io(&path, e))?;
            continue;
        }
        match remove_tree(&path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => stuck.push((path, e.to_string())),
            _ => {}
        }
    }
    Ok(stuck)
}

/// Removes the spares earlier builds could not remove and moved aside
/// (`NAME.spare-stuck-PID` in `state`); those that still cannot be
/// removed are returned with why.
pub(crate) fn remove_stuck_spares(state: &Path, name: &str) -> Vec<(PathBuf, String)> {
    let mut stuck = Vec::new();
    let Ok(entries) = fs::read_dir(state) else {
        return stuck;
    };
    let prefix = format!("{name}.spare-stuck-");
    for entry in entries.flatten() {
        if !entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(&prefix))
        {
            continue;
        }
        let path = entry.path();
        if let Err(e) = remove_tree(&path) {
            stuck.push((path, e.to_string()));
        }
    }
    stuck
}

/// Set when the process is interrupted: every write into a staging tree
/// fails from then on, so rendering threads stop adding to what is being
/// removed.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The staging trees of this process that an interruption must remove.
/// A global because a signal arrives from outside any call; its lock is
/// also held for the whole of a commit, so an interruption waits for a
/// commit to finish rather than cutting one in half.
static ACTIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

pub(crate) fn active() -> MutexGuard<'static, Vec<PathBuf>> {
    // Each push and removal is whole: a panic elsewhere leaves a valid list.
    crate::sync::lock(&ACTIVE)
}

/// Held while a capture renames its files into place: an interruption
/// waits for the renames, as it waits for a build's commit.
pub(crate) fn commit_section() -> MutexGuard<'static, Vec<PathBuf>> {
    active()
}

/// Whether a signal has interrupted this process (see
/// [`exit_cleanly_on_signals`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The commands `kansoku capture` runs, by process group, with the command
/// line shown when one is stopped; and the temporary files it writes. An
/// interruption stops the one and removes the others (issue 39, M5): a
/// command left running after kansoku exits would go on filling a disk.
static CHILDREN: Mutex<Vec<(u32, String)>> = Mutex::new(Vec::new());
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A command's process group, stopped on an interruption until dropped.
#[derive(Debug)]
pub(crate) struct Child(u32);

impl Drop for Child {
    fn drop(&mut self) {
        crate::sync::lock(&CHILDREN).retain(|(g, _)| *g != self.0);
    }
}

/// Registers the process group `group` (the command `shown` leads it).
pub(crate) fn child(group: u32, shown: String) -> Child {
    crate::sync::lock(&CHILDREN).push((group, shown));
    Child(group)
}

/// A temporary file (or a scratch tree), removed on an interruption until
/// dropped.
#[derive(Debug)]
pub(crate) struct Temporary(PathBuf);

impl Drop for Temporary {
    fn drop(&mut self) {
        crate::sync::lock(&TEMPORARY).retain(|p| *p != self.0);
    }
}

/// Registers the temporary file or tree at `path`.
pub(crate) fn temporary(path: PathBuf) -> Temporary {
    crate::sync::lock(&TEMPORARY).push(path.clone());
    Temporary(path)
}

/// Stops every process of the group `group`: SIGTERM, then, after up to a
/// second for them to end, SIGKILL.
#[cfg(unix)]
pub(crate) fn stop_group(group: u32) {
    if let Some(pid) = i32::try_from(group)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        end_group(pid, std::time::Duration::from_secs(1), || {});
    }
}

/// SIGTERM to the group `pid`, then SIGKILL if any of it is left after
/// `grace`, running `reap` while it waits. Returns whether SIGKILL was
/// sent.
#[cfg(unix)]
fn end_group(
    pid: rustix::process::Pid,
    grace: std::time::Duration,
    mut reap: impl FnMut(),
) -> bool {
    use rustix::process::{kill_process_group, test_kill_process_group, Signal};
    if kill_process_group(pid, Signal::TERM).is_err() {
        return false;
    }
    let deadline = std::time::Instant::now() + grace;
    loop {
        reap();
        if test_kill_process_group(pid).is_err() {
            return false;
        }
        if std::time::Instant::now() >= deadline {
            let _ = kill_process_group(pid, Signal::KILL);
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[cfg(not(unix))]
pub(crate) fn stop_group(_group: u32) {}

/// Makes this process the reaper of what the commands it starts leave
/// behind (`PR_SET_CHILD_SUBREAPER`): a process whose parent ended is
/// handed to kansoku rather than to init, so that [`stop_child`] can reap
/// it and see the group end. With init as the reaper, a group lived on as
/// long as init took to reap its zombies: up to a second on some
/// machines, for ever in a container whose first process reaps nothing.
/// Process-wide and lasting; refused only by kernels older than 3.4,
/// where stopping waits as it did before.
#[cfg(target_os = "linux")]
pub(crate) fn adopt_orphans() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
    });
}

/// Reaps the ended members of the group `group` that are this process's
/// children (the ones [`adopt_orphans`] handed it). Only once the group's
/// leader is reaped: reaping the leader here would take its status from
/// the `Child` that waits for it.
#[cfg(unix)]
fn reap_group(group: rustix::process::Pid) {
    use rustix::process::{waitpgid, WaitOptions};
    while let Ok(Some(_)) = waitpgid(group, WaitOptions::NOHANG) {}
}

/// Stops `child` and every process it started (its process group), as
/// [`stop_group`] does, and reaps it; for the commands kansoku starts, which
/// it can reap. Returns whether SIGKILL was needed:
/// whether the group outlived a second after SIGTERM.
#[cfg(unix)]
pub(crate) fn stop_child(child: &mut std::process::Child) -> bool {
    stop_child_within(child, std::time::Duration::from_secs(1))
}

/// [`stop_child`] with `grace` between SIGTERM and SIGKILL (the tests'
/// group that ignores SIGTERM need not wait a whole second to be killed).
#[cfg(unix)]
fn stop_child_within(child: &mut std::process::Child, grace: std::time::Duration) -> bool {
    let Some(pid) = i32::try_from(child.id())
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        let _ = child.kill();
        let _ = child.wait();
        return true;
    };
    // Reaped as soon as it ends: until then `child` is a zombie, and a
    // zombie still counts as a member of its group, so the group seemed
    // to live on for the whole second every time. So are the processes
    // it left, which are ours to reap (`adopt_orphans`).
    let killed = end_group(pid, grace, || {
        if let Ok(Some(_)) = child.try_wait() {
            reap_group(pid);
        }
    });
    let _ = child.wait();
    killed
}

#[cfg(not(unix))]
pub(crate) fn stop_child(child: &mut std::process::Child) -> bool {
    let _ = child.kill();
    let _ = child.wait();
    true
}

#[cfg(all(test, unix))]
mod stop_tests {
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// A command that ends on SIGTERM is not sent SIGKILL: the capture
    /// limits and `recapture`'s stops took a whole extra second each while
    /// the command, a zombie until reaped, kept its group alive. One
    /// process only: what a command leaves behind is the next test's.
    #[test]
    fn a_group_that_ends_on_sigterm_is_not_killed() {
        let mut child = Command::new("sleep")
            .arg("30")
            .process_group(0)
            .spawn()
            .expect("sleep runs");
        assert!(!super::stop_child(&mut child), "SIGKILL was sent");
        assert!(child.try_wait().is_ok());
    }

    /// `script` run by sh in a process group of its own, once it has
    /// printed its first line (returned).
    fn sh_in_a_group(script: &str) -> (std::process::Child, String) {
        let mut child = Command::new("sh")
            .args(["-c", script])
            .stdout(std::process::Stdio::piped())
            .process_group(0)
            .spawn()
            .expect("sh runs");
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
            &mut line,
        )
        .expect("its first line");
        (child, line)
    }

    /// What a command leaves behind is kansoku's to reap: a process whose
    /// parent ended is handed to kansoku, not to init, and ends with the
    /// group. An init that reaps slowly (this machine's takes up to a
    /// second) or never (a container's shell) kept such a group alive for
    /// the whole second after SIGTERM, then was sent SIGKILL in vain.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_orphan_of_the_command_is_adopted_and_reaped() {
        use rustix::process::{test_kill_process, Pid};
        super::adopt_orphans();
        let (mut child, line) = sh_in_a_group("sleep 30 & echo $!");
        let orphan: i32 = line.trim().parse().expect("the pid of sleep");
        // sh ends at once; its sleep is then this process's child.
        child.wait().expect("sh ends");
        let stat = std::fs::read_to_string(format!("/proc/{orphan}/stat")).expect("sleep runs");
        let ppid = stat
            .rsplit(')')
            .next()
            .and_then(|r| r.split_whitespace().nth(1));
        assert_eq!(ppid, Some(std::process::id().to_string().as_str()));
        assert!(!super::stop_child(&mut child), "SIGKILL was sent");
        let pid = Pid::from_raw(orphan).expect("a pid");
        assert!(
            test_kill_process(pid).is_err(),
            "sleep is gone, not a zombie"
        );
    }

    /// A command that ignores SIGTERM is killed once its grace is over
    /// (`stop_child` gives it a second).
    #[test]
    fn a_group_that_ignores_sigterm_is_killed() {
        // Its first line says the trap is set.
        let (mut child, _) = sh_in_a_group("trap '' TERM; echo ready; sleep 30");
        let grace = std::time::Duration::from_millis(100);
        assert!(
            super::stop_child_within(&mut child, grace),
            "SIGKILL was needed"
        );
        assert!(child.try_wait().is_ok_and(|s| s.is_some()), "reaped");
    }
}

/// Removes this process's staging trees after an interruption: stops the
/// commands a capture runs, waits for a commit in progress, stops further
/// writes, then removes each tree (again if a write still in flight
/// re-created part of it) and each temporary file.
pub fn clean_up_after_interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let children: Vec<(u32, String)> = crate::sync::lock(&CHILDREN).clone();
    for (group, shown) in children {
        stop_group(group);
        eprintln!("kansoku: interrupted: stopped `{shown}` and every process it started");
    }
    // A write that began before the flag was set may still make a
    // directory or a file: wait for those (they are short) so that none
    // re-creates part of a tree after it is removed.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while IN_FLIGHT.load(Ordering::SeqCst) > 0 && std::time::Instant::now() < deadline {
        std::thread::yield_now();
    }
    let mut dirs = active();
    for path in crate::sync::lock(&TEMPORARY).drain(..) {
        let removed = if path.is_dir() {
            remove_tree(&path)
        } else {
            fs::remove_file(&path)
        };
        if removed.is_ok() {
            eprintln!("kansoku: interrupted: removed {}", path.display());
        }
    }
    for dir in dirs.drain(..) {
        for _ in 0..50 {
            match remove_tree(&dir) {
                Ok(()) => break,
                Err(e) if e.kind() == io::ErrorKind::NotFound => break,
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(10)),
            }
        }
    }
}

/// Writes into a staging tree under way (see [`write_op`]).
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

/// Held while one file is written into a staging tree.
pub(crate) struct WriteOp(());

impl Drop for WriteOp {
    fn drop(&mut self) {
        IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Starts a write into a staging tree, unless the process is being
/// interrupted (then `None`: write nothing).
pub(crate) fn write_op() -> Option<WriteOp> {
    IN_FLIGHT.fetch_add(1, Ordering::SeqCst);
    let op = WriteOp(());
    (!INTERRUPTED.load(Ordering::SeqCst)).then_some(op)
}

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove this
/// process's staging trees and then exit with 128 + the signal's number,
/// as a shell reports it. Returns once the handlers are in place. Only the
/// `kansoku` binary calls this: a library must not take over signals.
#[cfg(unix)]
pub fn exit_cleanly_on_signals() -> io::Result<()> {
    use tokio::signal::unix::{signal, SignalKind};
    let (ready, registered) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("kansoku-signals".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_io()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready.send(Err(e));
                    return;
                }
            };
            runtime.block_on(async move {
                let streams = (|| {
                    Ok::<_, io::Error>((
                        signal(SignalKind::interrupt())?,
                        signal(SignalKind::terminate())?,
                        signal(SignalKind::hangup())?,
                    ))
                })();
                let (mut int, mut term, mut hup) = match streams {
                    Ok(s) => {
                        let _ = ready.send(Ok(()));
                        s
                    }
                    Err(e) => {
                        let _ = ready.send(Err(e));
                        return;
                    }
                };
                let code = tokio::select! {
                    _ = int.recv() => 130,
                    _ = term.recv() => 143,
                    _ = hup.recv() => 129,
                };
                clean_up_after_interrupt();
                std::process::exit(code);
            });
        })?;
    registered
        .recv()
        .unwrap_or_else(|_| Err(io::Error::other("the signal thread stopped")))
}

/// Elsewhere the default handlers stay; the next build removes what an
/// interrupted one left.
#[cfg(not(unix))]
pub fn exit_cleanly_on_signals() -> io::Result<()> {
    Ok(())
}
