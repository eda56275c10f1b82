//! The bitset of a domain wider than one word, with the run of its blocks that can hold values.

use std::ops::{Deref, Range};

use fixedbitset::FixedBitSet;

use super::{Record, replace_block};

/// Bits per block of a [`FixedBitSet`].
const BITS: usize = usize::BITS as usize;

/// A [`FixedBitSet`] that knows which of its blocks may hold values: every block outside
/// `live` is zero.
///
/// Between two undos a domain only loses values, and clearing bits keeps that true whatever
/// blocks it touches; [`tighten`](Blocks::tighten) then moves the ends of `live` inwards past
/// the blocks left zero, and [`restore`](Blocks::restore), the search's undo, moves them back
/// out. Every read and every pruning starts at the ends of `live`, so a domain declared over
/// thousands of values and narrowed to a few blocks costs those blocks alone: the smallest
/// value, the largest, a bound moved, as an interval of two numbers would.
pub(super) struct Blocks {
    set: FixedBitSet,
    live: Range<usize>,
}

impl Clone for Blocks {
    fn clone(&self) -> Self {
        Blocks {
            set: self.set.clone(),
            live: self.live.clone(),
        }
    }

    /// Keeps the allocation of `self`.
    fn clone_from(&mut self, source: &Self) {
        self.set.clone_from(&source.set);
        self.live.clone_from(&source.live);
    }
}

impl Blocks {
    pub(super) fn new(set: FixedBitSet) -> Blocks {
        let live = 0..set.as_slice().len();
        let mut blocks = Blocks { set, live };
        blocks.tighten();
        blocks
    }

    /// The blocks that may be non-zero (every other block is).
    #[inline]
    pub(super) fn live(&self) -> Range<usize> {
        self.live.clone()
    }

    /// Keeps in each live block `i` of `range` the bits `keep(i, block)` returns, recording
    /// every block that changes, then [`tighten`](Self::tighten)s. Returns whether a block
    /// changed. Blocks outside the live run are zero already and are not visited.
    pub(super) fn keep(
        &mut self,
        range: Range<usize>,
        record: &mut impl Record,
        mut keep: impl FnMut(usize, usize) -> usize,
    ) -> bool {
        let range = range.start.max(self.live.start)..range.end.min(self.live.end);
        let mut changed = false;
        for i in range {
            let word = &mut self.set.as_mut_slice()[i];
            let new = *word & keep(i, *word);
            changed |= replace_block(word, i, new, record);
        }
        self.tighten();
        changed
    }

    /// The blocks, to clear bits in: callers never set one (that is [`restore`](Self::restore)'s
    /// job) and call [`tighten`](Self::tighten) afterwards.
    #[inline]
    pub(super) fn blocks_mut(&mut self) -> &mut [usize] {
        self.set.as_mut_slice()
    }

    /// Clears bit `i`.
    #[inline]
    pub(super) fn remove(&mut self, i: usize) {
        self.set.remove(i);
        self.tighten();
    }

    /// Moves the ends of `live` inwards past zero blocks: O(1) when both ends hold values.
    #[inline]
    pub(super) fn tighten(&mut self) {
        let blocks = self.set.as_slice();
        let Range { mut start, mut end } = self.live;
        while start < end && blocks[start] == 0 {
            start += 1;
        }
        while end > start && blocks[end - 1] == 0 {
            end -= 1;
        }
        self.live = start..end;
    }

    /// Puts back block `block` as it was (the search's undo), widening `live` to it.
    #[inline]
    pub(super) fn restore(&mut self, block: usize, old: usize) {
        self.set.as_mut_slice()[block] = old;
        if old != 0 {
            if self.live.is_empty() {
                self.live = block..block + 1;
            } else {
                self.live = self.live.start.min(block)..self.live.end.max(block + 1);
            }
        }
    }

    /// The index of the lowest bit set.
    #[inline]
    pub(super) fn minimum(&self) -> Option<usize> {
        let blocks = self.set.as_slice();
        self.live()
            .find(|&i| blocks[i] != 0)
            .map(|i| i * BITS + blocks[i].trailing_zeros() as usize)
    }

    /// The index of the highest bit set.
    #[inline]
    pub(super) fn maximum(&self) -> Option<usize> {
        let blocks = self.set.as_slice();
        self.live()
            .rev()
            .find(|&i| blocks[i] != 0)
            .map(|i| i * BITS + (BITS - 1) - blocks[i].leading_zeros() as usize)
    }

    /// The number of bits set.
    #[inline]
    pub(super) fn count_ones(&self) -> usize {
        let blocks = self.set.as_slice();
        self.live().map(|i| blocks[i].count_ones() as usize).sum()
    }

    /// Whether no bit is set.
    #[inline]
    pub(super) fn is_clear(&self) -> bool {
        let blocks = self.set.as_slice();
        self.live().all(|i| blocks[i] == 0)
    }
}

/// Reads go to the bitset itself.
impl Deref for Blocks {
    type Target = FixedBitSet;

    #[inline]
    fn deref(&self) -> &FixedBitSet {
        &self.set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(bits: &[usize], len: usize) -> Blocks {
        let mut set = FixedBitSet::with_capacity(len);
        bits.iter().for_each(|&i| set.insert(i));
        Blocks::new(set)
    }

    #[test]
    fn live_follows_the_values_through_removals_and_restores() {
        let mut b = blocks(&[70, 200, 300], 512);
        assert_eq!(b.live(), 1..5);
        assert_eq!(
            (b.minimum(), b.maximum(), b.count_ones()),
            (Some(70), Some(300), 3)
        );
        let old = b.as_slice()[1];
        b.remove(70);
        assert_eq!(b.live(), 3..5);
        assert_eq!(b.minimum(), Some(200));
        b.remove(200);
        b.remove(300);
        assert!(b.live().is_empty() && b.is_clear());
        assert_eq!((b.minimum(), b.maximum(), b.count_ones()), (None, None, 0));
        b.restore(1, old);
        assert_eq!(b.live(), 1..2);
        assert_eq!((b.minimum(), b.maximum()), (Some(70), Some(70)));
    }
}
