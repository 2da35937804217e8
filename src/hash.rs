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
    let mut h = ContentHasher::new();
    h.update(bytes);
    h.finish()
}

/// [`content_hash`] fed piece by piece, for files read in chunks (a large
/// evidence log is never held whole): the bytes are hashed in blocks of
/// [`BLOCK`], whatever the sizes of the pieces, so the value is the same
/// however the file was read; a file of one block or less hashes as it
/// always did.
pub(crate) struct ContentHasher {
    h: foldhash::quality::FoldHasher<'static>,
    block: Vec<u8>,
    wrote: bool,
}

/// The block size of [`ContentHasher`].
const BLOCK: usize = 1 << 20;

impl ContentHasher {
    pub(crate) fn new() -> Self {
        ContentHasher {
            h: foldhash::quality::FixedState::with_seed(FILES).build_hasher(),
            block: Vec::new(),
            wrote: false,
        }
    }

    pub(crate) fn update(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            if self.block.is_empty() && bytes.len() > BLOCK {
                // Whole blocks straight from the caller's buffer.
                let (head, rest) = bytes.split_at(BLOCK);
                self.h.write(head);
                self.wrote = true;
                bytes = rest;
                continue;
            }
            let take = (BLOCK - self.block.len()).min(bytes.len());
            self.block.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.block.len() == BLOCK && !bytes.is_empty() {
                self.h.write(&self.block);
                self.wrote = true;
                self.block.clear();
            }
        }
    }

    pub(crate) fn finish(mut self) -> u64 {
        if !self.block.is_empty() || !self.wrote {
            self.h.write(&self.block);
        }
        self.h.finish()
    }
}

/// [`content_hash`] of a file's bytes, read in pieces.
pub(crate) fn file_hash(path: &std::path::Path) -> std::io::Result<u64> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut h = ContentHasher::new();
    let mut buf = vec![0; 1 << 16];
    loop {
        match file.read(&mut buf) {
            Ok(0) => return Ok(h.finish()),
            Ok(n) => h.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
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
#[cfg(test)]
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::default();
    h.update(bytes);
    h.0
}

/// [`fnv1a`] fed piece by piece: the hash of cited lines read from a log
/// too large to hold.
#[derive(Clone, Copy)]
pub(crate) struct Fnv1a(pub(crate) u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    pub(crate) fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
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

    /// However a file is read, its hash is the one of its bytes whole.
    #[test]
    fn content_hash_does_not_depend_on_the_pieces() {
        let bytes: Vec<u8> = (0..(3 * super::BLOCK + 17))
            .map(|i| (i % 251) as u8)
            .collect();
        let whole = super::content_hash(&bytes);
        for piece in [1, 4096, super::BLOCK - 1, super::BLOCK, super::BLOCK + 3] {
            let mut h = super::ContentHasher::new();
            bytes.chunks(piece).for_each(|c| h.update(c));
            assert_eq!(h.finish(), whole, "pieces of {piece}");
        }
        let mut h = super::ContentHasher::new();
        h.update(b"");
        assert_eq!(h.finish(), super::content_hash(b""));
    }
}
