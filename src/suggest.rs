//! Did-you-mean: the nearest of some names to a misspelt one. A leaf of
//! the module graph, so that every stage (configuration, content,
//! validation, review) can suggest without depending on another.

/// The candidate closest to `given` by edit distance, if close enough.
pub(crate) fn nearest<'a>(
    given: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .map(|c| (edit_distance(given, c), c))
        .filter(|(d, c)| *d <= (c.len() / 2).max(2))
        .min()
        .map(|(_, c)| c)
}

pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
