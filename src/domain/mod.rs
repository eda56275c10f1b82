//! Finite integer domains as bitsets.
//!
//! A [`Domain`] is the set of values a variable may still take. It is a bitset over a contiguous
//! window of integers that starts at an offset, so negative values work. Invariants and costs:
//!
//! - The window is fixed when the domain is created; values can only ever be removed, never
//!   added back, except by the search's undo (which restores whole words).
//! - A window of at most 64 values is one inline `u64` word (no heap, no indirection): this is
//!   the common case (Sudoku up to 64x64, N-Queens up to 64). `size`, `min`, `max`, `contains`
//!   and the removal operations are then a handful of instructions.
//! - Windows of up to [`Domain::MAX_SPAN`] values use a [`FixedBitSet`] that also keeps the run
//!   of its words that can still hold values (see `blocks.rs`): `size` is a popcount over that
//!   run, `min` and `max` scan it from its ends, moving a bound touches the words it clears,
//!   so a domain declared over thousands of values and narrowed to a few words costs those
//!   words, not its declared span. A range of more than 64
//!   values ([`Domain::range`], `Model::new_var(1..=n)`) starts as a plain interval, two
//!   numbers and no bitset, and gets its bitset at its first change: a model of a million
//!   variables over `1..=1_000_000` (a million queens) holds no bitset at all until a search
//!   prunes it, and local search never does. Every read of an interval costs O(1).
//! - Wider domains (an objective, a variable declared `0..=1_000_000_000`, the whole `i32`
//!   range) keep their bounds and the ranges of values removed between them, in an ordered map
//!   (see `wide.rs`): `min`, `max`, `is_fixed` and `contains` cost O(1) or O(log holes), moving
//!   a bound or removing a range of values, however long, O(log holes), and `size` O(holes).
//!   Iterating visits every value, so propagators that enumerate values are best kept to narrow
//!   domains (those of this crate narrow a wide domain by its bounds first, or keep a list of
//!   values with [`PropagationContext::retain_sorted`](crate::PropagationContext::retain_sorted)).
//!   The representation is chosen per variable from its initial values; bound changes are
//!   reported as bounds events like any other.
//! - "Size" always means the number of values still in the domain, never the window width.

use std::fmt;
use std::ops::{Range, RangeInclusive};

use fixedbitset::FixedBitSet;
use smallvec::SmallVec;

use crate::error::DomainError;
use crate::util::bits::Ones;

mod blocks;
mod wide;

use blocks::Blocks;
use wide::{Wide, WideValues};

/// The set of values a variable may still take.
///
/// Build one with [`Domain::range`] or [`Domain::from_values`], or let
/// [`Model::new_var`](crate::Model::new_var) build it from anything that implements
/// [`IntoDomain`] (ranges, slices, arrays, vectors).
///
/// # Examples
///
/// ```
/// use cspkit::Domain;
///
/// let d = Domain::from_values([-3, 0, 5, 6])?;
/// assert_eq!(d.size(), 4);
/// assert_eq!((d.min(), d.max()), (Some(-3), Some(6)));
/// assert!(d.contains(5) && !d.contains(4));
/// assert_eq!(d.iter().collect::<Vec<_>>(), [-3, 0, 5, 6]);
/// assert_eq!(d.to_string(), "{-3, 0, 5..6}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Domain {
    /// The value of bit 0.
    offset: i32,
    bits: Bits,
}

/// `clone_from` keeps the bitset's allocation when both domains have one (the logs of the
/// backjumping search copy scopes' domains into the same buffers again and again).
impl Clone for Domain {
    fn clone(&self) -> Self {
        Domain {
            offset: self.offset,
            bits: self.bits.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.offset = source.offset;
        match (&mut self.bits, &source.bits) {
            (Bits::Set(mine), Bits::Set(theirs)) => mine.clone_from(theirs),
            (mine, theirs) => *mine = theirs.clone(),
        }
    }
}

#[derive(Clone)]
enum Bits {
    /// A window of at most 64 values.
    Word(u64),
    /// A window of more than 64 values, up to [`Domain::MAX_SPAN`].
    Set(Blocks),
    /// All the values of a window of more than 64 and at most [`Domain::MAX_SPAN`] values (the
    /// number of values): a `Set` not yet made, made by the first change.
    Interval(u32),
    /// Anything wider: bounds and holes.
    Wide(Box<Wide>),
}

const BLOCK_BITS: i64 = usize::BITS as i64;

impl Domain {
    /// The widest span (`max - min + 1` of the initial values) stored as a bitset (2^14).
    ///
    /// A bitset's memory is proportional to its span. Wider domains keep their bounds and the
    /// ranges of values removed between them instead.
    pub const MAX_SPAN: usize = 1 << 14;

    /// The domain `low..=high`: any range of `i32`, up to `i32::MIN..=i32::MAX`.
    ///
    /// # Errors
    ///
    /// [`DomainError::Empty`] if `low > high`.
    pub fn range(low: i32, high: i32) -> Result<Domain, DomainError> {
        if low > high {
            return Err(DomainError::Empty);
        }
        let span = (i64::from(high) - i64::from(low) + 1) as usize;
        let bits = if span <= 64 {
            Bits::Word(low_bits(span as u64))
        } else if span <= Domain::MAX_SPAN {
            Bits::Interval(span as u32)
        } else {
            Bits::Wide(Box::new(Wide::interval(low, high)))
        };
        Ok(Domain { offset: low, bits })
    }

    /// The domain holding exactly the given values (in any order, repeats allowed).
    ///
    /// # Errors
    ///
    /// [`DomainError::Empty`] if there are no values.
    pub fn from_values(values: impl IntoIterator<Item = i32>) -> Result<Domain, DomainError> {
        let values: SmallVec<[i32; 64]> = values.into_iter().collect();
        let (Some(&low), Some(&high)) = (values.iter().min(), values.iter().max()) else {
            return Err(DomainError::Empty);
        };
        let span = (i64::from(high) - i64::from(low) + 1) as usize;
        let bits = if span > Domain::MAX_SPAN {
            let mut sorted = values;
            sorted.sort_unstable();
            sorted.dedup();
            Bits::Wide(Box::new(Wide::from_sorted(&sorted)))
        } else if span <= 64 {
            Bits::Word(values.iter().fold(0, |w, &v| w | 1 << (v - low)))
        } else {
            let mut set = FixedBitSet::with_capacity(span);
            for &v in &values {
                set.insert((i64::from(v) - i64::from(low)) as usize);
            }
            Bits::Set(Blocks::new(set))
        };
        Ok(Domain { offset: low, bits })
    }

    /// The number of values still in the domain.
    #[inline]
    pub fn size(&self) -> usize {
        match &self.bits {
            Bits::Word(w) => w.count_ones() as usize,
            Bits::Set(set) => set.count_ones(),
            Bits::Interval(span) => *span as usize,
            Bits::Wide(wide) => wide.size(),
        }
    }

    /// Whether no value is left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        match &self.bits {
            Bits::Word(w) => *w == 0,
            Bits::Set(set) => set.is_clear(),
            Bits::Interval(_) => false,
            Bits::Wide(wide) => wide.is_empty(),
        }
    }

    /// Whether exactly one value is left.
    #[inline]
    pub fn is_fixed(&self) -> bool {
        match &self.bits {
            Bits::Word(w) => w.is_power_of_two(),
            Bits::Set(set) => {
                // Exactly one non-zero block, holding one bit; stops at the second bit found.
                let mut found = false;
                for &block in &set.as_slice()[set.live()] {
                    if block != 0 {
                        if found || !block.is_power_of_two() {
                            return false;
                        }
                        found = true;
                    }
                }
                found
            }
            // More than 64 values.
            Bits::Interval(_) => false,
            Bits::Wide(wide) => wide.bounds().is_some_and(|(low, high)| low == high),
        }
    }

    /// The value, if exactly one is left.
    #[inline]
    pub fn value(&self) -> Option<i32> {
        if self.is_fixed() { self.min() } else { None }
    }

    /// The smallest value, or `None` if the domain is empty.
    #[inline]
    pub fn min(&self) -> Option<i32> {
        match &self.bits {
            Bits::Word(0) => None,
            Bits::Word(w) => Some(self.offset + w.trailing_zeros() as i32),
            Bits::Set(set) => set.minimum().map(|i| self.value_at(i)),
            Bits::Interval(_) => Some(self.offset),
            Bits::Wide(wide) => wide.bounds().map(|(low, _)| low),
        }
    }

    /// The largest value, or `None` if the domain is empty.
    #[inline]
    pub fn max(&self) -> Option<i32> {
        match &self.bits {
            Bits::Word(0) => None,
            Bits::Word(w) => Some(self.offset + (63 - w.leading_zeros() as i32)),
            Bits::Set(set) => set.maximum().map(|i| self.value_at(i)),
            Bits::Interval(span) => Some(self.value_at(*span as usize - 1)),
            Bits::Wide(wide) => wide.bounds().map(|(_, high)| high),
        }
    }

    /// Whether `value` is still in the domain.
    #[inline]
    pub fn contains(&self, value: i32) -> bool {
        match &self.bits {
            Bits::Word(w) => self.index_of(value).is_some_and(|i| w >> i & 1 == 1),
            Bits::Set(set) => self.index_of(value).is_some_and(|i| set.contains(i)),
            Bits::Interval(_) => self.index_of(value).is_some(),
            Bits::Wide(wide) => wide.contains(value),
        }
    }

    /// The values in ascending order.
    pub fn iter(&self) -> Values<'_> {
        let inner = match &self.bits {
            Bits::Word(w) => ValuesInner::Word(*w),
            Bits::Set(set) => ValuesInner::Set(set.ones()),
            Bits::Interval(span) => ValuesInner::Interval(0..*span),
            Bits::Wide(wide) => ValuesInner::Wide(wide.iter()),
        };
        Values {
            offset: self.offset,
            inner,
        }
    }

    /// The largest value of the domain smaller than `value`, if there is one.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::Domain;
    ///
    /// let d = Domain::from_values([-3, 0, 5, 6])?;
    /// assert_eq!((d.below(5), d.below(0), d.below(-3)), (Some(0), Some(-3), None));
    /// assert_eq!(d.below(100), Some(6));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn below(&self, value: i32) -> Option<i32> {
        let max = self.max()?;
        if value > max {
            return Some(max);
        }
        let limit = i64::from(value) - i64::from(self.offset);
        if limit <= 0 {
            return None;
        }
        match &self.bits {
            Bits::Word(w) => {
                let below = w & low_bits(limit as u64);
                (below != 0).then(|| self.offset + (63 - below.leading_zeros() as i32))
            }
            Bits::Set(set) => {
                let limit = limit as usize;
                let blocks = set.as_slice();
                let (block, bit) = (limit / BLOCK_BITS as usize, limit % BLOCK_BITS as usize);
                let first = blocks.get(block).map_or(0, |&b| b & ((1usize << bit) - 1));
                std::iter::once((block, first))
                    .chain(
                        (set.live().start..block.min(blocks.len()))
                            .rev()
                            .map(|i| (i, blocks[i])),
                    )
                    .find(|&(_, b)| b != 0)
                    .map(|(i, b)| {
                        let index = i * BLOCK_BITS as usize + (BLOCK_BITS as usize - 1)
                            - b.leading_zeros() as usize;
                        self.value_at(index)
                    })
            }
            // `offset < value <= max`.
            Bits::Interval(_) => Some(value - 1),
            Bits::Wide(wide) => wide.prev_present(i32::MIN, value - 1),
        }
    }

    /// The smallest value of the domain larger than `value`, if there is one.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::Domain;
    ///
    /// let d = Domain::from_values([-3, 0, 5, 6])?;
    /// assert_eq!((d.above(-3), d.above(0), d.above(6)), (Some(0), Some(5), None));
    /// assert_eq!(d.above(-100), Some(-3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn above(&self, value: i32) -> Option<i32> {
        let min = self.min()?;
        if value < min {
            return Some(min);
        }
        let from = i64::from(value) - i64::from(self.offset) + 1;
        match &self.bits {
            Bits::Word(w) => {
                let above = if from >= 64 {
                    0
                } else {
                    w & !low_bits(from as u64)
                };
                (above != 0).then(|| self.offset + above.trailing_zeros() as i32)
            }
            Bits::Set(set) => {
                let from = from as usize;
                let blocks = set.as_slice();
                let (block, bit) = (from / BLOCK_BITS as usize, from % BLOCK_BITS as usize);
                let first = blocks.get(block).map_or(0, |&b| b & !((1usize << bit) - 1));
                std::iter::once((block, first))
                    .chain((block + 1..set.live().end).map(|i| (i, blocks[i])))
                    .find(|&(_, b)| b != 0)
                    .map(|(i, b)| {
                        self.value_at(i * BLOCK_BITS as usize + b.trailing_zeros() as usize)
                    })
            }
            // `min <= value`.
            Bits::Interval(span) => (from < i64::from(*span)).then(|| value + 1),
            Bits::Wide(wide) => wide.next_present(value.checked_add(1)?, i32::MAX),
        }
    }

    /// The values `base..base + 64` as a bit mask: bit `i` is set when `base + i` is in the domain.
    ///
    /// This is the door to bit-parallel propagation: a constraint over small domains can combine
    /// the windows of its variables with word operations, then prune with
    /// [`PropagationContext::retain_window`](crate::PropagationContext::retain_window).
    #[inline]
    pub fn window(&self, base: i32) -> u64 {
        let shift = i64::from(base) - i64::from(self.offset);
        match &self.bits {
            Bits::Word(w) => match shift {
                0..=63 => w >> shift,
                -63..=-1 => w << -shift,
                _ => 0,
            },
            Bits::Set(set) => {
                let mut out = 0;
                for_each_block_in_window(set.len(), shift, |block, bit, take, filled| {
                    let chunk = (set.as_slice()[block] >> bit) as u64 & low_bits(take);
                    out |= chunk << filled;
                });
                out
            }
            Bits::Interval(span) => {
                // Bits `from..to` of the window are the interval's.
                let from = (-shift).clamp(0, 64);
                let to = (i64::from(*span) - shift).clamp(0, 64);
                if from >= to {
                    0
                } else {
                    low_bits(to as u64) & !low_bits(from as u64)
                }
            }
            Bits::Wide(wide) => wide.window(base),
        }
    }

    /// The windows at `base`, `base + 64`, … (`count` of them), each as [`window`](Self::window)
    /// gives it, passed to `f` in order; `base` may lie outside the `i32` range, where the
    /// domain has no values. On a bitset domain each window is one or two blocks shifted, not a
    /// search for the blocks: this is how a propagator reads a wide domain a word at a time.
    pub(crate) fn windows(&self, base: i64, count: usize, mut f: impl FnMut(u64)) {
        match &self.bits {
            Bits::Set(set) if BLOCK_BITS == 64 => {
                let blocks = set.as_slice();
                let at = |block: i64| {
                    usize::try_from(block)
                        .ok()
                        .and_then(|b| blocks.get(b))
                        .map_or(0, |&w| w as u64)
                };
                let start = base - i64::from(self.offset);
                let (mut block, shift) = (start.div_euclid(64), start.rem_euclid(64) as u32);
                for _ in 0..count {
                    let word = match shift {
                        0 => at(block),
                        _ => at(block) >> shift | at(block + 1) << (64 - shift),
                    };
                    f(word);
                    block += 1;
                }
            }
            _ => {
                for k in 0..count as i64 {
                    let start = base + 64 * k;
                    let low = i64::from(i32::MIN);
                    let word = match i32::try_from(start) {
                        Ok(b) => self.window(b),
                        // A window that starts below the i32 range and reaches into it.
                        Err(_) if start < low && start + 63 >= low => {
                            self.window(i32::MIN) << (low - start)
                        }
                        Err(_) => 0,
                    };
                    f(word);
                }
            }
        }
    }

    fn index_of(&self, value: i32) -> Option<usize> {
        let i = i64::from(value) - i64::from(self.offset);
        let width = match &self.bits {
            Bits::Word(_) => 64,
            Bits::Set(set) => set.len() as i64,
            Bits::Interval(span) => i64::from(*span),
            Bits::Wide(_) => return None,
        };
        (0..width).contains(&i).then_some(i as usize)
    }

    fn value_at(&self, index: usize) -> i32 {
        (i64::from(self.offset) + index as i64) as i32
    }

    // ----- Mutation, for the search and the model (crate-private). -----
    //
    // Every mutator calls `record(word, old)` before it changes a word, so the caller can put the
    // old word on the trail. Word `0` of a `Word` domain is the whole domain; word `i` of a `Set`
    // domain is block `i` of the bitset.

    /// Whether the domain is a bitset (a window of at most [`Domain::MAX_SPAN`] values, in
    /// one word or more), the representation word-at-a-time propagation reads and prunes
    /// cheaply; `false` for a wide domain, however few values it has left.
    #[inline]
    pub(crate) fn is_bitset(&self) -> bool {
        !matches!(self.bits, Bits::Wide(_))
    }

    /// For a domain of at most 64 values: its value `offset` and its word, where bit `i` stands
    /// for `offset + i`. `None` for a wider domain.
    #[inline]
    pub(crate) fn small(&self) -> Option<(i32, u64)> {
        match self.bits {
            Bits::Word(w) => Some((self.offset, w)),
            Bits::Set(_) | Bits::Interval(_) | Bits::Wide(_) => None,
        }
    }

    /// Where the window holding `value` starts when windows are laid on the domain's own words:
    /// a window from there is one word of a bitset domain, not parts of two. For other domains,
    /// `value` itself.
    pub(crate) fn word_start(&self, value: i32) -> i64 {
        match self.bits {
            Bits::Word(_) | Bits::Set(_) | Bits::Interval(_) => {
                let offset = i64::from(self.offset);
                offset + (i64::from(value) - offset).div_euclid(BLOCK_BITS) * BLOCK_BITS
            }
            Bits::Wide(_) => i64::from(value),
        }
    }

    /// Replaces the word of a domain of at most 64 values by `new`, which must keep only values
    /// of the domain, recording the old word if it changes. A wider domain is left alone.
    #[inline]
    pub(crate) fn replace_small(&mut self, new: u64, record: &mut impl Record) {
        if let Bits::Word(w) = &mut self.bits {
            replace_word(w, new, record);
        }
    }

    /// Removes `value`; returns whether the domain changed.
    #[inline]
    pub(crate) fn remove(&mut self, value: i32, record: &mut impl Record) -> bool {
        if let Bits::Wide(wide) = &mut self.bits {
            return wide.remove(value, record);
        }
        let Some(i) = self.index_of(value) else {
            return false;
        };
        match &mut self.bits {
            Bits::Word(w) => {
                if *w >> i & 1 == 0 {
                    return false;
                }
                record.record(0, *w);
                *w &= !(1 << i);
                true
            }
            Bits::Set(set) => {
                if !set.contains(i) {
                    return false;
                }
                let block = i / BLOCK_BITS as usize;
                record.record(block as u32, set.as_slice()[block] as u64);
                set.remove(i);
                true
            }
            Bits::Interval(_) => {
                self.make_set();
                self.remove(value, record)
            }
            Bits::Wide(_) => false,
        }
    }

    /// Keeps only the values `v` in `base..base + 64` whose bit `v - base` is set in `mask`;
    /// values outside that window are untouched. Returns whether the domain changed.
    #[inline]
    pub(crate) fn retain_window(&mut self, base: i32, mask: u64, record: &mut impl Record) -> bool {
        self.retain_windows(base, &[mask], record)
    }

    /// [`retain_window`](Self::retain_window) for the consecutive windows at `base`,
    /// `base + 64`, …, one per mask, with the live blocks of a bitset found once at the end.
    /// Windows that would start beyond `i32::MAX` hold no value and are skipped.
    pub(crate) fn retain_windows(
        &mut self,
        base: i32,
        masks: &[u64],
        record: &mut impl Record,
    ) -> bool {
        if let Bits::Interval(_) = self.bits {
            self.make_set();
        }
        let mut changed = false;
        for (i, &mask) in masks.iter().enumerate() {
            let Ok(at) = i32::try_from(i64::from(base) + 64 * i as i64) else {
                break;
            };
            changed |= self.retain_one_window(at, mask, record);
        }
        if let Bits::Set(set) = &mut self.bits {
            set.tighten();
        }
        changed
    }

    /// One window of [`retain_windows`](Self::retain_windows), leaving a bitset's live blocks
    /// to be found by the caller.
    #[inline]
    fn retain_one_window(&mut self, base: i32, mask: u64, record: &mut impl Record) -> bool {
        let shift = i64::from(base) - i64::from(self.offset);
        match &mut self.bits {
            Bits::Word(w) => {
                // Bits of the domain word that lie in the window, and the mask moved onto them.
                let (in_window, keep) = match shift {
                    0..=63 => (u64::MAX << shift, mask << shift),
                    -63..=-1 => (u64::MAX >> -shift, mask >> -shift),
                    _ => return false,
                };
                let new = *w & (keep | !in_window);
                replace_word(w, new, record)
            }
            Bits::Set(set) => {
                let len = set.len();
                let mut changed = false;
                for_each_block_in_window(len, shift, |block, bit, take, filled| {
                    let window_bits = (low_bits(take) as usize) << bit;
                    let keep = (((mask >> filled) & low_bits(take)) as usize) << bit;
                    let word = &mut set.blocks_mut()[block];
                    let new = *word & (keep | !window_bits);
                    changed |= replace_block(word, block, new, record);
                });
                changed
            }
            Bits::Interval(_) => unreachable!("retain_windows makes a bitset first"),
            Bits::Wide(wide) => {
                let doomed = wide.window(base) & !mask;
                let mut changed = false;
                for bit in Ones(doomed) {
                    let value = (i64::from(base) + i64::from(bit)) as i32;
                    changed |= wide.remove(value, record);
                }
                changed
            }
        }
    }

    /// Reduces the domain to `value` alone (to nothing if `value` is not in it); returns whether
    /// the domain changed. A word operation per block, where [`retain`](Self::retain) would
    /// visit every value.
    pub(crate) fn fix_to(&mut self, value: i32, record: &mut impl Record) -> bool {
        let index = self.index_of(value);
        match &mut self.bits {
            Bits::Word(w) => {
                let new = index.map_or(0, |i| *w & 1 << i);
                replace_word(w, new, record)
            }
            Bits::Set(set) => set.keep(set.live(), record, |block, _| match index {
                Some(i) if i / BLOCK_BITS as usize == block => 1 << (i % BLOCK_BITS as usize),
                _ => 0,
            }),
            Bits::Interval(_) => {
                self.make_set();
                self.fix_to(value, record)
            }
            Bits::Wide(wide) if wide.contains(value) => wide.clamp(value, value, record),
            Bits::Wide(wide) => wide.clamp(1, 0, record),
        }
    }

    /// Keeps only the values in `low..=high` (none if `low > high`); returns whether the domain
    /// changed. A word operation per block for bitsets, O(1) plus the holes skipped for a wide
    /// domain.
    pub(crate) fn clamp(&mut self, low: i32, high: i32, record: &mut impl Record) -> bool {
        let from = i64::from(low) - i64::from(self.offset);
        let to = i64::from(high) - i64::from(self.offset) + 1;
        match &mut self.bits {
            Bits::Word(w) => {
                let keep = if from >= to {
                    0
                } else {
                    low_bits(to.clamp(0, 64) as u64) & !low_bits(from.clamp(0, 64) as u64)
                };
                replace_word(w, *w & keep, record)
            }
            Bits::Set(set) => {
                if from >= to {
                    return set.keep(set.live(), record, |_, _| 0);
                }
                let keep = |block: usize, _| {
                    let begin = block as i64 * BLOCK_BITS;
                    let bits = |n: i64| low_bits((n - begin).clamp(0, BLOCK_BITS) as u64);
                    (bits(to) & !bits(from)) as usize
                };
                // Only the blocks that reach below `from`, or to `to` and beyond, can change.
                let block_of = |n: i64| n.div_euclid(BLOCK_BITS).max(0) as usize;
                let (low_end, high_start) = (block_of(from) + 1, block_of(to - 1));
                if low_end >= high_start {
                    set.keep(0..usize::MAX, record, keep)
                } else {
                    set.keep(0..low_end, record, keep)
                        | set.keep(high_start..usize::MAX, record, keep)
                }
            }
            Bits::Interval(_) => {
                self.make_set();
                self.clamp(low, high, record)
            }
            Bits::Wide(wide) => wide.clamp(low, high, record),
        }
    }

    /// Removes the values in `low..=high` (none if `low > high`); returns whether the domain
    /// changed. A word operation per block for bitsets, O(log holes) for a wide domain.
    pub(crate) fn remove_range(&mut self, low: i32, high: i32, record: &mut impl Record) -> bool {
        if low > high {
            return false;
        }
        let from = i64::from(low) - i64::from(self.offset);
        let to = i64::from(high) - i64::from(self.offset) + 1;
        match &mut self.bits {
            Bits::Word(w) => {
                let doomed = low_bits(to.clamp(0, 64) as u64) & !low_bits(from.clamp(0, 64) as u64);
                replace_word(w, *w & !doomed, record)
            }
            Bits::Set(set) => {
                let (from, to) = (from.max(0), to.min(set.len() as i64));
                if from >= to {
                    return false;
                }
                let (first, last) = (
                    (from / BLOCK_BITS) as usize,
                    ((to - 1) / BLOCK_BITS) as usize,
                );
                set.keep(first..last + 1, record, |block, _| {
                    let start = block as i64 * BLOCK_BITS;
                    let bits = |n: i64| low_bits((n - start).clamp(0, BLOCK_BITS) as u64);
                    !(bits(to) & !bits(from)) as usize
                })
            }
            Bits::Interval(_) => {
                self.make_set();
                self.remove_range(low, high, record)
            }
            Bits::Wide(wide) => wide.remove_range(low, high, record),
        }
    }

    /// Keeps only the values for which `keep` returns true; returns whether the domain changed.
    pub(crate) fn retain(
        &mut self,
        mut keep: impl FnMut(i32) -> bool,
        record: &mut impl Record,
    ) -> bool {
        let offset = self.offset;
        match &mut self.bits {
            Bits::Word(w) => {
                let mut new = *w;
                let mut rest = *w;
                while rest != 0 {
                    let i = rest.trailing_zeros();
                    rest &= rest - 1;
                    if !keep(offset + i as i32) {
                        new &= !(1 << i);
                    }
                }
                replace_word(w, new, record)
            }
            Bits::Set(set) => set.keep(set.live(), record, |block, word| {
                let mut new = word;
                let mut rest = word;
                while rest != 0 {
                    let bit = rest.trailing_zeros() as i64;
                    rest &= rest - 1;
                    let value = i64::from(offset) + block as i64 * BLOCK_BITS + bit;
                    if !keep(value as i32) {
                        new &= !(1 << bit);
                    }
                }
                new
            }),
            Bits::Interval(_) => {
                self.make_set();
                self.retain(keep, record)
            }
            Bits::Wide(wide) => {
                // Runs of removed values (no kept value between), each removed as one range.
                let mut doomed: Vec<(i32, i32)> = Vec::new();
                let mut run: Option<(i32, i32)> = None;
                for value in wide.iter() {
                    if keep(value) {
                        doomed.extend(run.take());
                    } else {
                        run = Some((run.map_or(value, |(start, _)| start), value));
                    }
                }
                doomed.extend(run);
                let mut changed = false;
                for (from, to) in doomed {
                    changed |= wide.remove_range(from, to, record);
                }
                changed
            }
        }
    }

    /// Keeps only the values of `keep`; returns whether the domain changed. On a wide domain
    /// it costs the runs of consecutive values of `keep`, not their size: the bounds, then each
    /// gap between two runs removed as one range.
    pub(crate) fn retain_domain(&mut self, keep: &Domain, record: &mut impl Record) -> bool {
        let (Some(low), Some(high)) = (keep.min(), keep.max()) else {
            return self.clamp(1, 0, record);
        };
        let mut changed = self.clamp(low, high, record);
        if !matches!(self.bits, Bits::Wide(_)) {
            // At most `MAX_SPAN` values left: one pass.
            return self.retain(|v| keep.contains(v), record) || changed;
        }
        let mut gaps: Vec<(i32, i32)> = Vec::new();
        let mut previous: Option<i32> = None;
        let mut note_run = |start: i32, end: i32| {
            if let Some(last) = previous
                && start > last + 1
            {
                gaps.push((last + 1, start - 1));
            }
            previous = Some(end);
        };
        match &keep.bits {
            Bits::Wide(wide) => wide.runs().for_each(|(start, end)| note_run(start, end)),
            _ => keep.iter().for_each(|v| note_run(v, v)),
        }
        if let Bits::Wide(wide) = &mut self.bits {
            for (from, to) in gaps {
                changed |= wide.remove_range(from, to, record);
            }
        }
        changed
    }

    /// Keeps only the values listed in `sorted` (ascending); returns whether the domain changed.
    /// Beyond one word the cost is the list's length and the domain's words, not its values;
    /// for a wide domain, the bounds and then each gap of the list, one range at a time.
    pub(crate) fn retain_sorted(&mut self, sorted: &[i32], record: &mut impl Record) -> bool {
        match &mut self.bits {
            Bits::Set(set) => {
                // Word by word, the mask of the listed values in it.
                let offset = i64::from(self.offset);
                let mut listed = sorted.iter().map(|&v| i64::from(v)).peekable();
                set.keep(set.live(), record, |block, _| {
                    let start = offset + block as i64 * BLOCK_BITS;
                    let mut mask = 0usize;
                    while let Some(v) = listed.next_if(|&v| v < start + BLOCK_BITS) {
                        if v >= start {
                            mask |= 1 << (v - start);
                        }
                    }
                    mask
                })
            }
            Bits::Interval(_) => {
                self.make_set();
                self.retain_sorted(sorted, record)
            }
            Bits::Wide(wide) => {
                let (Some(&first), Some(&last)) = (sorted.first(), sorted.last()) else {
                    return wide.clamp(1, 0, record);
                };
                let mut changed = wide.clamp(first, last, record);
                for pair in sorted.windows(2) {
                    if i64::from(pair[1]) - i64::from(pair[0]) > 1 {
                        changed |= wide.remove_range(pair[0] + 1, pair[1] - 1, record);
                    }
                }
                changed
            }
            _ => self.retain(|v| sorted.binary_search(&v).is_ok(), record),
        }
    }

    /// Turns an interval into the bitset of its values, before a change.
    #[cold]
    fn make_set(&mut self) {
        if let Bits::Interval(span) = self.bits {
            let mut set = FixedBitSet::with_capacity(span as usize);
            set.insert_range(..);
            self.bits = Bits::Set(Blocks::new(set));
        }
    }

    /// Restores word `word` to `old` (the search's undo).
    #[inline]
    pub(crate) fn restore_word(&mut self, word: u32, old: u64) {
        match &mut self.bits {
            Bits::Word(w) => *w = old,
            Bits::Set(set) => set.restore(word as usize, old as usize),
            Bits::Interval(_) => {
                // Never recorded: an interval becomes a set before its first change.
                self.make_set();
                self.restore_word(word, old);
            }
            Bits::Wide(wide) => wide.restore_word(word, old),
        }
    }
}

/// Puts `new` in the word of a `Word` domain if it differs, recording the old content first;
/// returns whether the word changed.
#[inline]
fn replace_word(word: &mut u64, new: u64, record: &mut impl Record) -> bool {
    if new == *word {
        return false;
    }
    record.record(0, *word);
    *word = new;
    true
}

/// [`replace_word`] for block `block` of a `Set` domain.
#[inline]
fn replace_block(word: &mut usize, block: usize, new: usize, record: &mut impl Record) -> bool {
    if new == *word {
        return false;
    }
    record.record(block as u32, *word as u64);
    *word = new;
    true
}

/// Receives the old content of each domain word just before a mutation changes it.
///
/// Undoing the words recorded, in reverse order, restores the domain. A recorder that groups
/// its records by level (the search's trail) may do with fewer: the two provided methods say
/// when, and a plain log (a closure) records every word.
pub(crate) trait Record {
    /// Word `word` held `old` and is about to change.
    fn record(&mut self, word: u32, old: u64);

    /// Word `word`, whose undo overwrites it whole, held `old` and is about to change. A
    /// recorder with levels keeps only the first such record of a level: the older contents
    /// of a word written again within the level are never needed by an undo.
    #[inline]
    fn record_once(&mut self, word: u32, old: u64) {
        self.record(word, old);
    }

    /// Word `word` held `old`; the recorder may later [`amend`](Self::amend) this record.
    #[inline]
    fn record_amendable(&mut self, word: u32, old: u64) {
        self.record(word, old);
    }

    /// If the last amendable record of this variable is `(word, old)` and belongs to the
    /// current level, rewrites it to `(word, new)` and returns true; otherwise returns false
    /// and records nothing (a plain log never amends). The caller makes sure that undoing
    /// `(word, new)` at that record's place restores the domain.
    #[inline]
    fn amend(&mut self, word: u32, old: u64, new: u64) -> bool {
        let _ = (word, old, new);
        false
    }
}

impl<F: FnMut(u32, u64)> Record for F {
    #[inline]
    fn record(&mut self, word: u32, old: u64) {
        self(word, old)
    }
}

/// Calls `f(block, bit, take, filled)` for each piece of the 64-bit window that starts `shift`
/// bits into a bitset of `len` bits: `take` bits starting at bit `bit` of block `block` are bits
/// `filled..filled + take` of the window.
fn for_each_block_in_window(len: usize, shift: i64, mut f: impl FnMut(usize, u32, u32, u32)) {
    let blocks = (len as i64 + BLOCK_BITS - 1) / BLOCK_BITS;
    let mut filled: i64 = 0;
    let mut pos = shift;
    if pos < 0 {
        filled = -pos;
        pos = 0;
    }
    while filled < 64 {
        let block = pos / BLOCK_BITS;
        if block >= blocks {
            break;
        }
        let bit = pos % BLOCK_BITS;
        let take = (BLOCK_BITS - bit).min(64 - filled);
        f(block as usize, bit as u32, take as u32, filled as u32);
        filled += take;
        pos += take;
    }
}

/// The lowest `n` bits set (`n` up to 64).
#[inline]
fn low_bits(n: impl Into<u64>) -> u64 {
    let n = n.into();
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

impl PartialEq for Domain {
    /// Whether two domains hold the same values, whatever their windows and representations.
    fn eq(&self, other: &Domain) -> bool {
        match (&self.bits, &other.bits) {
            (Bits::Word(a), Bits::Word(b)) if self.offset == other.offset => a == b,
            (Bits::Word(a), Bits::Word(b)) => {
                // Both words moved down to their smallest value, and those values compared.
                let (ta, tb) = (a.trailing_zeros(), b.trailing_zeros());
                *a == 0 && *b == 0
                    || a >> ta.min(63) == b >> tb.min(63)
                        && i64::from(self.offset) + i64::from(ta)
                            == i64::from(other.offset) + i64::from(tb)
            }
            (Bits::Set(a), Bits::Set(b)) if self.offset == other.offset && a.len() == b.len() => {
                **a == **b
            }
            (Bits::Wide(a), Bits::Wide(b)) => a.same_values(b),
            _ => self.size() == other.size() && self.iter().eq(other.iter()),
        }
    }
}

impl Eq for Domain {}

impl<'a> IntoIterator for &'a Domain {
    type Item = i32;
    type IntoIter = Values<'a>;

    fn into_iter(self) -> Values<'a> {
        self.iter()
    }
}

impl fmt::Display for Domain {
    /// Writes the values as `{1..3, 5, 7..9}`: maximal runs of consecutive values as ranges.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Bits::Wide(wide) = &self.bits {
            f.write_str("{")?;
            for (i, (start, end)) in wide.runs().enumerate() {
                let separator = if i == 0 { "" } else { ", " };
                match start == end {
                    true => write!(f, "{separator}{start}")?,
                    false => write!(f, "{separator}{start}..{end}")?,
                }
            }
            return f.write_str("}");
        }
        f.write_str("{")?;
        let mut values = self.iter().peekable();
        let mut first = true;
        while let Some(start) = values.next() {
            let mut end = start;
            while values.peek() == Some(&(end.wrapping_add(1))) && end < i32::MAX {
                end = values.next().unwrap_or(end);
            }
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            if start == end {
                write!(f, "{start}")?;
            } else {
                write!(f, "{start}..{end}")?;
            }
        }
        f.write_str("}")
    }
}

impl fmt::Debug for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Domain{self}")
    }
}

/// The values of a [`Domain`] in ascending order, from [`Domain::iter`].
#[derive(Clone)]
pub struct Values<'a> {
    offset: i32,
    inner: ValuesInner<'a>,
}

impl fmt::Debug for Values<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

#[derive(Clone)]
enum ValuesInner<'a> {
    Word(u64),
    Set(fixedbitset::Ones<'a>),
    Interval(Range<u32>),
    Wide(WideValues<'a>),
}

impl Iterator for Values<'_> {
    type Item = i32;

    #[inline]
    fn next(&mut self) -> Option<i32> {
        let index = match &mut self.inner {
            ValuesInner::Word(0) => return None,
            ValuesInner::Word(w) => {
                let i = w.trailing_zeros();
                *w &= *w - 1;
                i as usize
            }
            ValuesInner::Set(ones) => ones.next()?,
            ValuesInner::Interval(indices) => indices.next()? as usize,
            ValuesInner::Wide(values) => return values.next(),
        };
        Some((i64::from(self.offset) + index as i64) as i32)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.inner {
            ValuesInner::Word(w) => (w.count_ones() as usize, Some(w.count_ones() as usize)),
            ValuesInner::Set(ones) => ones.size_hint(),
            ValuesInner::Interval(indices) => indices.size_hint(),
            ValuesInner::Wide(values) => values.size_hint(),
        }
    }
}

impl std::iter::FusedIterator for Values<'_> {}

/// Anything a variable's initial domain can be made from.
///
/// Implemented for ranges (`1..=9`, `0..8`), slices, arrays and vectors of values, and
/// [`Domain`] itself. Ranges are checked for their width before anything is allocated.
pub trait IntoDomain {
    /// Builds the domain.
    ///
    /// # Errors
    ///
    /// A [`DomainError`] if there are no values.
    fn into_domain(self) -> Result<Domain, DomainError>;
}

impl IntoDomain for Domain {
    fn into_domain(self) -> Result<Domain, DomainError> {
        if self.is_empty() {
            return Err(DomainError::Empty);
        }
        Ok(self)
    }
}

impl IntoDomain for RangeInclusive<i32> {
    fn into_domain(self) -> Result<Domain, DomainError> {
        Domain::range(*self.start(), *self.end())
    }
}

impl IntoDomain for Range<i32> {
    fn into_domain(self) -> Result<Domain, DomainError> {
        if self.start >= self.end {
            return Err(DomainError::Empty);
        }
        Domain::range(self.start, self.end - 1)
    }
}

impl IntoDomain for &[i32] {
    fn into_domain(self) -> Result<Domain, DomainError> {
        Domain::from_values(self.iter().copied())
    }
}

impl IntoDomain for Vec<i32> {
    fn into_domain(self) -> Result<Domain, DomainError> {
        Domain::from_values(self)
    }
}

impl IntoDomain for &Vec<i32> {
    fn into_domain(self) -> Result<Domain, DomainError> {
        Domain::from_values(self.iter().copied())
    }
}

impl<const N: usize> IntoDomain for [i32; N] {
    fn into_domain(self) -> Result<Domain, DomainError> {
        Domain::from_values(self)
    }
}

#[cfg(test)]
mod tests;
