//! Runs of an evidence file's lines, as its page and its twin show them:
//! one merging for both, so the two cannot disagree on which cited lines
//! are quoted together.

/// `runs` (first line, last line, what the run carries), sorted by first
/// line, with each run that overlaps or touches the one before merged
/// into it: one (first, last) per merged run, with what each of its runs
/// carried, in order.
pub(in crate::render) fn merged<T>(
    runs: impl IntoIterator<Item = (usize, usize, T)>,
) -> Vec<(usize, usize, Vec<T>)> {
    let mut out: Vec<(usize, usize, Vec<T>)> = Vec::new();
    for (a, b, item) in runs {
        match out.last_mut() {
            Some((_, end, items)) if a <= *end + 1 => {
                *end = (*end).max(b);
                items.push(item);
            }
            _ => out.push((a, b, vec![item])),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::merged;

    #[test]
    fn overlapping_and_touching_runs_merge_and_gaps_do_not() {
        let runs = [
            (1, 3, 'a'),
            (2, 5, 'b'),
            (6, 6, 'c'),
            (8, 9, 'd'),
            (8, 8, 'e'),
        ];
        assert_eq!(
            merged(runs),
            [(1, 6, vec!['a', 'b', 'c']), (8, 9, vec!['d', 'e'])]
        );
        assert!(merged(Vec::<(usize, usize, ())>::new()).is_empty());
    }
}
