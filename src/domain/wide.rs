//! Domains too wide for a bitset: bounds, and the ranges of values removed between them.
//!
//! A [`Wide`] domain is the interval `low..=high` minus a set of holes, each a maximal range of
//! removed values, kept in an ordered map from its first value to its last. A variable declared
//! `0..=1_000_000_000` is two numbers; removing a range of values, however long, is one map
//! update. Invariants:
//!
//! - `low` and `high` are values of the domain (never in a hole) unless the domain is empty,
//!   which is the one state `low > high`, always stored as [`EMPTY`].
//! - Holes never overlap or touch: between two holes lies at least one value that is not in
//!   one. A hole entirely outside `low..=high` is left in place when a bound moves (the trail
//!   undoes the move word for word) and is ignored.
//!
//! Every change goes on the trail as one word: word `BOUNDS` holds the old bounds (`low` in the
//! low 32 bits, `high` in the high 32 bits); word `UNDO_INSERT` holds a hole that was added
//! (undone by removing it) and word `UNDO_REMOVE` a hole that was merged away (undone by putting
//! it back). Undoing the words in reverse order restores the map exactly.
//!
//! What a search keeps on its trail does not grow with the number of changes a level sees,
//! only with what the domain holds: the bounds are recorded once per level (a search that
//! refutes `x = min` again and again at one level moves them millions of times), and a hole
//! added at the current level and then widened (refuting `x = v`, then `x = v − 1`, …) has
//! its one `UNDO_INSERT` record rewritten instead of a removal and an insertion more. Undoing
//! the rewritten record at its place is right because no later record of the level names a
//! value of the widened hole: the hole was there, untouched, since its record, and its new
//! values were neither in a hole nor next to one but this one.

use std::collections::BTreeMap;

use smallvec::SmallVec;

use super::Record;

/// The bounds of an empty domain.
const EMPTY: (i32, i32) = (i32::MAX, i32::MIN);

/// Trail words (see the module documentation).
const BOUNDS: u32 = 0;
const UNDO_INSERT: u32 = 1;
const UNDO_REMOVE: u32 = 2;

/// A wide domain: its bounds and its holes (see the module documentation).
#[derive(Clone, Debug)]
pub(super) struct Wide {
    low: i32,
    high: i32,
    /// The holes, first value to last value (inclusive).
    holes: BTreeMap<i32, i32>,
}

/// A trail word holding two values.
fn pack(a: i32, b: i32) -> u64 {
    u64::from(a as u32) | u64::from(b as u32) << 32
}

fn unpack(word: u64) -> (i32, i32) {
    (word as u32 as i32, (word >> 32) as u32 as i32)
}

impl Wide {
    /// The values given, sorted ascending without repeats (at least one).
    pub(super) fn from_sorted(values: &[i32]) -> Wide {
        let (low, high) = match (values.first(), values.last()) {
            (Some(&low), Some(&high)) => (low, high),
            _ => EMPTY,
        };
        let holes = values
            .windows(2)
            .filter(|pair| i64::from(pair[1]) - i64::from(pair[0]) > 1)
            .map(|pair| (pair[0] + 1, pair[1] - 1))
            .collect();
        Wide { low, high, holes }
    }

    /// The interval `low..=high`.
    pub(super) fn interval(low: i32, high: i32) -> Wide {
        let (low, high) = if low > high { EMPTY } else { (low, high) };
        Wide {
            low,
            high,
            holes: BTreeMap::new(),
        }
    }

    /// The hole that holds `value`, if one does.
    fn hole_at(&self, value: i32) -> Option<(i32, i32)> {
        let (&start, &end) = self.holes.range(..=value).next_back()?;
        (end >= value).then_some((start, end))
    }

    pub(super) fn is_empty(&self) -> bool {
        self.low > self.high
    }

    pub(super) fn bounds(&self) -> Option<(i32, i32)> {
        (!self.is_empty()).then_some((self.low, self.high))
    }

    pub(super) fn contains(&self, value: i32) -> bool {
        (self.low..=self.high).contains(&value) && self.hole_at(value).is_none()
    }

    /// The holes between the bounds (all of each: the bounds are never in a hole).
    fn inner_holes(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        let holes = self
            .bounds()
            .map(|(low, high)| self.holes.range(low..=high));
        holes.into_iter().flatten().map(|(&s, &e)| (s, e))
    }

    pub(super) fn size(&self) -> usize {
        let Some((low, high)) = self.bounds() else {
            return 0;
        };
        let span = i64::from(high) - i64::from(low) + 1;
        let removed: i64 = self
            .inner_holes()
            .map(|(s, e)| i64::from(e) - i64::from(s) + 1)
            .sum();
        (span - removed) as usize
    }

    /// The smallest value of the domain in `from..=to`.
    pub(super) fn next_present(&self, from: i32, to: i32) -> Option<i32> {
        let mut value = from.max(self.low);
        if let Some((_, end)) = self.hole_at(value) {
            // Holes never touch, so the value after one is not in another.
            value = end.checked_add(1)?;
        }
        (value <= to.min(self.high)).then_some(value)
    }

    /// The largest value of the domain in `from..=to`.
    pub(super) fn prev_present(&self, from: i32, to: i32) -> Option<i32> {
        let mut value = to.min(self.high);
        if let Some((start, _)) = self.hole_at(value) {
            value = start.checked_sub(1)?;
        }
        (value >= from.max(self.low)).then_some(value)
    }

    /// Sets the bounds, recording the old ones if they change.
    fn set_bounds(&mut self, (low, high): (i32, i32), record: &mut impl Record) -> bool {
        let (low, high) = if low > high { EMPTY } else { (low, high) };
        if (low, high) == (self.low, self.high) {
            return false;
        }
        record.record_once(BOUNDS, pack(self.low, self.high));
        (self.low, self.high) = (low, high);
        true
    }

    /// Keeps only the values in `low..=high`.
    pub(super) fn clamp(&mut self, low: i32, high: i32, record: &mut impl Record) -> bool {
        let bounds = match self.next_present(low, high) {
            Some(low) => (low, self.prev_present(low, high).unwrap_or(low)),
            None => EMPTY,
        };
        self.set_bounds(bounds, record)
    }

    pub(super) fn remove(&mut self, value: i32, record: &mut impl Record) -> bool {
        self.remove_range(value, value, record)
    }

    /// Removes the values `from..=to`.
    pub(super) fn remove_range(&mut self, from: i32, to: i32, record: &mut impl Record) -> bool {
        let Some(first) = self.next_present(from, to) else {
            return false;
        };
        let last = self.prev_present(from, to).unwrap_or(first);
        if first == self.low {
            let low = last
                .checked_add(1)
                .and_then(|v| self.next_present(v, self.high));
            return self.set_bounds(low.map_or(EMPTY, |low| (low, self.high)), record);
        }
        if last == self.high {
            // `first > low`, so `first - 1` does not overflow.
            let high = self.prev_present(self.low, first - 1);
            return self.set_bounds(high.map_or(EMPTY, |high| (self.low, high)), record);
        }
        // Strictly inside the bounds: one hole, merged with the holes it touches.
        let touching: SmallVec<[(i32, i32); 2]> = self
            .hole_at(first - 1)
            .into_iter()
            .chain(self.holes.range(first..=last + 1).map(|(&s, &e)| (s, e)))
            .collect();
        let (start, end) = touching
            .iter()
            .fold((first, last), |(start, end), &(s, e)| {
                (start.min(s), end.max(e))
            });
        if let [(s, e)] = touching[..]
            && record.amend(UNDO_INSERT, pack(s, e), pack(start, end))
        {
            // A hole added at this level, widened: its record now adds the wider hole.
            self.holes.remove(&s);
            self.holes.insert(start, end);
            return true;
        }
        for (s, e) in touching {
            self.holes.remove(&s);
            record.record(UNDO_REMOVE, pack(s, e));
        }
        self.holes.insert(start, end);
        record.record_amendable(UNDO_INSERT, pack(start, end));
        true
    }

    pub(super) fn restore_word(&mut self, word: u32, old: u64) {
        let (a, b) = unpack(old);
        match word {
            BOUNDS => (self.low, self.high) = (a, b),
            UNDO_INSERT => {
                self.holes.remove(&a);
            }
            _ => {
                debug_assert_eq!(word, UNDO_REMOVE);
                self.holes.insert(a, b);
            }
        }
    }

    /// The values of `base..base + 64` still in the domain, as bits.
    pub(super) fn window(&self, base: i32) -> u64 {
        let top = (i64::from(base) + 63).min(i64::from(i32::MAX)) as i32;
        let bit = |v: i32| (i64::from(v) - i64::from(base)) as u32;
        let (Some(first), Some(last)) =
            (self.next_present(base, top), self.prev_present(base, top))
        else {
            return 0;
        };
        let mut out = bits_between(bit(first), bit(last) + 1);
        for (s, e) in self.holes.range(first..=last).map(|(&s, &e)| (s, e)) {
            out &= !bits_between(bit(s), bit(e.min(last)) + 1);
        }
        out
    }

    /// Whether `self` and `other` hold the same values (holes outside the bounds do not count).
    pub(super) fn same_values(&self, other: &Wide) -> bool {
        self.bounds() == other.bounds() && self.inner_holes().eq(other.inner_holes())
    }

    pub(super) fn iter(&self) -> WideValues<'_> {
        WideValues {
            wide: self,
            next: self.bounds().map(|(low, _)| low),
        }
    }

    /// The runs of consecutive values, ascending: `(first, last)` of each.
    pub(super) fn runs(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        let mut next = self.bounds().map(|(low, _)| low);
        std::iter::from_fn(move || {
            let start = next?;
            let end = match self.holes.range(start..).next() {
                Some((&s, &e)) if s <= self.high => {
                    next = e.checked_add(1).filter(|&v| v <= self.high);
                    s - 1
                }
                _ => {
                    next = None;
                    self.high
                }
            };
            Some((start, end))
        })
    }
}

/// The values of a wide domain in ascending order.
#[derive(Clone, Debug)]
pub(super) struct WideValues<'a> {
    wide: &'a Wide,
    next: Option<i32>,
}

impl Iterator for WideValues<'_> {
    type Item = i32;

    fn next(&mut self) -> Option<i32> {
        let value = self.next?;
        self.next = value
            .checked_add(1)
            .and_then(|from| self.wide.next_present(from, self.wide.high));
        Some(value)
    }
}

/// Bits `from..to` of a word (`from <= to <= 64`).
fn bits_between(from: u32, to: u32) -> u64 {
    let below = |n: u32| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    below(to) & !below(from)
}
