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
//! - Wider windows use a [`FixedBitSet`]; `size` is then a popcount over the words, `min` and
//!   `max` scan words from the ends. Windows are limited to [`Domain::MAX_SPAN`] values.
//! - "Size" always means the number of values still in the domain, never the window width.

use std::fmt;
use std::ops::{Range, RangeInclusive};

use fixedbitset::FixedBitSet;
use smallvec::SmallVec;

use crate::error::DomainError;

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
#[derive(Clone, PartialEq, Eq)]
pub struct Domain {
    /// The value of bit 0.
    offset: i32,
    bits: Bits,
}

#[derive(Clone, PartialEq, Eq)]
enum Bits {
    /// A window of at most 64 values.
    Word(u64),
    /// A window of more than 64 values.
    Set(FixedBitSet),
}

const BLOCK_BITS: i64 = usize::BITS as i64;

impl Domain {
    /// The largest number of consecutive integers one domain may span (2^20).
    ///
    /// A domain is a bitset over `min..=max` of its initial values, so its memory is proportional
    /// to that span; the limit keeps a hostile or mistaken `i32::MIN..=i32::MAX` from allocating
    /// half a gigabyte per variable.
    pub const MAX_SPAN: usize = 1 << 20;

    /// The domain `low..=high`.
    ///
    /// # Errors
    ///
    /// [`DomainError::Empty`] if `low > high`; [`DomainError::TooWide`] if the range holds more
    /// than [`Domain::MAX_SPAN`] values.
    pub fn range(low: i32, high: i32) -> Result<Domain, DomainError> {
        if low > high {
            return Err(DomainError::Empty);
        }
        let span = check_span(low, high)?;
        let bits = if span <= 64 {
            Bits::Word(low_bits(span as u64))
        } else {
            let mut set = FixedBitSet::with_capacity(span);
            set.insert_range(..);
            Bits::Set(set)
        };
        Ok(Domain { offset: low, bits })
    }

    /// The domain holding exactly the given values (in any order, repeats allowed).
    ///
    /// # Errors
    ///
    /// [`DomainError::Empty`] if there are no values; [`DomainError::TooWide`] if the smallest
    /// and largest are more than [`Domain::MAX_SPAN`] apart.
    pub fn from_values(values: impl IntoIterator<Item = i32>) -> Result<Domain, DomainError> {
        let values: SmallVec<[i32; 64]> = values.into_iter().collect();
        let (Some(&low), Some(&high)) = (values.iter().min(), values.iter().max()) else {
            return Err(DomainError::Empty);
        };
        let span = check_span(low, high)?;
        let bits = if span <= 64 {
            Bits::Word(values.iter().fold(0, |w, &v| w | 1 << (v - low)))
        } else {
            let mut set = FixedBitSet::with_capacity(span);
            for &v in &values {
                set.insert((i64::from(v) - i64::from(low)) as usize);
            }
            Bits::Set(set)
        };
        Ok(Domain { offset: low, bits })
    }

    /// The number of values still in the domain.
    #[inline]
    pub fn size(&self) -> usize {
        match &self.bits {
            Bits::Word(w) => w.count_ones() as usize,
            Bits::Set(set) => set.count_ones(..),
        }
    }

    /// Whether no value is left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        match &self.bits {
            Bits::Word(w) => *w == 0,
            Bits::Set(set) => set.is_clear(),
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
                for &block in set.as_slice() {
                    if block != 0 {
                        if found || !block.is_power_of_two() {
                            return false;
                        }
                        found = true;
                    }
                }
                found
            }
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
        }
    }

    /// The largest value, or `None` if the domain is empty.
    #[inline]
    pub fn max(&self) -> Option<i32> {
        match &self.bits {
            Bits::Word(0) => None,
            Bits::Word(w) => Some(self.offset + (63 - w.leading_zeros() as i32)),
            Bits::Set(set) => set.maximum().map(|i| self.value_at(i)),
        }
    }

    /// Whether `value` is still in the domain.
    #[inline]
    pub fn contains(&self, value: i32) -> bool {
        let Some(i) = self.index_of(value) else {
            return false;
        };
        match &self.bits {
            Bits::Word(w) => w >> i & 1 == 1,
            Bits::Set(set) => set.contains(i),
        }
    }

    /// The values in ascending order.
    pub fn iter(&self) -> Values<'_> {
        let inner = match &self.bits {
            Bits::Word(w) => ValuesInner::Word(*w),
            Bits::Set(set) => ValuesInner::Set(set.ones()),
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
                    .chain((0..block.min(blocks.len())).rev().map(|i| (i, blocks[i])))
                    .find(|&(_, b)| b != 0)
                    .map(|(i, b)| {
                        let index = i * BLOCK_BITS as usize + (BLOCK_BITS as usize - 1)
                            - b.leading_zeros() as usize;
                        self.value_at(index)
                    })
            }
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
        }
    }

    fn index_of(&self, value: i32) -> Option<usize> {
        let i = i64::from(value) - i64::from(self.offset);
        let width = match &self.bits {
            Bits::Word(_) => 64,
            Bits::Set(set) => set.len() as i64,
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

    /// For a domain of at most 64 values: its value `offset` and its word, where bit `i` stands
    /// for `offset + i`. `None` for a wider domain.
    #[inline]
    pub(crate) fn small(&self) -> Option<(i32, u64)> {
        match self.bits {
            Bits::Word(w) => Some((self.offset, w)),
            Bits::Set(_) => None,
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
        }
    }

    /// Keeps only the values `v` in `base..base + 64` whose bit `v - base` is set in `mask`;
    /// values outside that window are untouched. Returns whether the domain changed.
    #[inline]
    pub(crate) fn retain_window(&mut self, base: i32, mask: u64, record: &mut impl Record) -> bool {
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
                    let word = &mut set.as_mut_slice()[block];
                    let new = *word & (keep | !window_bits);
                    changed |= replace_block(word, block, new, record);
                });
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
            Bits::Set(set) => {
                let mut changed = false;
                for (block, word) in set.as_mut_slice().iter_mut().enumerate() {
                    let keep = match index {
                        Some(i) if i / BLOCK_BITS as usize == block => {
                            1 << (i % BLOCK_BITS as usize)
                        }
                        _ => 0,
                    };
                    let new = *word & keep;
                    changed |= replace_block(word, block, new, record);
                }
                changed
            }
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
            Bits::Set(set) => {
                let mut changed = false;
                let words = set.as_mut_slice();
                for (block, word) in words.iter_mut().enumerate() {
                    let mut new = *word;
                    let mut rest = *word;
                    while rest != 0 {
                        let bit = rest.trailing_zeros() as i64;
                        rest &= rest - 1;
                        let value = i64::from(offset) + block as i64 * BLOCK_BITS + bit;
                        if !keep(value as i32) {
                            new &= !(1 << bit);
                        }
                    }
                    changed |= replace_block(word, block, new, record);
                }
                changed
            }
        }
    }

    /// Restores word `word` to `old` (the search's undo).
    #[inline]
    pub(crate) fn restore_word(&mut self, word: u32, old: u64) {
        match &mut self.bits {
            Bits::Word(w) => *w = old,
            Bits::Set(set) => set.as_mut_slice()[word as usize] = old as usize,
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
pub(crate) trait Record {
    /// Word `word` held `old` and is about to change.
    fn record(&mut self, word: u32, old: u64);
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

fn check_span(low: i32, high: i32) -> Result<usize, DomainError> {
    let span = (i64::from(high) - i64::from(low) + 1) as usize;
    if span > Domain::MAX_SPAN {
        return Err(DomainError::TooWide {
            low,
            high,
            limit: Domain::MAX_SPAN,
        });
    }
    Ok(span)
}

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
        };
        Some((i64::from(self.offset) + index as i64) as i32)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.inner {
            ValuesInner::Word(w) => (w.count_ones() as usize, Some(w.count_ones() as usize)),
            ValuesInner::Set(ones) => ones.size_hint(),
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
    /// A [`DomainError`] if the values are empty or span too wide a window.
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
mod tests {
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
    fn empty_and_too_wide_domains_are_rejected() {
        assert_eq!(Domain::range(3, 2), Err(DomainError::Empty));
        assert_eq!(Domain::from_values([]), Err(DomainError::Empty));
        assert!(matches!(
            Domain::range(i32::MIN, i32::MAX),
            Err(DomainError::TooWide { .. })
        ));
        assert!((5..5).into_domain().is_err());
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
        RetainEven,
    }

    fn op(low: i32, high: i32) -> impl Strategy<Value = Op> {
        prop_oneof![
            (low - 2..=high + 2).prop_map(Op::Remove),
            (low - 70..=high + 2, any::<u64>()).prop_map(|(b, m)| Op::RetainWindow(b, m)),
            Just(Op::RetainEven),
        ]
    }

    proptest! {
        #[test]
        fn below_is_the_largest_smaller_value(
            values in proptest::collection::btree_set(-200i32..200, 1..40),
            probe in -210i32..210,
        ) {
            let d = Domain::from_values(values.iter().copied()).unwrap();
            let expected = values.range(..probe).next_back().copied();
            prop_assert_eq!(d.below(probe), expected);
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
                let changed = match *op {
                    Op::Remove(v) => {
                        reference.remove(&v);
                        d.remove(v, &mut record)
                    }
                    Op::RetainWindow(base, mask) => {
                        reference.retain(|&v| {
                            let i = i64::from(v) - i64::from(base);
                            !(0..64).contains(&i) || mask >> i & 1 == 1
                        });
                        d.retain_window(base, mask, &mut record)
                    }
                    Op::RetainEven => {
                        reference.retain(|v| v % 2 == 0);
                        d.retain(|v| v % 2 == 0, &mut record)
                    }
                };
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
    }
}
