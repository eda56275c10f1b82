use super::*;
use proptest::prelude::*;

fn no_record() -> impl FnMut(u32, u64) {
    |_, _| {}
}

#[test]
fn a_range_holds_every_value_between_its_bounds() {
    let d = Domain::range(-2, 3).unwrap();
    assert_eq!(d.size(), 6);
    assert_eq!(d.iter().collect::<Vec<_>>(), [-2, -1, 0, 1, 2, 3]);
    assert_eq!((d.min(), d.max()), (Some(-2), Some(3)));
    assert!(!d.is_fixed());
}

#[test]
fn empty_domains_are_rejected() {
    assert_eq!(Domain::range(3, 2), Err(DomainError::Empty));
    assert_eq!(Domain::from_values([]), Err(DomainError::Empty));
    assert!((5..5).into_domain().is_err());
}

#[test]
fn every_range_of_i32_is_a_domain() {
    let all = Domain::range(i32::MIN, i32::MAX).unwrap();
    assert_eq!(all.size(), 1 << 32);
    assert_eq!((all.min(), all.max()), (Some(i32::MIN), Some(i32::MAX)));
    assert_eq!(all.below(i32::MIN), None);
    assert_eq!(all.below(0), Some(-1));
    let big = (0..=1_000_000_000).into_domain().unwrap();
    assert_eq!(big.size(), 1_000_000_001);
    assert_eq!(big.to_string(), "{0..1000000000}");
}

#[test]
fn a_wide_domain_keeps_its_holes_and_moves_its_bounds_past_them() {
    let mut d = Domain::range(0, 1_000_000_000).unwrap();
    for v in [1, 2, 3, 64, 500_000_000] {
        assert!(d.remove(v, &mut no_record()));
    }
    assert!(!d.remove(2, &mut no_record()));
    assert_eq!(d.size(), 1_000_000_001 - 5);
    assert!(d.remove(0, &mut no_record()));
    assert_eq!(d.min(), Some(4));
    assert_eq!(d.iter().take(3).collect::<Vec<_>>(), [4, 5, 6]);
    assert_eq!(d.window(60), !(1 << 4));
    assert!(d.clamp(i32::MIN, 64, &mut no_record()));
    assert_eq!(d.to_string(), "{4..63}");
    assert!(d.clamp(500, 600, &mut no_record()));
    assert!(d.is_empty());
    let scattered = Domain::from_values([i32::MAX, -5, 0, 1_000_000_000, 0]).unwrap();
    assert_eq!(
        scattered.iter().collect::<Vec<_>>(),
        [-5, 0, 1_000_000_000, i32::MAX]
    );
    assert_eq!(scattered.to_string(), "{-5, 0, 1000000000, 2147483647}");
    assert_eq!(scattered.below(1_000_000_000), Some(0));
    assert_eq!(scattered.window(-6), 0b100_0010);
    let values = [-5, 0]
        .into_iter()
        .chain(1000..1_100_000)
        .chain([1_100_002]);
    let gappy = Domain::from_values(values).unwrap();
    assert_eq!(gappy.iter().take(3).collect::<Vec<_>>(), [-5, 0, 1000]);
    assert_eq!(
        (gappy.below(1000), gappy.below(1_100_002)),
        (Some(0), Some(1_099_999))
    );
    assert_eq!(gappy.size(), 2 + 1_099_000 + 1);
    assert_eq!(gappy.to_string(), "{-5, 0, 1000..1099999, 1100002}");
}

#[test]
fn a_wide_domain_at_the_top_of_i32_empties_cleanly() {
    let mut d = Domain::range(i32::MAX - 2_000_000, i32::MAX).unwrap();
    assert!(d.clamp(i32::MAX, i32::MAX, &mut no_record()));
    assert_eq!(d.value(), Some(i32::MAX));
    assert!(d.remove(i32::MAX, &mut no_record()));
    assert!(d.is_empty() && d.min().is_none() && d.size() == 0);
    assert!(!d.contains(i32::MAX));
}

#[test]
fn a_domain_of_4096_values_works() {
    let mut d = Domain::range(-2048, 2047).unwrap();
    assert_eq!(d.size(), 4096);
    assert!(d.remove(-2048, &mut no_record()));
    assert!(d.remove(2047, &mut no_record()));
    assert_eq!((d.min(), d.max()), (Some(-2047), Some(2046)));
    assert_eq!(d.size(), 4094);
}

#[test]
fn domains_are_equal_when_their_values_are_whatever_their_window() {
    let mut d = Domain::range(1, 4).unwrap();
    d.remove(1, &mut no_record());
    assert_eq!(d, Domain::from_values([2, 3, 4]).unwrap());
    assert_ne!(d, Domain::from_values([1, 2, 3]).unwrap());
    assert_ne!(d, Domain::from_values([3, 4, 5]).unwrap());
    let mut wide_window = Domain::range(0, 100).unwrap();
    wide_window.clamp(2, 4, &mut no_record());
    assert_eq!(wide_window, d);
    let mut wide = Domain::range(0, 10_000_000).unwrap();
    wide.clamp(2, 4, &mut no_record());
    assert_eq!(wide, d);
    d.clamp(1, 0, &mut no_record());
    wide.clamp(1, 0, &mut no_record());
    assert_eq!(d, wide);
    assert_eq!(
        d,
        Domain::range(5, 5)
            .map(|mut e| {
                e.remove(5, &mut no_record());
                e
            })
            .unwrap()
    );
}

#[test]
fn removing_down_to_one_value_fixes_the_domain() {
    let mut d = Domain::from_values([4, 7]).unwrap();
    assert!(d.remove(4, &mut no_record()));
    assert!(!d.remove(4, &mut no_record()));
    assert!(d.is_fixed());
    assert_eq!(d.value(), Some(7));
}

#[test]
fn window_extracts_values_relative_to_its_base() {
    let d = Domain::from_values([1, 3, 9]).unwrap();
    assert_eq!(d.window(1), 0b1_0000_0101);
    assert_eq!(d.window(0), 0b10_0000_1010);
    assert_eq!(d.window(3), 0b100_0001);
    assert_eq!(d.window(100), 0);
    let wide = Domain::from_values([0, 70, 130]).unwrap();
    assert_eq!(wide.window(70), 1 | 1 << 60);
    assert_eq!(wide.window(67), 0b1000 | 1 << 63);
    assert_eq!(wide.window(-1), 0b10);
}

#[test]
fn consecutive_windows_read_at_once_are_the_windows_one_by_one() {
    let values: Vec<i32> = (-200..600).filter(|v| v % 7 == 0 || v % 11 == 3).collect();
    let domains = [
        Domain::from_values(values.iter().copied()).unwrap(),
        Domain::from_values([5, 9, 60]).unwrap(),
        Domain::from_values([-3, 2_000_000, 5_000_000]).unwrap(),
    ];
    for domain in &domains {
        for base in [
            -400i64, -201, -200, -137, -1, 0, 1, 63, 64, 65, 300, 1_999_990,
        ] {
            let mut read = Vec::new();
            domain.windows(base, 14, |w| read.push(w));
            let one_by_one: Vec<u64> = (0..14)
                .map(|k| domain.window((base + 64 * k) as i32))
                .collect();
            assert_eq!(read, one_by_one, "{domain:?} at {base}");
        }
        let mut beyond = Vec::new();
        domain.windows(i64::from(i32::MAX) + 1, 2, |w| beyond.push(w));
        assert_eq!(beyond, [0, 0]);
    }
}

#[test]
fn the_ends_of_the_i32_range_are_values_like_any_other() {
    let top = Domain::from_values([i32::MAX - 1, i32::MAX]).unwrap();
    assert_eq!((top.min(), top.max()), (Some(i32::MAX - 1), Some(i32::MAX)));
    assert_eq!(
        Domain::from_values([i32::MAX]).unwrap().value(),
        Some(i32::MAX)
    );
    let bottom = Domain::from_values([i32::MIN, i32::MIN + 1]).unwrap();
    assert_eq!(
        (bottom.min(), bottom.max()),
        (Some(i32::MIN), Some(i32::MIN + 1))
    );
}

#[test]
fn display_groups_consecutive_values() {
    let d = Domain::from_values([1, 2, 3, 5, 7, 8]).unwrap();
    assert_eq!(d.to_string(), "{1..3, 5, 7..8}");
}

/// A value set and the domain built from it agree on every query.
fn assert_same(d: &Domain, expected: &std::collections::BTreeSet<i32>) {
    assert_eq!(
        d.iter().collect::<Vec<_>>(),
        expected.iter().copied().collect::<Vec<_>>()
    );
    assert_eq!(d.size(), expected.len());
    assert_eq!(d.min(), expected.first().copied());
    assert_eq!(d.max(), expected.last().copied());
    assert_eq!(d.is_empty(), expected.is_empty());
    assert_eq!(d.is_fixed(), expected.len() == 1);
}

#[derive(Debug, Clone)]
enum Op {
    Remove(i32),
    RetainWindow(i32, u64),
    /// Three consecutive windows from the base.
    RetainWindows(i32, [u64; 3]),
    RetainEven,
    Clamp(i32, i32),
    RemoveRange(i32, i32),
    Fix(i32),
    RetainSorted(Vec<i32>),
}

fn op(low: i32, high: i32) -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (low - 2..=high + 2).prop_map(Op::Remove),
        2 => (low - 70..=high + 2, any::<u64>()).prop_map(|(b, m)| Op::RetainWindow(b, m)),
        1 => (low - 140..=high + 2, any::<[u64; 3]>())
            .prop_map(|(b, m)| Op::RetainWindows(b, m)),
        1 => Just(Op::RetainEven),
        1 => (low - 2..=high + 2, low - 2..=high + 2).prop_map(|(a, b)| Op::Clamp(a, b)),
        1 => (low - 2..=high + 2, low - 2..=high + 2)
            .prop_map(|(a, b)| Op::RemoveRange(a.min(b), a.max(b))),
        1 => (low - 2..=high + 2).prop_map(Op::Fix),
    ]
}

/// The values `op` keeps, as a predicate over values.
fn keeps(op: &Op) -> impl Fn(i32) -> bool + '_ {
    move |v| match *op {
        Op::Remove(x) => v != x,
        Op::RetainWindow(base, mask) => {
            let i = i64::from(v) - i64::from(base);
            !(0..64).contains(&i) || mask >> i & 1 == 1
        }
        Op::RetainWindows(base, masks) => {
            let i = i64::from(v) - i64::from(base);
            !(0..192).contains(&i) || masks[(i / 64) as usize] >> (i % 64) & 1 == 1
        }
        Op::RetainEven => v % 2 == 0,
        Op::Clamp(a, b) => (a..=b).contains(&v),
        Op::RemoveRange(a, b) => !(a..=b).contains(&v),
        Op::Fix(x) => v == x,
        Op::RetainSorted(ref keep) => keep.binary_search(&v).is_ok(),
    }
}

fn apply(d: &mut Domain, op: &Op, record: &mut impl Record) -> bool {
    match *op {
        Op::Remove(v) => d.remove(v, record),
        Op::RetainWindow(base, mask) => d.retain_window(base, mask, record),
        Op::RetainWindows(base, masks) => d.retain_windows(base, &masks, record),
        Op::RetainEven => d.retain(|v| v % 2 == 0, record),
        Op::Clamp(a, b) => d.clamp(a, b, record),
        Op::RemoveRange(a, b) => d.remove_range(a, b, record),
        Op::Fix(v) => d.fix_to(v, record),
        Op::RetainSorted(ref keep) => d.retain_sorted(keep, record),
    }
}

/// The wide-domain reference: bounds and every range ever removed, unmerged.
struct Reference {
    lo: i64,
    hi: i64,
    removed: Vec<(i64, i64)>,
}

impl Reference {
    fn removed(&self, v: i64) -> bool {
        self.removed.iter().any(|&(a, b)| a <= v && v <= b)
    }

    fn has(&self, v: i32) -> bool {
        let v = i64::from(v);
        self.lo <= v && v <= self.hi && !self.removed(v)
    }

    fn bounds(&self) -> Option<(i32, i32)> {
        (self.lo <= self.hi).then_some((self.lo as i32, self.hi as i32))
    }

    fn size(&self) -> usize {
        let mut inside: Vec<(i64, i64)> = self
            .removed
            .iter()
            .map(|&(a, b)| (a.max(self.lo), b.min(self.hi)))
            .filter(|&(a, b)| a <= b)
            .collect();
        inside.sort_unstable();
        let (mut gone, mut reach) = (0, i64::MIN);
        for (a, b) in inside {
            let a = a.max(reach + 1);
            if a <= b {
                gone += b - a + 1;
            }
            reach = reach.max(b);
        }
        (self.hi - self.lo + 1 - gone) as usize
    }

    fn apply(&mut self, op: &Op) {
        match *op {
            Op::Remove(v) => self.removed.push((i64::from(v), i64::from(v))),
            Op::RetainWindow(base, mask) => {
                let base = i64::from(base);
                self.removed.extend(
                    (0..64)
                        .filter(|i| mask >> i & 1 == 0)
                        .map(|i| (base + i, base + i)),
                );
            }
            Op::RetainWindows(base, masks) => {
                self.removed.extend(
                    (0..192)
                        .filter(|&i| masks[i / 64] >> (i % 64) & 1 == 0)
                        .map(|i| (i64::from(base) + i as i64, i64::from(base) + i as i64)),
                );
            }
            Op::Clamp(a, b) => {
                (self.lo, self.hi) = (self.lo.max(i64::from(a)), self.hi.min(i64::from(b)))
            }
            Op::RemoveRange(a, b) => self.removed.push((i64::from(a), i64::from(b))),
            Op::Fix(v) => {
                let keep = if self.has(v) { i64::from(v) } else { i64::MAX };
                (self.lo, self.hi) = (keep, keep.min(self.hi));
            }
            Op::RetainSorted(ref keep) => {
                let keep: Vec<i64> = keep.iter().map(|&v| i64::from(v)).collect();
                self.lo = self.lo.max(keep[0]);
                self.hi = self.hi.min(keep[keep.len() - 1]);
                self.removed.extend(
                    keep.windows(2)
                        .map(|w| (w[0] + 1, w[1] - 1))
                        .filter(|&(a, b)| a <= b),
                );
            }
            Op::RetainEven => unreachable!("not used on wide domains"),
        }
        // The bounds are values: move them past removed ranges.
        while self.lo <= self.hi && self.removed(self.lo) {
            let lo = self.lo;
            self.lo = self
                .removed
                .iter()
                .filter(|&&(a, b)| a <= lo && lo <= b)
                .map(|&(_, b)| b + 1)
                .max()
                .unwrap_or(lo + 1);
        }
        while self.lo <= self.hi && self.removed(self.hi) {
            let hi = self.hi;
            self.hi = self
                .removed
                .iter()
                .filter(|&&(a, b)| a <= hi && hi <= b)
                .map(|&(a, _)| a - 1)
                .min()
                .unwrap_or(hi - 1);
        }
    }
}

#[test]
fn an_interval_reads_as_the_bitset_of_its_values_until_its_first_change() {
    for (low, high) in [(0, 64), (-100, 99), (1, 1000), (-5, 1 << 13)] {
        let interval = Domain::range(low, high).unwrap();
        assert!(matches!(interval.bits, Bits::Interval(_)));
        let set = Domain::from_values(low..=high).unwrap();
        assert!(matches!(set.bits, Bits::Set(_)));
        assert_eq!(interval, set);
        assert_eq!(interval.size(), set.size());
        assert_eq!((interval.min(), interval.max()), (set.min(), set.max()));
        assert_eq!((interval.is_fixed(), interval.is_empty()), (false, false));
        assert!(interval.iter().eq(set.iter()));
        assert_eq!(interval.to_string(), set.to_string());
        for probe in [
            low - 70,
            low - 1,
            low,
            low + 1,
            high - 1,
            high,
            high + 1,
            high + 70,
        ] {
            assert_eq!(interval.contains(probe), set.contains(probe), "{probe}");
            assert_eq!(interval.below(probe), set.below(probe), "{probe}");
            assert_eq!(interval.above(probe), set.above(probe), "{probe}");
            assert_eq!(interval.window(probe), set.window(probe), "{probe}");
        }
        let mut changed = interval.clone();
        assert!(!changed.remove(high + 1, &mut no_record()));
        assert!(matches!(changed.bits, Bits::Interval(_)));
        assert!(changed.remove(low + 1, &mut no_record()));
        assert!(matches!(changed.bits, Bits::Set(_)));
        assert_eq!(changed.size(), set.size() - 1);
    }
}

proptest! {
    #[test]
    fn below_and_above_are_the_nearest_smaller_and_larger_values(
        values in proptest::collection::btree_set(-200i32..200, 1..40),
        probe in -210i32..210,
    ) {
        let d = Domain::from_values(values.iter().copied()).unwrap();
        let expected = values.range(..probe).next_back().copied();
        prop_assert_eq!(d.below(probe), expected);
        let expected = values.range(probe + 1..).next().copied();
        prop_assert_eq!(d.above(probe), expected);
    }

    #[test]
    fn mutations_match_a_reference_set_and_undo_restores_exactly(
        (low, width, ops) in (-100i32..100, prop_oneof![1i32..64, 64i32..300])
            .prop_flat_map(|(low, width)| {
                (Just(low), Just(width), proptest::collection::vec(op(low, low + width - 1), 0..40))
            })
    ) {
        let high = low + width - 1;
        let original = Domain::range(low, high).unwrap();
        let mut d = original.clone();
        let mut reference: std::collections::BTreeSet<i32> = (low..=high).collect();
        let mut log: Vec<(u32, u64)> = Vec::new();
        let mut record = |w, old| log.push((w, old));
        for op in &ops {
            let before = reference.clone();
            reference.retain(|&v| keeps(op)(v));
            let changed = apply(&mut d, op, &mut record);
            prop_assert_eq!(changed, before != reference);
            assert_same(&d, &reference);
            for v in low - 3..=high + 3 {
                prop_assert_eq!(d.contains(v), reference.contains(&v));
            }
            for base in [low - 64, low - 5, low, low + 7, high] {
                let expected = (0..64).filter(|i| reference.contains(&(base + i))).fold(0u64, |m, i| m | 1 << i);
                prop_assert_eq!(d.window(base), expected);
            }
        }
        while let Some((w, old)) = log.pop() {
            d.restore_word(w, old);
        }
        prop_assert_eq!(d, original);
    }

    /// The same for a domain too wide for a bitset: operations near either end and in the
    /// middle, and lists of values to keep whose gaps are half the domain, against a
    /// reference that keeps the bounds and a plain list of removed ranges.
    #[test]
    fn a_wide_domain_matches_a_reference_and_undo_restores_exactly(
        low in prop_oneof![Just(i32::MIN), -3_000_000i32..3_000_000],
        extra in prop_oneof![Just(0i64), 1i64..1000, Just(i64::from(u32::MAX))],
        ops in proptest::collection::vec(
            (0usize..3, any::<u8>(), any::<u8>(), any::<u64>(), 0usize..8), 0..40),
    ) {
        let top = i64::from(i32::MAX);
        let span = Domain::MAX_SPAN as i64 + extra;
        let high = (i64::from(low) + span - 1).min(top) as i32;
        let middle = ((i64::from(low) + i64::from(high)) / 2) as i32;
        let original = Domain::range(low, high).unwrap();
        let at = |zone: usize, k: u8| -> i32 {
            let base = [i64::from(low), i64::from(middle), i64::from(high)][zone];
            (base + i64::from(k) - 20).clamp(i64::from(i32::MIN), top) as i32
        };
        let probes: Vec<i32> = (0..3)
            .flat_map(|zone| (0..=255u8).step_by(3).map(move |k| at(zone, k)))
            .collect();
        let mut reference = Reference { lo: i64::from(low), hi: i64::from(high), removed: vec![] };
        let mut d = original.clone();
        let mut log: Vec<(u32, u64)> = Vec::new();
        let mut record = |w, old| log.push((w, old));
        for &(zone, a, b, mask, kind) in &ops {
            let op = match kind {
                0 => Op::Remove(at(zone, a)),
                1 => Op::RetainWindow(at(zone, a), mask),
                2 => Op::Clamp(at(zone, a), at(2, b)),
                3 => Op::Clamp(at(0, a), at(zone, b)),
                4 => Op::Fix(at(zone, a)),
                5 => Op::RemoveRange(at(zone, a.min(b)), at(zone, a.max(b))),
                6 => Op::RetainWindows(
                    at(zone, a).saturating_sub(64),
                    [mask, mask.rotate_left(17), !mask],
                ),
                _ => {
                    let mut keep: Vec<i32> = (0..8).map(|i| at((zone + i) % 3, (mask >> (8 * i)) as u8)).collect();
                    keep.sort_unstable();
                    keep.dedup();
                    Op::RetainSorted(keep)
                }
            };
            let before: Vec<bool> = probes.iter().map(|&v| reference.has(v)).collect();
            reference.apply(&op);
            let changed = apply(&mut d, &op, &mut record);
            let after: Vec<bool> = probes.iter().map(|&v| reference.has(v)).collect();
            match reference.bounds() {
                Some((lo, hi)) => {
                    prop_assert_eq!((d.min(), d.max()), (Some(lo), Some(hi)));
                    prop_assert_eq!(d.size(), reference.size());
                }
                None => prop_assert!(d.is_empty() && d.size() == 0 && d.min().is_none()),
            }
            for (&v, &inside) in probes.iter().zip(&after) {
                prop_assert_eq!(d.contains(v), inside, "value {}", v);
            }
            if before != after {
                prop_assert!(changed);
            }
            for zone in 0..3 {
                let base = at(zone, 0);
                let expected = (0..64)
                    .filter(|&i| i64::from(base) + i <= top && reference.has((i64::from(base) + i) as i32))
                    .fold(0u64, |m, i| m | 1 << i);
                prop_assert_eq!(d.window(base), expected);
                let probe = at(zone, 30);
                let below = (i64::from(probe) - 200..i64::from(probe))
                    .rev()
                    .find(|&v| i32::try_from(v).is_ok_and(|v| reference.has(v)));
                if let Some(expected) = below {
                    prop_assert_eq!(d.below(probe), Some(expected as i32));
                }
                let above = (i64::from(probe) + 1..i64::from(probe) + 200)
                    .find(|&v| i32::try_from(v).is_ok_and(|v| reference.has(v)));
                if let Some(expected) = above {
                    prop_assert_eq!(d.above(probe), Some(expected as i32));
                }
            }
        }
        while let Some((w, old)) = log.pop() {
            d.restore_word(w, old);
        }
        prop_assert_eq!(&d, &original);
        prop_assert_eq!(d.size(), original.size());
    }
}
