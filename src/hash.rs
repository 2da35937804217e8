//! Hashing, in one place: the hash of a file's bytes, the keys of the
//! memo tables, and the hash maps of the stages. A leaf module: it knows
//! nothing of kansoku's types, only of bytes and `Hash` values.
//!
//! Every hash here is the same in every run (fixed seeds, no random
//! state), because the values are written to `.kansoku/` and compared by
//! the next build. Each purpose has its own seed; the seeds are the ones
//! the values on disk were made with, so a file written by an earlier
//! build still matches. None of them is cryptographic: they tell a changed
//! input from the previous one where nobody is choosing bytes to collide.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};

/// A hash map for the many short keys of a site (paths, claim ids), where
/// SipHash showed in profiles; a fixed state, so nothing depends on a
/// random seed (no key comes from outside the site).
pub(crate) type Map<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

/// A hasher seeded with `seed`.
fn seeded(seed: u64) -> impl Hasher {
    foldhash::quality::FixedState::with_seed(seed).build_hasher()
}

/// The seed of [`content_hash`] ("kansoku1").
const FILES: u64 = 0x6b61_6e73_6f6b_7531;
/// The seed of the build memo's keys ("kansoku2").
const MEMO: u64 = 0x6b61_6e73_6f6b_7532;
/// The seed of the checks memo's keys ("kansoku3").
const CHECKS: u64 = 0x6b61_6e73_6f6b_7533;

/// A 64-bit hash of a file's bytes (the bytes alone, no length prefix),
/// the same in every run (a foldhash upgrade that changed it would only
/// cost one full write). It tells a rebuilt file from the previous one at
/// the same path and size; the manifest and the memo tables record it.
pub(crate) fn content_hash(bytes: &[u8]) -> u64 {
    let mut h = seeded(FILES);
    h.write(bytes);
    h.finish()
}

/// The keys of the build memo (`site::memo`) and the search memo: what a
/// unit or a shard was made from.
pub(crate) mod memo {
    use std::hash::{Hash, Hasher};

    /// A hasher for a memo key built up piece by piece.
    pub(crate) fn hasher() -> impl Hasher {
        super::seeded(super::MEMO)
    }

    /// The memo key of one value.
    pub(crate) fn hash_of(value: impl Hash) -> u64 {
        super::hash_of(super::MEMO, value)
    }
}

/// The keys of the checks memo (`validate`): what a page's findings and
/// the facts other pages read of it were made from.
pub(crate) mod checks {
    use std::hash::{Hash, Hasher};

    /// A hasher for a checks key built up piece by piece.
    pub(crate) fn hasher() -> impl Hasher {
        super::seeded(super::CHECKS)
    }

    /// The checks key of one value.
    pub(crate) fn hash_of(value: impl Hash) -> u64 {
        super::hash_of(super::CHECKS, value)
    }
}

fn hash_of(seed: u64, value: impl Hash) -> u64 {
    let mut h = seeded(seed);
    value.hash(&mut h);
    h.finish()
}

/// FNV-1a, 64 bits, for `kansoku.lock`: stable across versions and
/// platforms by definition (a committed lock must hash the same
/// everywhere), where the seeded hashes above are only promised stable for
/// one foldhash version; no dependency, and plenty to tell an edited range
/// from the reviewed one.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    /// The values written to `.kansoku/` by earlier builds: a change here
    /// makes every record on disk mismatch (or, worse, match wrongly), so
    /// it must come with a new memo format.
    #[test]
    fn hashes_on_disk_keep_their_values() {
        assert_eq!(super::content_hash(b"kansoku"), 0x7434_2f81_a5eb_b7f0);
        assert_eq!(super::memo::hash_of(("a", 1u64)), 0x2feb_6971_fbd2_9060);
        assert_eq!(super::checks::hash_of(("a", 1u64)), 0x3217_fc16_b428_0eb5);
        // FNV-1a's published definition gives this too.
        assert_eq!(super::fnv1a(b"kansoku"), 0x73c3_953a_f62e_b7bb);
    }
}
