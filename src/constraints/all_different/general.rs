//! Régin's filtering for value ranges wider than 64: a matching and the strongly connected
//! components of its alternating graph, over a value graph read row by row from the domains and
//! restricted beforehand to the variables that can belong to a Hall set.
//!
//! # Which variables are looked at
//!
//! A *Hall set* is a set `H` of variables whose domains hold `|H|` values in all: `H` takes
//! those values, and no other variable may. Domain consistency removes exactly the values of
//! the Hall sets from the variables outside them, and fails when some `H` holds fewer than
//! `|H|` values (Hall's theorem; Régin's matching and components find all of them at once).
//!
//! After value elimination (the values of the fixed variables removed from the others), let `k`
//! be the number of unfixed variables. A Hall set of `h` variables needs `h` variables of size
//! at most `h`. So every Hall set other than the whole of the `k` variables lies among the
//! variables of size at most `b`, the largest `h < k` such that at least `h` sizes are at most
//! `h` ([`hall_bound`]); the others only lose the values of those Hall sets, and a failure,
//! too, shows among them. When no such `h` exists, the domains are already domain consistent:
//! one `AllDifferent` over `n` variables with values `1..=n`, in a search in input order,
//! never gets past this test. Sizes that are only lower bounds give a larger set, never a
//! wrong answer, which lets the propagator skip measuring most domains.
//!
//! The same holds inside that set, whose Hall sets other than itself lie among its own
//! variables of size at most its own bound: the candidates are peeled level after level while
//! each level is at most half of the one before (so the peeling costs at most twice the first
//! level), each level tested as a whole (its values counted), and Régin's algorithm runs on the
//! innermost level only.
//!
//! # Costs
//!
//! With `m` candidates whose domains hold `e` values in all and span `w` words each: the rows
//! of the value graph are bitsets over the candidates' shifted values, read from the domains'
//! words (O(m·w)), or sorted lists when the values are sparse (O(e log e)), whichever is
//! smaller; either takes about as much memory as the candidates' domains themselves, and the
//! other variables take none. The matching starts from the one the last run found, where it
//! still holds, and augments the rest (O(e) per variable to match). The components: a few
//! passes of word operations first mark the variables whose value can be freed along an
//! alternating path (O(m·w) each); on dense rows (16 values a word or more), the large
//! components are peeled off by forward–backward reachability on bitsets (O(m·w) each, a few
//! passes backward); Tarjan's algorithm finds the rest, an edge at a time (O(m + e)). Values
//! of Hall sets left to remove from the other unfixed variables cost one word operation per
//! word of their range that those values meet.
//!
//! At 10,000 variables over `1..=10000` with random domains of half the values, a run at the
//! root takes about 0.1 s and one in the search about 20 ms (against minutes for one list of
//! edges per variable and Tarjan's algorithm over all of them).

use crate::constraints::{Conflict, PropagationContext};
use crate::domain::Domain;
use crate::util::bits::Ones;

use super::AllDifferent;

/// No node, no value.
pub(super) const NONE: u32 = u32::MAX;

/// The largest `h < k` such that at least `h` of `sizes` are at most `h`, or 0 if there is none
/// (`k` is the number of unfixed variables, `sizes` their sizes or lower bounds on them).
/// `counts` is scratch space.
pub(super) fn hall_bound(
    sizes: impl Iterator<Item = usize>,
    k: usize,
    counts: &mut Vec<u32>,
) -> usize {
    if k < 2 {
        return 0;
    }
    counts.clear();
    counts.resize(k, 0);
    for size in sizes {
        if size < k {
            counts[size] += 1;
        }
    }
    let (mut total, mut bound) = (0usize, 0usize);
    for (h, &count) in counts.iter().enumerate() {
        total += count as usize;
        if h >= 1 && total >= h {
            bound = h;
        }
    }
    bound
}

/// Where an enumeration of a row stands.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Cursor {
    at: u32,
    bits: u64,
}

/// The rows of a bipartite value graph: row `r` is the set of value nodes (all below
/// [`values`](Rows::values)) of a variable, enumerated in ascending order through a [`Cursor`].
pub(super) trait Rows {
    /// The number of value nodes.
    fn values(&self) -> usize;
    /// Whether row `row` holds `value`.
    fn contains(&self, row: usize, value: u32) -> bool;
    /// A cursor before the first value of `row`.
    fn cursor(&self, row: usize) -> Cursor;
    /// The next value of `row` after `cursor`, which moves past it.
    fn next(&self, row: usize, cursor: &mut Cursor) -> Option<u32>;
    /// Adds the values of `row` to the bitset `set` (one bit per value node).
    fn add_to(&self, row: usize, set: &mut [u64]);
    /// Whether `row` holds a value of the bitset `set`.
    fn meets(&self, row: usize, set: &[u64]) -> bool;
    /// Calls `f(w, bits)` with the values of `row` in `64w..64w + 64`, for each such `w` that
    /// holds some.
    fn for_each_word(&self, row: usize, f: impl FnMut(usize, u64));
}

/// Rows as bitsets, each over the words of the value space its values span.
#[derive(Debug, Default)]
pub(super) struct BitRows {
    /// Per row, the index of its first word in the value space.
    first: Vec<u32>,
    /// Row `r` is `words[starts[r]..starts[r + 1]]`.
    starts: Vec<u32>,
    words: Vec<u64>,
    values: usize,
}

impl BitRows {
    fn clear(&mut self, values: usize) {
        self.first.clear();
        self.starts.clear();
        self.starts.push(0);
        self.words.clear();
        self.values = values;
    }

    fn row(&self, row: usize) -> &[u64] {
        &self.words[self.starts[row] as usize..self.starts[row + 1] as usize]
    }
}

impl Rows for BitRows {
    fn values(&self) -> usize {
        self.values
    }

    fn contains(&self, row: usize, value: u32) -> bool {
        let word = (value / 64).wrapping_sub(self.first[row]) as usize;
        self.row(row)
            .get(word)
            .is_some_and(|w| w >> (value % 64) & 1 == 1)
    }

    fn cursor(&self, row: usize) -> Cursor {
        Cursor {
            at: 0,
            bits: self.row(row).first().copied().unwrap_or(0),
        }
    }

    #[inline]
    fn next(&self, row: usize, cursor: &mut Cursor) -> Option<u32> {
        while cursor.bits == 0 {
            let words = self.row(row);
            if cursor.at as usize + 1 >= words.len() {
                return None;
            }
            cursor.at += 1;
            cursor.bits = words[cursor.at as usize];
        }
        let bit = cursor.bits.trailing_zeros();
        cursor.bits &= cursor.bits - 1;
        Some((self.first[row] + cursor.at) * 64 + bit)
    }

    fn add_to(&self, row: usize, set: &mut [u64]) {
        let first = self.first[row] as usize;
        for (slot, &word) in set[first..].iter_mut().zip(self.row(row)) {
            *slot |= word;
        }
    }

    fn for_each_word(&self, row: usize, mut f: impl FnMut(usize, u64)) {
        let first = self.first[row] as usize;
        for (j, &word) in self.row(row).iter().enumerate() {
            if word != 0 {
                f(first + j, word);
            }
        }
    }

    fn meets(&self, row: usize, set: &[u64]) -> bool {
        let first = self.first[row] as usize;
        set[first..]
            .iter()
            .zip(self.row(row))
            .any(|(&a, &b)| a & b != 0)
    }
}

/// Rows as sorted lists of value nodes.
#[derive(Debug, Default)]
pub(super) struct ListRows {
    /// Row `r` is `items[starts[r]..starts[r + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
    values: usize,
}

impl ListRows {
    fn clear(&mut self, values: usize) {
        self.starts.clear();
        self.starts.push(0);
        self.items.clear();
        self.values = values;
    }

    fn end_row(&mut self) {
        self.starts.push(self.items.len() as u32);
    }

    fn row(&self, row: usize) -> &[u32] {
        &self.items[self.starts[row] as usize..self.starts[row + 1] as usize]
    }
}

impl Rows for ListRows {
    fn values(&self) -> usize {
        self.values
    }

    fn contains(&self, row: usize, value: u32) -> bool {
        self.row(row).binary_search(&value).is_ok()
    }

    fn cursor(&self, _row: usize) -> Cursor {
        Cursor::default()
    }

    #[inline]
    fn next(&self, row: usize, cursor: &mut Cursor) -> Option<u32> {
        let value = self.row(row).get(cursor.at as usize).copied()?;
        cursor.at += 1;
        Some(value)
    }

    fn add_to(&self, row: usize, set: &mut [u64]) {
        for &value in self.row(row) {
            set[value as usize / 64] |= 1 << (value % 64);
        }
    }

    fn for_each_word(&self, row: usize, mut f: impl FnMut(usize, u64)) {
        for &value in self.row(row) {
            f(value as usize / 64, 1 << (value % 64));
        }
    }

    fn meets(&self, row: usize, set: &[u64]) -> bool {
        self.row(row)
            .iter()
            .any(|&value| set[value as usize / 64] >> (value % 64) & 1 == 1)
    }
}

/// A matching and the components of its alternating graph, over some rows of a [`Rows`]
/// (the *nodes*: node `i` is row `nodes[i]`). The buffers are kept between runs.
///
/// The components are those of a graph on the nodes plus a sink: node `i` leads to node `j`
/// when row `i` holds the value matched to `j` (its variable could take that value, and `j`'s
/// would move), and to the sink when it holds an unmatched value; the sink leads to every node.
/// A node reaches the sink exactly when its matched value can be freed along an alternating
/// path, and so lies in the sink's component; an edge that leaves the matching is in some
/// maximum matching exactly when it closes an alternating cycle (both ends in one component)
/// or leads to a value that can be freed.
#[derive(Debug, Default)]
pub(super) struct Regin {
    /// Per node, its matched value.
    mate: Vec<u32>,
    /// Per value, the node matched to it, or [`NONE`].
    owner: Vec<u32>,
    /// Per value, the augmentation that last visited it.
    seen: Vec<u32>,
    stamp: u32,
    /// The depth-first stack of both searches: a node and where its row stands.
    frames: Vec<(u32, Cursor)>,
    /// In an augmenting search, the value through which each frame but the first was entered.
    path: Vec<u32>,
    /// Per node, whether its matched value is known to be freeable; per value (a bitset), the
    /// values known to be freeable and the unmatched ones.
    escaped: Vec<bool>,
    escape: Vec<u64>,
    /// After the components: the values that belong to a Hall set (matched to a node outside
    /// the sink's component), as a bitset. For the pruning: the nodes in the order of their
    /// components, and the values of one component.
    tight: Vec<u64>,
    order: Vec<u32>,
    own: Vec<u64>,
    /// Forward–backward peeling: the values reached forward, the values of the component found
    /// so far, the nodes reached forward (in order), and per node the peel that reached it.
    reached: Vec<u64>,
    peeled: Vec<u64>,
    queue: Vec<u32>,
    mark: Vec<u32>,
    /// Tarjan's algorithm: per node (and the sink, last) its index and link, and its component
    /// (set by the peeling too); the stack of nodes not yet in a component.
    index: Vec<u32>,
    low: Vec<u32>,
    component: Vec<u32>,
    stack: Vec<u32>,
}

impl Regin {
    /// Matches every node to a distinct value of its row, starting from `hint(i)` for node `i`
    /// where that value is in its row and not taken, and augmenting the rest; `false` if no
    /// matching covers every node.
    pub(super) fn find_matching<R: Rows>(
        &mut self,
        rows: &R,
        nodes: &[u32],
        hint: impl Fn(usize) -> u32,
    ) -> bool {
        let values = rows.values();
        self.mate.clear();
        self.mate.resize(nodes.len(), NONE);
        self.owner.clear();
        self.owner.resize(values, NONE);
        if self.seen.len() < values {
            self.seen.resize(values, 0);
        }
        for (i, &row) in nodes.iter().enumerate() {
            let value = hint(i);
            if (value as usize) < values
                && self.owner[value as usize] == NONE
                && rows.contains(row as usize, value)
            {
                self.mate[i] = value;
                self.owner[value as usize] = i as u32;
            }
        }
        (0..nodes.len()).all(|i| self.mate[i] != NONE || self.augment(rows, nodes, i))
    }

    /// A value of the row of node `i` that no node holds.
    fn free_value<R: Rows>(&self, rows: &R, row: usize) -> Option<u32> {
        let mut cursor = rows.cursor(row);
        while let Some(value) = rows.next(row, &mut cursor) {
            if self.owner[value as usize] == NONE {
                return Some(value);
            }
        }
        None
    }

    fn assign(&mut self, node: u32, value: u32) {
        self.mate[node as usize] = value;
        self.owner[value as usize] = node;
    }

    /// Matches `root` along an augmenting path (depth first, each value visited once; a node
    /// entered first looks for a free value of its own).
    fn augment<R: Rows>(&mut self, rows: &R, nodes: &[u32], root: usize) -> bool {
        if self.stamp == u32::MAX {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 0;
        }
        self.stamp += 1;
        if let Some(value) = self.free_value(rows, nodes[root] as usize) {
            self.assign(root as u32, value);
            return true;
        }
        self.frames.clear();
        self.path.clear();
        self.frames
            .push((root as u32, rows.cursor(nodes[root] as usize)));
        while let Some(&(node, mut cursor)) = self.frames.last() {
            let row = nodes[node as usize] as usize;
            let next = loop {
                match rows.next(row, &mut cursor) {
                    Some(value) if self.seen[value as usize] == self.stamp => {}
                    other => break other,
                }
            };
            let Some(value) = next else {
                self.frames.pop();
                self.path.pop();
                continue;
            };
            if let Some(top) = self.frames.last_mut() {
                top.1 = cursor;
            }
            self.seen[value as usize] = self.stamp;
            let holder = self.owner[value as usize];
            let freed = match holder {
                NONE => true,
                _ => match self.free_value(rows, nodes[holder as usize] as usize) {
                    Some(free) => {
                        self.assign(holder, free);
                        true
                    }
                    None => false,
                },
            };
            self.path.push(value);
            if freed {
                // Each node of the path takes the value through which the next was entered.
                for k in (0..self.frames.len()).rev() {
                    let (node, _) = self.frames[k];
                    self.assign(node, self.path[k]);
                }
                return true;
            }
            self.frames
                .push((holder, rows.cursor(nodes[holder as usize] as usize)));
        }
        false
    }

    /// Marks the nodes whose matched value can be freed, a pass over the others at a time (a
    /// node whose row meets a freeable value is one), for at most a few passes: enough for the
    /// common case of many free values, and what is left is found by the components.
    fn find_escapes<R: Rows>(&mut self, rows: &R, nodes: &[u32]) {
        const PASSES: usize = 4;
        self.escaped.clear();
        self.escaped.resize(nodes.len(), false);
        self.escape.clear();
        self.escape.resize(rows.values().div_ceil(64), u64::MAX);
        for &value in &self.mate {
            self.escape[value as usize / 64] &= !(1 << (value % 64));
        }
        for _ in 0..PASSES {
            let mut found = false;
            for (i, &row) in nodes.iter().enumerate() {
                if !self.escaped[i] && rows.meets(row as usize, &self.escape) {
                    self.escaped[i] = true;
                    let value = self.mate[i];
                    self.escape[value as usize / 64] |= 1 << (value % 64);
                    found = true;
                }
            }
            if !found {
                return;
            }
        }
    }

    /// Peels off components one at a time, from the first node left: the nodes it reaches
    /// (forward, each row read once a word at a time), then among them those that reach it
    /// (backward, passes over them until none is added). Stops when a pivot reaches a freeable
    /// value (its component is the sink's, left to Tarjan's algorithm), when a component takes
    /// less than an eighth of the nodes left or the backward passes get many (a sparse graph,
    /// better served edge by edge), or when few nodes are left. Returns the number of components.
    fn peel<R: Rows>(&mut self, rows: &R, nodes: &[u32]) -> u32 {
        const FEWEST: usize = 64;
        const PASSES: usize = 8;
        let m = nodes.len();
        let words = rows.values().div_ceil(64);
        self.mark.clear();
        self.mark.resize(m, 0);
        let mut left = self.escaped.iter().filter(|&&e| !e).count();
        let mut components = 0u32;
        let mut start = 0;
        while left >= FEWEST {
            while self.escaped[start] || self.component[start] != NONE {
                start += 1;
            }
            let stamp = components + 1;
            // Forward.
            self.reached.clear();
            self.reached.resize(words, 0);
            self.queue.clear();
            self.queue.push(start as u32);
            self.mark[start] = stamp;
            let mut at = 0;
            let mut sink = false;
            while at < self.queue.len() && !sink {
                let node = self.queue[at] as usize;
                at += 1;
                let (reached, owner, escaped, component, mark, queue) = (
                    &mut self.reached,
                    &self.owner,
                    &self.escaped,
                    &self.component,
                    &mut self.mark,
                    &mut self.queue,
                );
                rows.for_each_word(nodes[node] as usize, |w, bits| {
                    let new = bits & !reached[w];
                    reached[w] |= bits;
                    for bit in Ones(new) {
                        let o = owner[w * 64 + bit as usize];
                        if o == NONE || escaped[o as usize] {
                            sink = true;
                        } else if component[o as usize] == NONE && mark[o as usize] != stamp {
                            mark[o as usize] = stamp;
                            queue.push(o);
                        }
                    }
                });
            }
            if sink {
                break;
            }
            // Backward, within the nodes reached.
            self.peeled.clear();
            self.peeled.resize(words, 0);
            let value = self.mate[start];
            self.peeled[value as usize / 64] |= 1 << (value % 64);
            self.component[start] = components;
            let mut size = 1;
            let mut converged = false;
            for _ in 0..PASSES {
                let before = size;
                for &node in &self.queue {
                    let node = node as usize;
                    if self.component[node] == NONE
                        && rows.meets(nodes[node] as usize, &self.peeled)
                    {
                        self.component[node] = components;
                        let value = self.mate[node];
                        self.peeled[value as usize / 64] |= 1 << (value % 64);
                        size += 1;
                    }
                }
                if size == before {
                    converged = true;
                    break;
                }
            }
            if !converged {
                for &node in &self.queue {
                    if self.component[node as usize] == components {
                        self.component[node as usize] = NONE;
                    }
                }
                break;
            }
            components += 1;
            let peeled_few = 8 * size < left;
            left -= size;
            if peeled_few {
                break;
            }
        }
        components
    }

    /// The strongly connected components of the alternating graph of the matching (see the
    /// type's docs), by Tarjan's algorithm on an explicit stack, from the sink. The nodes found
    /// freeable beforehand are put in the sink's component without being visited: an edge to
    /// one is an edge to the sink.
    ///
    /// With `dense` rows (many values per word), large components are first peeled off by
    /// forward–backward reachability on bitsets ([`peel`](Self::peel)), a word at a time where
    /// Tarjan's algorithm goes an edge at a time; the rest goes to Tarjan's.
    pub(super) fn find_components<R: Rows>(&mut self, rows: &R, nodes: &[u32], dense: bool) {
        self.find_escapes(rows, nodes);
        let m = nodes.len();
        let sink = m as u32;
        self.component.clear();
        self.component.resize(m + 1, NONE);
        let mut components = if dense { self.peel(rows, nodes) } else { 0 };
        self.index.clear();
        self.index.resize(m + 1, NONE);
        self.low.clear();
        self.low.resize(m + 1, 0);
        self.stack.clear();
        self.frames.clear();
        self.index[m] = 0;
        self.stack.push(sink);
        self.frames.push((sink, Cursor::default()));
        let mut counter = 1u32;
        while let Some(&(node, mut cursor)) = self.frames.last() {
            let n = node as usize;
            // The next node not seen yet that `node` leads to; the nodes seen and still on the
            // stack that it leads to lower its link on the way.
            let next = if node == sink {
                // The sink leads to every node not known to be freeable, in order (those seen
                // already, or peeled, need no visit).
                while cursor.at < sink
                    && (self.escaped[cursor.at as usize]
                        || self.index[cursor.at as usize] != NONE
                        || self.component[cursor.at as usize] != NONE)
                {
                    cursor.at += 1;
                }
                let next = (cursor.at < sink).then_some(cursor.at);
                cursor.at += 1;
                next
            } else {
                let row = nodes[n] as usize;
                let mate = self.mate[n];
                let mut low = self.low[n];
                let next = loop {
                    let Some(value) = rows.next(row, &mut cursor) else {
                        break None;
                    };
                    if value == mate {
                        continue;
                    }
                    let owner = self.owner[value as usize];
                    let w = if owner == NONE || self.escaped[owner as usize] {
                        sink
                    } else {
                        owner
                    };
                    if self.component[w as usize] != NONE {
                        // A component already found: no way back from it.
                        continue;
                    }
                    let index = self.index[w as usize];
                    if index == NONE {
                        break Some(w);
                    }
                    // Seen and still on the stack: a way back up.
                    low = low.min(index);
                };
                self.low[n] = low;
                next
            };
            if let Some(top) = self.frames.last_mut() {
                top.1 = cursor;
            }
            match next {
                Some(w) => {
                    let at = w as usize;
                    self.index[at] = counter;
                    self.low[at] = counter;
                    counter += 1;
                    self.stack.push(w);
                    self.frames.push((w, rows.cursor(nodes[at] as usize)));
                }
                None => {
                    self.frames.pop();
                    if let Some(&(parent, _)) = self.frames.last() {
                        let p = parent as usize;
                        self.low[p] = self.low[p].min(self.low[n]);
                    }
                    if self.low[n] == self.index[n] {
                        while let Some(w) = self.stack.pop() {
                            self.component[w as usize] = components;
                            if w == node {
                                break;
                            }
                        }
                        components += 1;
                    }
                }
            }
        }
        let sink_component = self.component[m];
        for (component, &escaped) in self.component.iter_mut().zip(&self.escaped) {
            if escaped {
                *component = sink_component;
            }
        }
        self.tight.clear();
        self.tight.resize(rows.values().div_ceil(64), 0);
        for (i, &value) in self.mate.iter().enumerate() {
            if self.component[i] != sink_component {
                self.tight[value as usize / 64] |= 1 << (value % 64);
            }
        }
    }

    /// The value matched to node `i`.
    pub(super) fn mate(&self, i: usize) -> u32 {
        self.mate[i]
    }
}

/// The scratch space of [`AllDifferent::filter`], kept by the propagator between runs so that
/// a search allocates nothing once its buffers have grown.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    counts: Vec<u32>,
    /// The candidates (scope positions) and their sizes.
    hall: Vec<u32>,
    hall_sizes: Vec<usize>,
    /// The nested levels of candidates, as node lists (indices into `hall`), one after the
    /// other: level `l` is `levels[ends[l - 1]..ends[l]]`.
    levels: Vec<u32>,
    ends: Vec<usize>,
    bits: BitRows,
    lists: ListRows,
    /// Whether the rows are `bits` (else `lists`), and whether they hold 16 values a word or
    /// more on average.
    use_bits: bool,
    dense: bool,
    /// With `bits`: the key of value node 0. With `lists`: the key of each value node.
    low_key: i64,
    keys: Vec<i64>,
    regin: Regin,
    /// Bitsets over the value nodes: the values of a level, the values of the Hall sets.
    union: Vec<u64>,
    tight: Vec<u64>,
    /// The value nodes of `tight`, when it is to be removed value by value.
    tight_list: Vec<u32>,
    /// After a call: the positions that lost values, each with how many it lost (a position
    /// appears once per step that pruned it).
    pub(super) pruned: Vec<(u32, u32)>,
    /// After a call: the positions matched by Régin's algorithm, each with the key of its value.
    pub(super) matched: Vec<(u32, i64)>,
}

/// The domain's values shifted to keys as one 64-bit window: bit `b` is value `base + b`, or 0
/// if `base` is not an `i32`.
fn window_at(domain: &Domain, base: i64) -> u64 {
    i32::try_from(base).map_or(0, |base| domain.window(base))
}

impl AllDifferent {
    /// Régin's filtering on domains too wide for the masks, from the domains alone: value
    /// elimination, then [`filter`](Self::filter) over the unfixed positions with their sizes.
    /// Allocates per call; the propagator keeps its buffers instead.
    pub(super) fn regin_general(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let (low, high) = self.key_range(|var| ctx.domain(var))?;
        self.forward_general(ctx, low, high)?;
        let unfixed: Vec<u32> = (0..self.scope.len() as u32)
            .filter(|&i| !ctx.is_fixed(self.scope[i as usize]))
            .collect();
        let sizes: Vec<usize> = unfixed
            .iter()
            .map(|&i| ctx.domain(self.scope[i as usize]).size())
            .collect();
        self.filter(ctx, &unfixed, &sizes, None, &mut Scratch::default())
    }

    /// Domain consistency among the `unfixed` positions, which hold no value of a fixed
    /// position; `sizes[i]` is the size of `unfixed[i]` or a lower bound on it (see the
    /// module's docs). `hints[position]` is a key the position was matched to before, tried
    /// first. Records in `scratch` what was pruned and matched.
    pub(super) fn filter(
        &self,
        ctx: &mut PropagationContext<'_>,
        unfixed: &[u32],
        sizes: &[usize],
        hints: Option<&[i64]>,
        s: &mut Scratch,
    ) -> Result<(), Conflict> {
        s.pruned.clear();
        s.matched.clear();
        let k = unfixed.len();
        let bound = hall_bound(sizes.iter().copied(), k, &mut s.counts);
        if bound == 0 {
            return Ok(());
        }
        s.hall.clear();
        s.hall_sizes.clear();
        for (&position, &size) in unfixed.iter().zip(sizes) {
            if size <= bound {
                s.hall.push(position);
                s.hall_sizes.push(size);
            }
        }
        self.peel_levels(s);
        self.read_rows(ctx, s);
        // Régin's algorithm on the innermost level. (Its buffers are taken out of the scratch
        // space while the rest is read, and always put back.)
        let mut regin = std::mem::take(&mut s.regin);
        let result = self.filter_levels(ctx, hints, &mut regin, s);
        s.regin = regin;
        result?;
        // The unfixed variables that are not candidates lose the values of every Hall set.
        if s.tight.iter().any(|&w| w != 0) {
            self.remove_tight(ctx, unfixed, sizes, bound, s)?;
        }
        Ok(())
    }

    /// Régin's algorithm on the innermost level of candidates, then the levels outwards: a
    /// level's variables outside the next level lose the values of that level's Hall sets, and
    /// a level whose values are as many as its variables is itself a Hall set. Leaves in
    /// `s.tight` the values of every Hall set among the candidates.
    fn filter_levels(
        &self,
        ctx: &mut PropagationContext<'_>,
        hints: Option<&[i64]>,
        regin: &mut Regin,
        s: &mut Scratch,
    ) -> Result<(), Conflict> {
        let levels = s.ends.len() - 1;
        let inner = s.ends[levels - 1]..s.ends[levels];
        s.tight.clear();
        s.tight.resize(s.values().div_ceil(64), 0);
        if !inner.is_empty() {
            let nodes = &s.levels[inner.clone()];
            let hint = |i: usize| {
                let position = s.hall[nodes[i] as usize] as usize;
                hints.map_or(NONE, |h| s.node_of(h[position]))
            };
            let found = if s.use_bits {
                regin.find_matching(&s.bits, nodes, hint)
            } else {
                regin.find_matching(&s.lists, nodes, hint)
            };
            if !found {
                return Err(Conflict);
            }
            if s.use_bits {
                regin.find_components(&s.bits, nodes, s.dense);
            } else {
                regin.find_components(&s.lists, nodes, false);
            }
            s.tight.copy_from_slice(&regin.tight);
            for (i, &row) in nodes.iter().enumerate() {
                s.matched
                    .push((s.hall[row as usize], s.key_of(regin.mate(i))));
            }
            // A node keeps the values of the Hall sets of its own component only (none if it
            // is in the sink's): the nodes one component at a time, with its values marked.
            regin.order.clear();
            regin.order.extend(0..nodes.len() as u32);
            let component = &regin.component;
            regin.order.sort_unstable_by_key(|&i| component[i as usize]);
            regin.own.clear();
            regin.own.resize(regin.tight.len(), 0);
            let m = nodes.len();
            let sink = regin.component[m];
            let mut group = 0;
            while group < m {
                let first = regin.order[group] as usize;
                let c = regin.component[first];
                let end = group
                    + regin.order[group..]
                        .iter()
                        .take_while(|&&i| regin.component[i as usize] == c)
                        .count();
                let members = group..end;
                group = end;
                if c != sink {
                    for &i in &regin.order[members.clone()] {
                        let value = regin.mate[i as usize];
                        regin.own[value as usize / 64] |= 1 << (value % 64);
                    }
                }
                for &i in &regin.order[members.clone()] {
                    let row = s.levels[inner.start + i as usize] as usize;
                    self.prune_row(ctx, s, row, |w, bits| {
                        regin.tight[w as usize] & !regin.own[w as usize] & bits
                    })?;
                }
                for &i in &regin.order[members] {
                    let value = regin.mate[i as usize];
                    regin.own[value as usize / 64] = 0;
                }
            }
        }
        for level in (0..levels - 1).rev() {
            let (outer, next) = (
                s.ends[level]..s.ends[level + 1],
                s.ends[level + 1]..s.ends[level + 2],
            );
            let size = outer.len();
            if s.tight.iter().any(|&w| w != 0) {
                // The next level is the outer one filtered, in the same order.
                let mut in_next = next.peekable();
                let tight = std::mem::take(&mut s.tight);
                for at in outer.clone() {
                    let row = s.levels[at];
                    if in_next.peek().is_some_and(|&n| s.levels[n] == row) {
                        in_next.next();
                        continue;
                    }
                    let result =
                        self.prune_row(ctx, s, row as usize, |w, bits| tight[w as usize] & bits);
                    if result.is_err() {
                        s.tight = tight;
                        return result;
                    }
                }
                s.tight = tight;
            }
            s.union.clear();
            s.union.resize(s.tight.len(), 0);
            for at in outer {
                let row = s.levels[at] as usize;
                if s.use_bits {
                    s.bits.add_to(row, &mut s.union);
                } else {
                    s.lists.add_to(row, &mut s.union);
                }
            }
            let values: usize = s.union.iter().map(|w| w.count_ones() as usize).sum();
            if values < size {
                return Err(Conflict);
            }
            if values == size {
                std::mem::swap(&mut s.tight, &mut s.union);
            }
        }
        Ok(())
    }

    /// Splits the candidates `s.hall` into nested levels: level 0 is all of them; the next is
    /// those of the last level's size at most its own [`hall_bound`], kept while it is at most
    /// half of the last (or empty). Regin's algorithm runs on the last level.
    fn peel_levels(&self, s: &mut Scratch) {
        s.levels.clear();
        s.ends.clear();
        s.ends.push(0);
        s.levels.extend(0..s.hall.len() as u32);
        s.ends.push(s.levels.len());
        loop {
            let last = s.ends[s.ends.len() - 2]..s.ends[s.ends.len() - 1];
            let size = last.len();
            if size == 0 {
                return;
            }
            let sizes = s.levels[last.clone()]
                .iter()
                .map(|&node| s.hall_sizes[node as usize]);
            let bound = hall_bound(sizes, size, &mut s.counts);
            let inner = s.levels[last.clone()]
                .iter()
                .filter(|&&node| s.hall_sizes[node as usize] <= bound)
                .count();
            if inner > 0 && 2 * inner > size {
                return;
            }
            for at in last {
                let node = s.levels[at];
                if s.hall_sizes[node as usize] <= bound {
                    s.levels.push(node);
                }
            }
            s.ends.push(s.levels.len());
        }
    }

    /// Reads the rows of the candidates: bitsets over their keys when every factor is 1 and the
    /// bitsets take no more words than the domains hold values, sorted lists otherwise.
    fn read_rows(&self, ctx: &PropagationContext<'_>, s: &mut Scratch) {
        let (mut low, mut high, mut words, mut edges) = (i64::MAX, i64::MIN, 0i64, 0i64);
        let mut fits = self.scales.is_empty();
        for (&position, &size) in s.hall.iter().zip(&s.hall_sizes) {
            let i = position as usize;
            let domain = ctx.domain(self.scope[i]);
            let (Some(min), Some(max)) = (domain.min(), domain.max()) else {
                continue;
            };
            let (a, b) = (self.key(i, min), self.key(i, max));
            low = low.min(a.min(b));
            high = high.max(a.max(b));
            words += (i64::from(max) - i64::from(min)) / 64 + 2;
            edges += size as i64;
            fits &= i64::from(min) - 64 > i64::from(i32::MIN)
                && i64::from(max) + 64 < i64::from(i32::MAX);
        }
        s.use_bits = fits && words <= edges + s.hall.len() as i64 && (high - low) / 64 <= edges;
        s.dense = s.use_bits && 16 * words <= edges;
        if s.use_bits {
            s.low_key = low;
            let values = ((high - low) / 64 + 1) as usize * 64;
            s.bits.clear(values);
            for &position in &s.hall {
                let i = position as usize;
                let domain = ctx.domain(self.scope[i]);
                let offset = self.offset(i);
                let (min, max) = (domain.min().unwrap_or(0), domain.max().unwrap_or(-1));
                let first = (i64::from(min) + offset - low) / 64;
                let last = (i64::from(max) + offset - low) / 64;
                s.bits.first.push(first as u32);
                let words = &mut s.bits.words;
                domain.windows(
                    low + 64 * first - offset,
                    (last - first + 1) as usize,
                    |w| {
                        words.push(w);
                    },
                );
                s.bits.starts.push(words.len() as u32);
            }
        } else {
            s.keys.clear();
            for &position in &s.hall {
                let i = position as usize;
                let domain = ctx.domain(self.scope[i]);
                s.keys.extend(domain.iter().map(|v| self.key(i, v)));
            }
            s.keys.sort_unstable();
            s.keys.dedup();
            s.lists.clear(s.keys.len());
            for &position in &s.hall {
                let i = position as usize;
                let start = s.lists.items.len();
                for v in ctx.domain(self.scope[i]).iter() {
                    let key = self.key(i, v);
                    let node = s.keys.binary_search(&key).unwrap_or(0) as u32;
                    s.lists.items.push(node);
                }
                // A negative factor lists the keys in descending order.
                s.lists.items[start..].sort_unstable();
                s.lists.end_row();
            }
        }
    }

    /// Removes from the domain of candidate `row` the values of its row that `doomed` picks
    /// (`doomed(w, bits)`: which of `bits`, values `64w..64w + 64`, go), and records how many.
    fn prune_row(
        &self,
        ctx: &mut PropagationContext<'_>,
        s: &mut Scratch,
        row: usize,
        doomed: impl Fn(u32, u64) -> u64,
    ) -> Result<(), Conflict> {
        let position = s.hall[row];
        let i = position as usize;
        let var = self.scope[i];
        let mut removed = 0u32;
        if s.use_bits {
            let offset = self.offset(i);
            let first = s.bits.first[row];
            for (j, &word) in s.bits.row(row).iter().enumerate() {
                let global = first + j as u32;
                let gone = doomed(global, word) & word;
                if gone != 0 {
                    let base = s.low_key + 64 * i64::from(global) - offset;
                    ctx.retain_window(var, base as i32, !gone)?;
                    removed += gone.count_ones();
                }
            }
        } else {
            let row_values = s.lists.row(row);
            for &value in row_values {
                if doomed(value / 64, 1 << (value % 64)) != 0
                    && let Some(v) = self.value_of(i, s.keys[value as usize])
                    && ctx.remove(var, v)?
                {
                    removed += 1;
                }
            }
        }
        if removed > 0 {
            s.pruned.push((position, removed));
        }
        Ok(())
    }

    /// Removes the values of `s.tight` from the unfixed positions that are not candidates
    /// (size above `bound`), and records how many each lost.
    fn remove_tight(
        &self,
        ctx: &mut PropagationContext<'_>,
        unfixed: &[u32],
        sizes: &[usize],
        bound: usize,
        s: &mut Scratch,
    ) -> Result<(), Conflict> {
        s.tight_list.clear();
        for (w, &word) in s.tight.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                s.tight_list.push(w as u32 * 64 + rest.trailing_zeros());
                rest &= rest - 1;
            }
        }
        let count = s.tight_list.len() as i64;
        for (&position, &size) in unfixed.iter().zip(sizes) {
            if size <= bound {
                continue;
            }
            let i = position as usize;
            let var = self.scope[i];
            let mut removed = 0u32;
            if s.use_bits {
                // The words of the value space that the domain's keys meet: a window at a time
                // where they are fewer than the values to remove, value by value otherwise.
                let domain = ctx.domain(var);
                let (Some(min), Some(max)) = (domain.min(), domain.max()) else {
                    return Err(Conflict);
                };
                let offset = self.offset(i);
                let first = (i64::from(min) + offset - s.low_key).div_euclid(64).max(0);
                let last = (i64::from(max) + offset - s.low_key)
                    .div_euclid(64)
                    .min(s.tight.len() as i64 - 1);
                if first > last {
                    continue;
                }
                if last - first < count {
                    for w in first..=last {
                        let doomed = s.tight[w as usize];
                        let base = s.low_key + 64 * w - offset;
                        let gone = window_at(ctx.domain(var), base) & doomed;
                        if gone == 0 {
                            continue;
                        }
                        match i32::try_from(base) {
                            Ok(base) => {
                                ctx.retain_window(var, base, !doomed)?;
                                removed += gone.count_ones();
                            }
                            Err(_) => {
                                for node in Ones(doomed) {
                                    let key = base + offset + i64::from(node);
                                    removed += u32::from(self.remove_key(ctx, i, key)?);
                                }
                            }
                        }
                    }
                    if removed > 0 {
                        s.pruned.push((position, removed));
                    }
                    continue;
                }
            }
            for &node in &s.tight_list {
                removed += u32::from(self.remove_key(ctx, i, s.key_of(node))?);
            }
            if removed > 0 {
                s.pruned.push((position, removed));
            }
        }
        Ok(())
    }
}

impl AllDifferent {
    /// Removes the value of position `i` whose key is `key`, if there is one; returns whether
    /// the domain changed.
    fn remove_key(
        &self,
        ctx: &mut PropagationContext<'_>,
        i: usize,
        key: i64,
    ) -> Result<bool, Conflict> {
        match self.value_of(i, key) {
            Some(value) => ctx.remove(self.scope[i], value),
            None => Ok(false),
        }
    }
}

impl Scratch {
    /// The number of value nodes of the rows read last.
    fn values(&self) -> usize {
        if self.use_bits {
            self.bits.values()
        } else {
            self.lists.values()
        }
    }

    /// The key of value node `node`.
    fn key_of(&self, node: u32) -> i64 {
        if self.use_bits {
            self.low_key + i64::from(node)
        } else {
            self.keys[node as usize]
        }
    }

    /// The value node of `key`, or [`NONE`].
    fn node_of(&self, key: i64) -> u32 {
        if self.use_bits {
            let node = key.wrapping_sub(self.low_key);
            if (0..self.bits.values() as i64).contains(&node) {
                node as u32
            } else {
                NONE
            }
        } else {
            self.keys.binary_search(&key).map_or(NONE, |n| n as u32)
        }
    }
}
