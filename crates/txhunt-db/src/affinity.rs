//! CPU affinity: keeping a campaign worker, its sessions and the private server it runs on
//! together on one CPU.
//!
//! Why: a case's statements pass between the worker's thread, its session threads and the
//! server's threads many times per millisecond. When those threads sit on different CPUs every
//! hand-off is a cross-CPU wake-up, which on a small (virtual) machine costs tens of
//! microseconds; two workers sharing one server also share its threads and locks. Measured on
//! the 2-core machine (MariaDB, `fuzz --oracle explicit,dsg`, 30 s): two workers on one
//! server gave 1.39× one worker; two processes each with its own server, each pinned with
//! its server to one CPU, gave 2.0×. Linux only; elsewhere pinning is a no-op that says so.

use std::io;

/// The CPUs the calling thread may run on (its affinity mask: the process's, e.g. as
/// `taskset` set it, until the thread is pinned), in order; empty when that cannot be read.
pub fn allowed_cpus() -> Vec<usize> {
    imp::allowed_cpus()
}

/// Pins the calling thread to `cpu`: threads it starts afterwards, and processes it forks
/// (a server it starts), inherit the pin.
pub fn pin_current_thread(cpu: usize) -> io::Result<()> {
    imp::pin(0, cpu)
}

/// Pins every thread of every process in process group `group` (a testbed server, which
/// leads a group of its own) to `cpu`; the group's leader goes first, so processes it forks
/// meanwhile inherit the pin. Returns how many threads were pinned.
pub fn pin_process_group(group: u32, cpu: usize) -> io::Result<usize> {
    let mut pinned = pin_process(group, cpu)?;
    for entry in std::fs::read_dir("/proc")? {
        let Some(pid) = entry?
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != group && process_group(pid) == Some(group) {
            // A process that ended since the listing is no failure.
            pinned += pin_process(pid, cpu).unwrap_or(0);
        }
    }
    Ok(pinned)
}

/// Pins every thread of process `pid` to `cpu`; how many there were.
fn pin_process(pid: u32, cpu: usize) -> io::Result<usize> {
    let mut pinned = 0;
    for task in std::fs::read_dir(format!("/proc/{pid}/task"))? {
        if let Some(tid) = task?
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        {
            if imp::pin(tid, cpu).is_ok() {
                pinned += 1;
            }
        }
    }
    Ok(pinned)
}

/// The process group of process `pid`, from `/proc/PID/stat` (the fifth field; the second,
/// the command name in parentheses, may hold spaces, so fields are counted after its `)`).
fn process_group(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, after_name) = stat.rsplit_once(')')?;
    after_name.split_whitespace().nth(2)?.parse().ok()
}

#[cfg(target_os = "linux")]
mod imp {
    use std::io;

    pub(super) fn allowed_cpus() -> Vec<usize> {
        // SAFETY: a zeroed cpu_set_t is a valid empty set, filled in by the call.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: `set` is a cpu_set_t of `size` bytes.
        if unsafe { libc::sched_getaffinity(0, size, &mut set) } != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            // SAFETY: `cpu` is below CPU_SETSIZE.
            .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
            .collect()
    }

    /// Pins thread `tid` (0: the caller) to `cpu`.
    pub(super) fn pin(tid: i32, cpu: usize) -> io::Result<()> {
        if cpu >= libc::CPU_SETSIZE as usize {
            return Err(io::Error::other(format!("no CPU {cpu}")));
        }
        // SAFETY: a zeroed cpu_set_t is a valid empty set; `cpu` is below CPU_SETSIZE.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        unsafe { libc::CPU_SET(cpu, &mut set) };
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: `set` is a cpu_set_t of `size` bytes.
        match unsafe { libc::sched_setaffinity(tid, size, &set) } {
            0 => Ok(()),
            _ => Err(io::Error::last_os_error()),
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use std::io;

    pub(super) fn allowed_cpus() -> Vec<usize> {
        Vec::new()
    }

    pub(super) fn pin(_tid: i32, _cpu: usize) -> io::Result<()> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "CPU pinning is implemented on Linux only",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_pinned_to_an_allowed_cpu_runs_only_there() {
        let cpus = allowed_cpus();
        assert!(!cpus.is_empty(), "the affinity mask reads");
        let last = *cpus.last().unwrap();
        std::thread::spawn(move || {
            pin_current_thread(last).expect("pins");
            assert_eq!(allowed_cpus(), vec![last]);
            // A thread it starts inherits the pin.
            std::thread::spawn(allowed_cpus).join().unwrap()
        })
        .join()
        .map(|inherited| assert_eq!(inherited, vec![last]))
        .unwrap();
    }

    #[test]
    fn reads_the_process_group_of_a_process() {
        let own = std::process::id();
        // SAFETY: getpgid(0) only reads the caller's process group.
        let group = unsafe { libc::getpgid(0) } as u32;
        assert_eq!(process_group(own), Some(group));
    }
}
