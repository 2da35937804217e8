//! Memory a stage has freed, handed back to the system.

/// Hands the memory freed so far back to the system, on every thread of
/// rayon's pool (where rendering allocates) and on the calling thread.
/// mimalloc, the binary's allocator, keeps the pages freed in a thread's
/// heap until that thread allocates again, and rayon's threads sit idle
/// between builds: without this, a server would keep its last full build's
/// peak resident, and the search stage would start from rendering's.
/// Harmless where mimalloc is not the global allocator (the library's
/// tests): it then only sweeps mimalloc's own, empty heaps.
pub(crate) fn release_freed_memory() {
    rayon::broadcast(|_| collect());
    collect();
}

/// [`release_freed_memory`] for the calling thread only: for a thread of
/// our own that has just dropped a large value (a search shard's index).
pub(crate) fn collect() {
    // SAFETY: `mi_collect` takes no pointers; it only walks the calling
    // thread's own heap (and abandoned segments) under mimalloc's locks.
    unsafe { libmimalloc_sys::mi_collect(true) }
}
