//! The set variables of a MiniZinc model, printed as sets by `cspkit mzn`.
//!
//! cspkit has no set variables: its MiniZinc library includes MiniZinc's `nosets.mzn`, which
//! turns `var set of 1..5: s` into one boolean per possible element, each an output variable of
//! the FlatZinc. MiniZinc's own output step (`minizinc --solver cspkit`) rebuilds the set from
//! them with the `.ozn` file the compiler writes; `cspkit mzn` prints in the FlatZinc format
//! without that step, so it reads the same `.ozn` for the sets alone:
//!
//! ```text
//! array [1..5] of bool: X_6 = [X_1,X_2,X_3,X_4,X_5];
//! bool: X_3 = true;
//! set of int: s = reverse_map_ab2si(X_6);
//! array [1..2] of set of int: a = [X_0,X_1];
//! ```
//!
//! and rewrites each solution's lines: the booleans of a set give way to `s = {3,5};`, and an
//! array of sets to `a = array1d(1..2, [{2,3}, {}]);`. Anything else of the `.ozn` is ignored.

use std::collections::{HashMap, HashSet};
use std::io::{self, Write};

/// An element of a boolean array: a FlatZinc output variable, or a constant.
#[derive(Debug, Clone)]
enum Bit {
    Var(String),
    Fixed(bool),
}

/// A set: each possible element and the boolean that says whether it is in.
type SetBits = Vec<(i64, Bit)>;

/// What to print for the sets of a model.
#[derive(Debug)]
enum SetItem {
    Set {
        name: String,
        bits: SetBits,
    },
    Array {
        name: String,
        ranges: Vec<String>,
        sets: Vec<SetBits>,
    },
}

/// The sets of a model's output, and the FlatZinc output variables that make them up.
#[derive(Debug, Default)]
pub(crate) struct SetOutputs {
    items: Vec<SetItem>,
    /// The booleans read by the sets: not printed themselves.
    consumed: HashSet<String>,
}

/// `l..u` as its bounds.
fn range(text: &str) -> Option<(i64, i64)> {
    let (low, high) = text.trim().split_once("..")?;
    Some((low.trim().parse().ok()?, high.trim().parse().ok()?))
}

/// The elements of `[a,b,c]` or `arrayNd(l..u, ..., [a,b,c])`, and the ranges given.
fn elements(text: &str) -> Option<(Vec<String>, Vec<String>)> {
    let text = text.trim();
    let open = text.find('[')?;
    let close = text.rfind(']').filter(|&close| close > open)?;
    let ranges = if text.starts_with("array") {
        let inner = text[..open].split_once('(')?.1;
        inner
            .split(',')
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_owned)
            .collect()
    } else {
        Vec::new()
    };
    let items = text[open + 1..close]
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(str::to_owned)
        .collect();
    Some((items, ranges))
}

/// What rewrites the FlatZinc solutions before they are printed.
pub(crate) trait Rewrite {
    /// `text`, whole solutions and separators, rewritten.
    fn rewrite_all(&self, text: &str) -> String;
}

impl Rewrite for SetOutputs {
    fn rewrite_all(&self, text: &str) -> String {
        SetOutputs::rewrite_all(self, text)
    }
}

impl SetOutputs {
    /// Reads the sets of an `.ozn` text; a model without sets gives none.
    pub(crate) fn read(ozn: &str) -> SetOutputs {
        let mut bools: HashMap<&str, Bit> = HashMap::new();
        // A boolean array: its first index, its elements.
        let mut arrays: HashMap<&str, (i64, Vec<String>)> = HashMap::new();
        let mut sets: Vec<(&str, &str)> = Vec::new();
        let mut set_arrays: Vec<(&str, Vec<String>, Vec<String>)> = Vec::new();
        for line in ozn.lines() {
            let Some(line) = line.trim().strip_suffix(';') else {
                continue;
            };
            if let Some(rest) = line.strip_prefix("bool: ") {
                match rest.split_once('=') {
                    None => {
                        bools.insert(rest.trim(), Bit::Var(rest.trim().to_owned()));
                    }
                    Some((name, value)) => {
                        if let Ok(value) = value.trim().parse::<bool>() {
                            bools.insert(name.trim(), Bit::Fixed(value));
                        }
                    }
                }
            } else if let Some(rest) = line.strip_prefix("set of int: ") {
                if let Some((name, value)) = rest.split_once('=')
                    && let Some(array) = value
                        .trim()
                        .strip_prefix("reverse_map_ab2si(")
                        .and_then(|v| v.strip_suffix(')'))
                {
                    sets.push((name.trim(), array.trim()));
                }
            } else if let Some(rest) = line.strip_prefix("array [") {
                let Some((index_sets, rest)) = rest.split_once("] of ") else {
                    continue;
                };
                if let Some(rest) = rest.strip_prefix("bool: ") {
                    let Some((name, value)) = rest.split_once('=') else {
                        continue;
                    };
                    let first = range(index_sets).map_or(1, |(low, _)| low);
                    if let Some((items, _)) = elements(value) {
                        arrays.insert(name.trim(), (first, items));
                    }
                } else if let Some(rest) = rest.strip_prefix("set of int: ") {
                    let Some((name, value)) = rest.split_once('=') else {
                        continue;
                    };
                    if let Some((items, mut ranges)) = elements(value) {
                        if ranges.is_empty() {
                            ranges = index_sets.split(',').map(|r| r.trim().to_owned()).collect();
                        }
                        set_arrays.push((name.trim(), ranges, items));
                    }
                }
            }
        }
        let mut outputs = SetOutputs::default();
        let bits_of = |array: &str, consumed: &mut HashSet<String>| -> Option<SetBits> {
            let (first, items) = arrays.get(array)?;
            let mut bits = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let bit = match item.as_str() {
                    "true" => Bit::Fixed(true),
                    "false" => Bit::Fixed(false),
                    name => bools.get(name).cloned()?,
                };
                if let Bit::Var(name) = &bit {
                    consumed.insert(name.clone());
                }
                bits.push((first + i as i64, bit));
            }
            Some(bits)
        };
        let mut set_bits: HashMap<&str, SetBits> = HashMap::new();
        let mut consumed = HashSet::new();
        for &(name, array) in &sets {
            if let Some(bits) = bits_of(array, &mut consumed) {
                set_bits.insert(name, bits);
            }
        }
        // The sets inside an array are printed with it, not alone.
        let mut in_arrays = HashSet::new();
        for (name, ranges, items) in &set_arrays {
            let members: Option<Vec<SetBits>> = items
                .iter()
                .map(|item| set_bits.get(item.as_str()).cloned())
                .collect();
            if let Some(members) = members {
                in_arrays.extend(items.iter().cloned());
                outputs.items.push(SetItem::Array {
                    name: (*name).to_owned(),
                    ranges: ranges.clone(),
                    sets: members,
                });
            }
        }
        for &(name, _) in &sets {
            if !in_arrays.contains(name)
                && let Some(bits) = set_bits.get(name)
            {
                outputs.items.push(SetItem::Set {
                    name: name.to_owned(),
                    bits: bits.clone(),
                });
            }
        }
        // Scalars before arrays, each in the order of the file.
        outputs
            .items
            .sort_by_key(|item| matches!(item, SetItem::Array { .. }));
        outputs.consumed = consumed;
        outputs
    }

    /// Whether the model has sets to print.
    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// One solution's lines in the FlatZinc format (`name = value;` lines, the separator
    /// excluded), with the booleans of the sets replaced by the sets.
    pub(crate) fn rewrite(&self, solution: &str) -> String {
        if self.is_empty() {
            return solution.to_owned();
        }
        let mut values: HashMap<&str, bool> = HashMap::new();
        let mut text = String::new();
        for line in solution.lines() {
            if let Some((name, value)) = line.split_once(" = ")
                && self.consumed.contains(name)
            {
                values.insert(name, value.trim_end_matches(';') == "true");
                continue;
            }
            text.push_str(line);
            text.push('\n');
        }
        let show = |bits: &SetBits| {
            let members: Vec<String> = bits
                .iter()
                .filter(|(_, bit)| match bit {
                    Bit::Fixed(value) => *value,
                    Bit::Var(name) => values.get(name.as_str()).copied().unwrap_or(false),
                })
                .map(|(element, _)| element.to_string())
                .collect();
            format!("{{{}}}", members.join(","))
        };
        for item in &self.items {
            match item {
                SetItem::Set { name, bits } => {
                    text.push_str(&format!("{name} = {};\n", show(bits)))
                }
                SetItem::Array { name, ranges, sets } => {
                    let sets: Vec<String> = sets.iter().map(show).collect();
                    text.push_str(&format!(
                        "{name} = array{}d({}, [{}]);\n",
                        ranges.len(),
                        ranges.join(", "),
                        sets.join(", ")
                    ));
                }
            }
        }
        text
    }

    /// A text in the FlatZinc output format (solutions ended by `----------`, then status and
    /// statistics lines), each solution rewritten.
    pub(crate) fn rewrite_all(&self, text: &str) -> String {
        if self.is_empty() {
            return text.to_owned();
        }
        let mut out = String::new();
        let mut solution = String::new();
        for line in text.split_inclusive('\n') {
            if line.trim_end() == "----------" {
                out.push_str(&self.rewrite(&solution));
                out.push_str(line);
                solution.clear();
            } else if line.contains(" = ") {
                solution.push_str(line);
            } else {
                out.push_str(&solution);
                solution.clear();
                out.push_str(line);
            }
        }
        out.push_str(&solution);
        out
    }
}

/// A writer that rewrites the sets of each solution before it reaches `inner`: lines are kept
/// until the solution's separator (or a line that is not a solution's), then written.
pub(crate) struct SetWriter<'s, W: Write> {
    sets: &'s dyn Rewrite,
    inner: W,
    pending: Vec<u8>,
}

impl<'s, W: Write> SetWriter<'s, W> {
    /// A writer of `sets`' solutions into `inner`.
    pub(crate) fn new(sets: &'s dyn Rewrite, inner: W) -> Self {
        SetWriter {
            sets,
            inner,
            pending: Vec::new(),
        }
    }

    /// Writes out every whole line kept.
    fn pass_lines(&mut self, all: bool) -> io::Result<()> {
        // Only whole UTF-8 is read (the solver writes nothing else): a character split
        // between two writes waits for its end, so that positions in `text` are in `pending`.
        let valid = match std::str::from_utf8(&self.pending) {
            Ok(text) => text.len(),
            Err(error) => error.valid_up_to(),
        };
        let text = String::from_utf8_lossy(&self.pending[..valid]).into_owned();
        // Up to the last separator or non-solution line.
        let mut end = 0;
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            at += line.len();
            if !line.ends_with('\n') {
                break;
            }
            if !line.contains(" = ") {
                end = at;
            }
        }
        if all {
            end = text.len();
        }
        if end > 0 {
            self.inner
                .write_all(self.sets.rewrite_all(&text[..end]).as_bytes())?;
            self.pending.drain(..end);
        }
        if all && !self.pending.is_empty() {
            // What is left is not UTF-8: passed on as it came.
            self.inner.write_all(&self.pending)?;
            self.pending.clear();
        }
        Ok(())
    }
}

impl<W: Write> Write for SetWriter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if buf.contains(&b'\n') {
            self.pass_lines(false)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.pass_lines(false)?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for SetWriter<'_, W> {
    fn drop(&mut self) {
        let _ = self.pass_lines(true);
        let _ = self.inner.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::SetOutputs;

    const OZN: &str = "output [\"a = \",show(a),\";\\n\",\"s = \",show(s),\";\\n\"];\n\
        function set of int : reverse_map_ab2si(array [int] of bool: b):: promise_total = {i | i in index_set(b) where b[i]};\n\
        array [2..4] of bool: X_19 = array1d(2..4,[X_16,X_17,X_18]);\n\
        bool: X_18;\nbool: X_17 = true;\nbool: X_16;\n\
        set of int: s = reverse_map_ab2si(X_19);\n\
        set of int: X_1 = reverse_map_ab2si(X_10);\n\
        array [1..3] of bool: X_10 = [X_7,X_8,X_9];\nbool: X_9;\nbool: X_8;\nbool: X_7;\n\
        set of int: X_0 = reverse_map_ab2si(X_6);\n\
        array [1..3] of bool: X_6 = [X_3,X_4,X_5];\nbool: X_5;\nbool: X_4;\nbool: X_3;\n\
        array [1..2] of set of int: a = [X_0,X_1];\n";

    #[test]
    fn the_booleans_of_sets_are_printed_as_the_sets() {
        let sets = SetOutputs::read(OZN);
        let solution = "y = 4;\nX_3 = false;\nX_4 = true;\nX_5 = true;\nX_7 = false;\n\
                        X_8 = false;\nX_9 = false;\nX_16 = false;\nX_18 = true;\n";
        assert_eq!(
            sets.rewrite(solution),
            "y = 4;\ns = {3,4};\na = array1d(1..2, [{2,3}, {}]);\n"
        );
        let text = format!("{solution}----------\n==========\n");
        assert_eq!(
            sets.rewrite_all(&text),
            "y = 4;\ns = {3,4};\na = array1d(1..2, [{2,3}, {}]);\n----------\n==========\n"
        );
    }

    #[test]
    fn a_model_without_sets_is_printed_as_it_is() {
        let sets = SetOutputs::read("output [\"x = \",show(x)];\nint: x;\n");
        assert!(sets.is_empty());
        assert_eq!(
            sets.rewrite_all("x = 1;\n----------\n"),
            "x = 1;\n----------\n"
        );
    }

    #[test]
    fn a_character_split_between_writes_and_text_that_is_not_utf8_pass_whole() {
        use std::io::Write as _;
        let sets = SetOutputs::read("");
        let mut out = Vec::new();
        {
            let mut writer = super::SetWriter::new(&sets, &mut out);
            // "é" split between two writes, a line without a separator before it.
            writer.write_all(b"name = \"caf\xc3").unwrap();
            writer.write_all(b"\xa9\";\n----------\n").unwrap();
            writer.write_all(b"\xff\n").unwrap();
        }
        assert_eq!(out, b"name = \"caf\xc3\xa9\";\n----------\n\xff\n");
    }

    #[test]
    fn brackets_in_the_wrong_order_are_no_array() {
        assert_eq!(super::elements("] then ["), None);
    }
}
