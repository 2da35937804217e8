//! Sharing between threads: the one way kansoku takes a mutex. A leaf
//! module.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `m`, carrying on when another thread panicked while holding it.
/// Every value kansoku keeps under a mutex is still whole after such a
/// panic (each push, insert or assignment under the lock is complete), and
/// the panic itself is reported where it happened.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
