//! Sizes in `book.toml`: a number of bytes, or a number and a binary
//! unit (`"2 GiB"`), and back.

use serde::Deserialize;

/// A size as `book.toml` gives it: bytes, or a number and a unit.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum RawSize {
    Bytes(i64),
    Text(String),
}

/// The most a `.gz` evidence file may expand to when `book.toml` does not
/// say: more than any log a claim is likely to cite, little enough that a
/// few compressed kilobytes made to expand (a gzip bomb) cost seconds of
/// reading, not a disk.
pub(crate) const DEFAULT_MAX_GZ_SIZE: u64 = 2 << 30;

/// The units a size may be given in, largest first.
const SIZE_UNITS: [(&str, u64); 5] = [
    ("TiB", 1 << 40),
    ("GiB", 1 << 30),
    ("MiB", 1 << 20),
    ("KiB", 1 << 10),
    ("B", 1),
];

/// A size in bytes from `"2 GiB"`, `"512 MiB"`, `"100 B"` or a number.
pub(super) fn parse_size(raw: &RawSize) -> std::result::Result<u64, String> {
    let bad = || {
        "a size is a number of bytes or a number and a unit (B, KiB, MiB, GiB, TiB), such as \"2 GiB\"".to_owned()
    };
    let bytes = match raw {
        RawSize::Bytes(n) => u64::try_from(*n).map_err(|_| bad())?,
        RawSize::Text(t) => {
            let t = t.trim();
            let (number, unit) = t
                .find(|c: char| !c.is_ascii_digit())
                .map_or((t, "B"), |i| (&t[..i], t[i..].trim()));
            let scale = SIZE_UNITS
                .iter()
                .find(|(u, _)| *u == unit)
                .map(|(_, s)| *s)
                .ok_or_else(bad)?;
            number
                .parse::<u64>()
                .ok()
                .and_then(|n| n.checked_mul(scale))
                .ok_or_else(bad)?
        }
    };
    if bytes == 0 {
        return Err("a size of 0 would refuse every `.gz` log".to_owned());
    }
    Ok(bytes)
}

/// `bytes` as `book.toml` would give it: in the largest unit that divides
/// it, or in bytes.
pub(crate) fn show_size(bytes: u64) -> String {
    SIZE_UNITS.iter().find(|(_, s)| bytes % s == 0).map_or_else(
        || format!("{bytes} B"),
        |(u, s)| format!("{} {u}", bytes / s),
    )
}

#[cfg(test)]
mod tests {
    use super::show_size;

    #[test]
    fn a_size_is_shown_in_the_largest_unit_that_divides_it() {
        assert_eq!(show_size(2 << 30), "2 GiB");
        assert_eq!(show_size(1536 << 20), "1536 MiB");
        assert_eq!(show_size(1000), "1000 B");
    }
}
