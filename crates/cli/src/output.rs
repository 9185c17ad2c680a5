//! `Output`: standard output written one whole record at a time and never held back: a record
//! reaches the reader within [`FLUSH_DELAY`] of being written, whether or not more follow.
//!
//! Records collect in a buffer that a flusher thread writes out [`FLUSH_DELAY`] after the
//! oldest of them came in, so a burst of solutions costs one write, and the last of a burst is
//! not kept waiting for the next solution (which a long search may never find). A second stop
//! signal, which ends the process at once, writes what every open output holds first
//! ([`write_out_all`]): what was found is never lost, and the reader never sees half a record.

use crate::exit_code::Status;
use std::io::{self, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a record may wait in the buffer before the flusher writes it out.
pub const FLUSH_DELAY: Duration = Duration::from_millis(2);

/// Past this many bytes waiting, the writer writes them itself: memory stays bounded when
/// records come faster than the reader takes them.
const BUFFER_LIMIT: usize = 64 * 1024;

/// Standard output, written one whole record (a board, a line, a solution) at a time, so
/// whatever reaches the reader is complete even when the run is stopped.
pub struct Output {
    shared: Arc<Shared>,
    flusher: Option<JoinHandle<()>>,
}

/// What the command's thread, the flusher and a forced exit share.
struct Shared {
    pending: Mutex<Pending>,
    /// Wakes the flusher when a record comes into an empty buffer, or when it must stop.
    wake: Condvar,
    /// Held for each write to stdout, so records leave in the order they came: the bytes are
    /// taken from `pending` and written while it is held. Its buffer is the spare one.
    sink: Mutex<Vec<u8>>,
}

#[derive(Default)]
struct Pending {
    bytes: Vec<u8>,
    /// When the oldest byte in `bytes` came in.
    since: Option<Instant>,
    /// A record kept back to be written at the end or at a forced exit, whichever comes
    /// first (an optimisation's best solution so far, printed only once the run ends).
    held: Option<Vec<u8>>,
    /// The reader went away (EPIPE): stop quietly.
    closed: bool,
    /// Any other write error, reported once at the end.
    error: Option<io::Error>,
    /// The flusher is to end.
    stop: bool,
}

/// Every output open in this process, for [`write_out_all`].
static OPEN: Mutex<Vec<Weak<Shared>>> = Mutex::new(Vec::new());

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere must not cost the records already found.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Output {
    pub fn new() -> Self {
        let shared = Arc::new(Shared {
            pending: Mutex::new(Pending::default()),
            wake: Condvar::new(),
            sink: Mutex::new(Vec::new()),
        });
        let flusher = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("csp-output".into())
                .spawn(move || shared.flush_when_due())
                // Without a thread, records still go out at each flush and at the end.
                .ok()
        };
        let mut open = lock(&OPEN);
        open.retain(|w| w.strong_count() > 0);
        open.push(Arc::downgrade(&shared));
        Output { shared, flusher }
    }

    /// Writes one record; returns false once output is no longer possible.
    pub fn record(&mut self, bytes: &[u8]) -> bool {
        let mut pending = lock(&self.shared.pending);
        if pending.closed || pending.error.is_some() {
            return false;
        }
        pending.bytes.extend_from_slice(bytes);
        if pending.since.is_none() {
            pending.since = Some(Instant::now());
            self.shared.wake.notify_one();
        }
        let full = pending.bytes.len() >= BUFFER_LIMIT;
        drop(pending);
        if full {
            return self.flush();
        }
        true
    }

    /// Keeps `bytes` back as the record to write when the output ends, in place of the one
    /// kept before: a run stopped at once by a second signal still writes it.
    pub fn hold(&mut self, bytes: &[u8]) {
        let mut pending = lock(&self.shared.pending);
        let held = pending.held.get_or_insert_with(Vec::new);
        held.clear();
        held.extend_from_slice(bytes);
    }

    /// Writes the record kept by [`Output::hold`], if any, after those written so far.
    pub fn release(&mut self) -> bool {
        let held = lock(&self.shared.pending).held.take();
        match held {
            Some(bytes) => self.record(&bytes),
            None => self.is_open(),
        }
    }

    /// Writes everything recorded so far, now.
    pub fn flush(&mut self) -> bool {
        self.shared.write_out();
        self.is_open()
    }

    /// Flushes what is left at the end of a run. Returns the status the run ends with when
    /// output failed: success when the reader went away (as `head` does), and bad input, with
    /// one line naming `command`, for any other write error. `None` when all was written.
    pub fn finish(&mut self, command: &str) -> Option<Status> {
        self.release();
        self.flush();
        let mut pending = lock(&self.shared.pending);
        if pending.closed {
            return Some(Status::Success);
        }
        let e = pending.error.take()?;
        eprintln!("{command}: cannot write the output: {e}");
        Some(Status::BadInput)
    }

    pub fn is_open(&self) -> bool {
        let pending = lock(&self.shared.pending);
        !pending.closed && pending.error.is_none()
    }

    /// The reader went away.
    pub fn is_closed(&self) -> bool {
        lock(&self.shared.pending).closed
    }
}

impl Default for Output {
    fn default() -> Self {
        Output::new()
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        lock(&self.shared.pending).stop = true;
        self.shared.wake.notify_one();
        if let Some(flusher) = self.flusher.take() {
            let _ = flusher.join();
        }
        self.release();
        self.shared.write_out();
    }
}

impl Shared {
    /// The flusher: sleeps until a record comes in, waits until it is [`FLUSH_DELAY`] old,
    /// then writes out everything waiting.
    fn flush_when_due(&self) {
        let mut pending = lock(&self.pending);
        loop {
            if pending.stop {
                return;
            }
            let Some(since) = pending.since else {
                pending = self
                    .wake
                    .wait(pending)
                    .unwrap_or_else(PoisonError::into_inner);
                continue;
            };
            let due = since + FLUSH_DELAY;
            let now = Instant::now();
            if now < due {
                pending = self
                    .wake
                    .wait_timeout(pending, due - now)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
                continue;
            }
            drop(pending);
            self.write_out();
            pending = lock(&self.pending);
        }
    }

    /// Writes the waiting bytes to stdout, in one write, in order with every other writer.
    fn write_out(&self) {
        let mut spare = lock(&self.sink);
        self.write_out_with(&mut spare);
    }

    /// [`Shared::write_out`] once the sink is held, `spare` its buffer.
    fn write_out_with(&self, spare: &mut Vec<u8>) {
        {
            let mut pending = lock(&self.pending);
            pending.since = None;
            if pending.closed || pending.error.is_some() {
                pending.bytes.clear();
                return;
            }
            spare.clear();
            std::mem::swap(spare, &mut pending.bytes);
        }
        if spare.is_empty() {
            return;
        }
        let mut stdout = io::stdout().lock();
        let result = stdout.write_all(spare).and_then(|()| stdout.flush());
        drop(stdout);
        spare.clear();
        if let Err(e) = result {
            let mut pending = lock(&self.pending);
            if e.kind() == io::ErrorKind::BrokenPipe {
                pending.closed = true;
            } else {
                pending.error.get_or_insert(e);
            }
        }
    }

    /// Writes what is waiting and the held record, if the sink can be had before `deadline`
    /// (the command's thread may be blocked writing to a reader that does not read).
    fn write_out_before(&self, deadline: Instant) {
        let mut spare = loop {
            match self.sink.try_lock() {
                Ok(spare) => break spare,
                Err(std::sync::TryLockError::Poisoned(p)) => break p.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(std::sync::TryLockError::WouldBlock) => return,
            }
        };
        {
            let mut pending = lock(&self.pending);
            if let Some(held) = pending.held.take() {
                pending.bytes.extend_from_slice(&held);
            }
        }
        self.write_out_with(&mut spare);
        // Keep the sink: nothing may start a record after this one before the process ends.
        std::mem::forget(spare);
    }
}

/// Writes out everything every open output holds, whole records only, waiting at most
/// `patience` for a write in progress: for a process about to end at once.
pub fn write_out_all(patience: Duration) {
    let deadline = Instant::now() + patience;
    let open: Vec<Arc<Shared>> = lock(&OPEN).iter().filter_map(Weak::upgrade).collect();
    for shared in open {
        shared.write_out_before(deadline);
    }
}
