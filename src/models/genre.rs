//! What the puzzle genres share ([`futoshiki`](super::futoshiki), [`kenken`](super::kenken),
//! [`kakuro`](super::kakuro), [`skyscrapers`](super::skyscrapers),
//! [`killer_sudoku`](super::killer_sudoku)): the [`Genre`] trait, the model of a puzzle's
//! layout with its clue variables ([`GenreModel`]), generation with the library's
//! [`Generator`], and the [`TextError`] of their text formats.
//!
//! A puzzle of a genre is a *layout* (its size, and the cages or runs where the genre has
//! them) and *clues*: one optional value per clue variable of the layout's model, in the
//! order of [`GenreModel::clue_variables`]. The model has no clue fixed, so one model serves
//! every puzzle of a layout: solving a puzzle restarts a solver with its clues, and generating
//! one is [`Generator`] removing clues from a random solution while it stays unique.
//!
//! Built on the crate's public API only, as a user would write it.

use crate::puzzle::{GenerateError, Generator, Limits, Puzzle};
use crate::{Limit, Model, ModelError, Outcome, VarId};

/// A mistake in a puzzle's text: where (line and column, from 1; column 0 for the whole line
/// or text) and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct TextError {
    /// The line, from 1.
    pub line: usize,
    /// The column (in characters), from 1; 0 when the mistake is the line or text as a whole.
    pub column: usize,
    /// What is wrong, naming the value found.
    pub message: String,
}

impl TextError {
    /// A mistake at `line`, `column`.
    pub(crate) fn at(line: usize, column: usize, message: impl Into<String>) -> TextError {
        TextError {
            line,
            column,
            message: message.into(),
        }
    }
}

/// One word of a puzzle's text and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    /// The line, from 1.
    pub(crate) line: usize,
    /// The column of its first character, from 1.
    pub(crate) column: usize,
    /// The word.
    pub(crate) text: &'a str,
}

impl Token<'_> {
    /// A mistake at this word.
    pub(crate) fn error(&self, message: impl Into<String>) -> TextError {
        TextError::at(self.line, self.column, message)
    }

    /// The word as a number from `low` to `high`, or a mistake naming it as `what`.
    pub(crate) fn number(&self, low: i32, high: i32, what: &str) -> Result<i32, TextError> {
        match self.text.parse::<i32>() {
            Ok(value) if (low..=high).contains(&value) => Ok(value),
            _ => Err(self.error(format!("{:?} is not {what} ({low} to {high})", self.text))),
        }
    }
}

/// The longest text a genre reads (1 MiB): longer input is refused before it is read word by
/// word.
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// The non-blank lines of `text`, each as its words separated by blanks, with their line
/// numbers. Line endings may be LF or CRLF; a byte order mark at the start is skipped.
pub(crate) fn lines(text: &str) -> Result<Vec<Vec<Token<'_>>>, TextError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(TextError::at(
            1,
            0,
            format!(
                "the text has {} bytes, more than {MAX_TEXT_BYTES}",
                text.len()
            ),
        ));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let mut words = Vec::new();
        let mut start = None;
        for (column, c) in line.chars().chain([' ']).enumerate() {
            match (c.is_whitespace(), start) {
                (false, None) => start = Some(column),
                (true, Some(from)) => {
                    let begin = char_offset(line, from);
                    let end = char_offset(line, column);
                    words.push(Token {
                        line: index + 1,
                        column: from + 1,
                        text: &line[begin..end],
                    });
                    start = None;
                }
                _ => {}
            }
        }
        if !words.is_empty() {
            out.push(words);
        }
    }
    if out.is_empty() {
        return Err(TextError::at(1, 0, "the text holds no puzzle"));
    }
    Ok(out)
}

/// The byte offset of the `n`-th character of `line` (its length past the end).
fn char_offset(line: &str, n: usize) -> usize {
    line.char_indices().nth(n).map_or(line.len(), |(i, _)| i)
}

/// The words of one line of a grid, checked to be `count`.
pub(crate) fn expect_words<'a, 't>(
    line: &'a [Token<'t>],
    count: usize,
    what: &str,
) -> Result<&'a [Token<'t>], TextError> {
    if line.len() != count {
        let first = &line[0];
        return Err(TextError::at(
            first.line,
            0,
            format!("{what} has {} words, expected {count}", line.len()),
        ));
    }
    Ok(line)
}

/// The model of a puzzle layout: every variable, the cells that make the answer, and the
/// variables that may hold clues.
#[derive(Debug)]
pub struct GenreModel {
    model: Model,
    cells: Vec<VarId>,
    clues: Vec<VarId>,
    generated: Vec<VarId>,
}

/// A puzzle solved, or tried: how many solutions (counted up to two) and the first one's cell
/// values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// The solutions found, at most two: 1 is a unique puzzle.
    pub solutions: u64,
    /// The first solution's cells, in the order of [`GenreModel::cells`].
    pub first: Option<Vec<i32>>,
    /// The limit that stopped the search before two solutions or the end, if any.
    pub stopped_by: Option<Limit>,
}

impl GenreModel {
    /// A layout's model: `cells` are the answer, `clues` the clue variables in the order of
    /// the genre's clues, `generated` those the generator may give (a subset of `clues`).
    pub fn new(model: Model, cells: Vec<VarId>, clues: Vec<VarId>, generated: Vec<VarId>) -> Self {
        GenreModel {
            model,
            cells,
            clues,
            generated,
        }
    }

    /// The model, with no clue fixed.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The variables of the answer, in the genre's order (row by row).
    pub fn cells(&self) -> &[VarId] {
        &self.cells
    }

    /// The clue variables, in the order of the genre's clues.
    pub fn clue_variables(&self) -> &[VarId] {
        &self.clues
    }

    /// The clue variables the generator gives values to (Skyscrapers: the edges, not the
    /// cells).
    pub fn generated_variables(&self) -> &[VarId] {
        &self.generated
    }

    /// The clues as `(variable, value)` pairs.
    pub fn fixed(&self, clues: &[Option<i32>]) -> Vec<(VarId, i32)> {
        self.clues
            .iter()
            .zip(clues)
            .filter_map(|(&var, value)| value.map(|v| (var, v)))
            .collect()
    }

    /// Solves the puzzle with these clues (one per clue variable), counting solutions up to two,
    /// within `limits` (the decision and time limits and the flag bound the one search).
    ///
    /// # Errors
    ///
    /// [`ModelError`] for a clue outside its variable's domain.
    pub fn solve(&self, clues: &[Option<i32>], limits: &Limits) -> Result<Solved, ModelError> {
        let mut solver = limits.apply_to(self.model.solver().with_decision_variables(&self.cells)?);
        solver.restart_with(self.fixed(clues))?;
        let mut solved = Solved {
            solutions: 0,
            first: None,
            stopped_by: None,
        };
        while solved.solutions < 2 {
            match solver.next_solution() {
                Outcome::Solved(solution) => {
                    if solved.first.is_none() {
                        solved.first = Some(solution.values_of(&self.cells));
                    }
                    solved.solutions += 1;
                }
                Outcome::Exhausted => break,
                Outcome::LimitReached(limit) => {
                    solved.stopped_by = Some(limit);
                    break;
                }
            }
        }
        Ok(solved)
    }

    /// A [`Generator`] of this layout's puzzles over its generated clue variables, branching on
    /// the cells ([`Generator::with_decision_variables`]), to configure
    /// (seed, limits, grade band, progress) and run; [`clues_of`](GenreModel::clues_of) turns
    /// its puzzle into the genre's clues.
    pub fn generator(&self) -> Generator<'_> {
        Generator::new(&self.model, &self.generated).with_decision_variables(&self.cells)
    }

    /// The clues of a generated puzzle, one per clue variable (`None` where it gives none).
    pub fn clues_of(&self, puzzle: &Puzzle) -> Vec<Option<i32>> {
        self.clues
            .iter()
            .map(|var| {
                puzzle
                    .clues
                    .iter()
                    .find(|(v, _)| v == var)
                    .map(|&(_, value)| value)
            })
            .collect()
    }
}

/// A puzzle genre: its layouts, text format, model and generation.
///
/// The puzzle value holds a layout and its clues; [`Genre::model`] gives the model of the
/// layout (no clue fixed), whose clue variables line up with [`Genre::clues`].
pub trait Genre: Sized {
    /// The genre's name, as the command line spells it (`futoshiki`).
    const NAME: &'static str;

    /// Reads a puzzle in the genre's text format.
    ///
    /// # Errors
    ///
    /// A [`TextError`] naming the line, column and value of the first mistake.
    fn parse(text: &str) -> Result<Self, TextError>;

    /// The puzzle in the genre's text format ([`Genre::parse`] reads it back).
    fn to_text(&self) -> String;

    /// The puzzle with its cells filled with `cells` (in the order of
    /// [`GenreModel::cells`]), in the same format.
    fn solution_text(&self, cells: &[i32]) -> String;

    /// The model of the puzzle's layout.
    ///
    /// # Errors
    ///
    /// [`ModelError`] passed on from the model's API.
    fn model(&self) -> Result<GenreModel, ModelError>;

    /// The clues, one per clue variable of [`Genre::model`].
    fn clues(&self) -> &[Option<i32>];

    /// The same layout with other clues.
    fn with_clues(&self, clues: Vec<Option<i32>>) -> Self;

    /// A layout of size `size` with no clues: the genre's structure (cages, runs) drawn from
    /// `seed`.
    ///
    /// # Errors
    ///
    /// A message naming the sizes the genre supports.
    fn layout(size: usize, seed: u64) -> Result<Self, String>;
}

/// A puzzle of genre `G` and size `size` with exactly one solution, and the generator's
/// [`Puzzle`] it came from (its grade, and whether it is [`minimal`](Puzzle::minimal) in its
/// generated clues: it is unless a uniqueness check reached its decision limit): a layout drawn from `seed`, then the [`Generator`]
/// (seeded too, and set up by `configure`: limits, grade band, progress). A layout that gives
/// no unique puzzle (a cage pattern whose sums cannot tell two grids apart) is drawn again, up
/// to `layouts` times. The same arguments give the same puzzle.
///
/// # Errors
///
/// [`GenerateError::NotFound`] with the reason if no layout gave a puzzle,
/// [`GenerateError::LimitReached`] if a limit of `configure` stopped it, and
/// [`GenerateError::NotFound`] naming the size if the genre has no layout of that size.
pub fn generate<G: Genre>(
    size: usize,
    seed: u64,
    layouts: u32,
    configure: impl Fn(Generator<'_>) -> Generator<'_>,
) -> Result<(G, Puzzle), GenerateError> {
    let mut last = None;
    for k in 0..layouts.max(1) {
        let layout =
            G::layout(size, mix(seed, u64::from(k))).map_err(|reason| GenerateError::NotFound {
                wanted: format!("of size {size}"),
                attempts: 0,
                reason,
            })?;
        let model = layout.model()?;
        let generator = configure(
            model
                .generator()
                .with_seed(mix(seed ^ 0xC1A5, u64::from(k))),
        );
        match generator.generate() {
            Ok(puzzle) => return Ok((layout.with_clues(model.clues_of(&puzzle)), puzzle)),
            Err(error @ (GenerateError::NotFound { .. } | GenerateError::NoSolution)) => {
                last = Some(error);
            }
            Err(error) => return Err(error),
        }
    }
    Err(last.unwrap_or(GenerateError::NoSolution))
}

/// The `n`-th number of the stream of `seed` (SplitMix64): the layouts' random draws.
pub(crate) fn mix(seed: u64, n: u64) -> u64 {
    let mut z = seed.wrapping_add(n.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A random stream for drawing layouts.
#[derive(Debug, Clone)]
pub(crate) struct Draw {
    seed: u64,
    n: u64,
}

impl Draw {
    /// The stream of `seed`.
    pub(crate) fn new(seed: u64) -> Draw {
        Draw { seed, n: 0 }
    }

    /// A number below `bound` (at least 1).
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        self.n += 1;
        (mix(self.seed, self.n) % bound.max(1) as u64) as usize
    }

    /// `items` shuffled.
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Cells of an `rows × cols` grid split into connected cages, each of a size drawn from
/// `sizes` (smaller when no neighbour is free), drawn from `draw`: the cage of each cell.
pub(crate) fn random_cages(
    rows: usize,
    cols: usize,
    sizes: &[usize],
    draw: &mut Draw,
) -> Vec<usize> {
    let mut cage = vec![usize::MAX; rows * cols];
    let mut order: Vec<usize> = (0..rows * cols).collect();
    draw.shuffle(&mut order);
    let mut next = 0;
    for &start in &order {
        if cage[start] != usize::MAX {
            continue;
        }
        let size = sizes[draw.below(sizes.len())];
        cage[start] = next;
        let mut members = vec![start];
        while members.len() < size {
            let mut free = Vec::new();
            for &m in &members {
                let (r, c) = (m / cols, m % cols);
                let around = [
                    (r > 0).then(|| m - cols),
                    (r + 1 < rows).then(|| m + cols),
                    (c > 0).then(|| m - 1),
                    (c + 1 < cols).then(|| m + 1),
                ];
                free.extend(
                    around
                        .into_iter()
                        .flatten()
                        .filter(|&k| cage[k] == usize::MAX),
                );
            }
            if free.is_empty() {
                break;
            }
            let pick = free[draw.below(free.len())];
            cage[pick] = next;
            members.push(pick);
        }
        next += 1;
    }
    cage
}

/// The label of cage `k` in a cage map: `A`–`Z`, then `a`–`z`, then `AA`, `AB`, …
pub(crate) fn cage_label(k: usize) -> String {
    const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    if k < LETTERS.len() {
        return char::from(LETTERS[k]).to_string();
    }
    let k = k - LETTERS.len();
    format!(
        "{}{}",
        char::from(LETTERS[(k / 26) % 26]),
        char::from(LETTERS[k % 26])
    )
}

/// A cage map read: the side, the cages (cells row by row), and each cage's clue word.
pub(crate) type CageText<'t> = (usize, Vec<Vec<usize>>, Vec<Token<'t>>);

/// A cage map and its cage lines, as KenKen and Killer Sudoku write them: `n` lines of `n`
/// labels (a cell's cage), then one line per cage, its label and its clue word. The cages (cells
/// row by row, in the order of their first cell) and each one's clue word.
pub(crate) fn parse_cages<'t>(
    lines: &[Vec<Token<'t>>],
    sides: std::ops::RangeInclusive<usize>,
) -> Result<CageText<'t>, TextError> {
    let n = lines[0].len();
    if !sides.contains(&n) {
        return Err(TextError::at(
            lines[0][0].line,
            0,
            format!(
                "the first line has {n} cages' labels: the side must be {} to {}",
                sides.start(),
                sides.end()
            ),
        ));
    }
    if lines.len() < n {
        let last = &lines[lines.len() - 1][0];
        return Err(TextError::at(
            last.line + 1,
            0,
            format!("the cage map has {} lines, expected {n}", lines.len()),
        ));
    }
    let mut labels: Vec<&str> = Vec::new();
    let mut cages: Vec<Vec<usize>> = Vec::new();
    for (r, line) in lines[..n].iter().enumerate() {
        expect_words(line, n, &format!("line {} of the cage map", r + 1))?;
        for (c, word) in line.iter().enumerate() {
            let k = match labels.iter().position(|&l| l == word.text) {
                Some(k) => k,
                None => {
                    labels.push(word.text);
                    cages.push(Vec::new());
                    labels.len() - 1
                }
            };
            cages[k].push(r * n + c);
        }
    }
    for (k, cells) in cages.iter().enumerate() {
        if !connected(cells, n) {
            let first = &lines[cells[0] / n][cells[0] % n];
            return Err(first.error(format!(
                "cage {:?} is not connected: its cells must touch side by side",
                labels[k]
            )));
        }
    }
    let mut clues: Vec<Option<Token<'t>>> = vec![None; cages.len()];
    for line in &lines[n..] {
        let label = &line[0];
        let Some(k) = labels.iter().position(|&l| l == label.text) else {
            return Err(label.error(format!("{:?} is no cage of the cage map", label.text)));
        };
        let line = expect_words(line, 2, "a cage line (label and clue)")?;
        if clues[k].is_some() {
            return Err(label.error(format!("cage {:?} has a second clue line", label.text)));
        }
        clues[k] = Some(line[1].clone());
    }
    let mut out = Vec::with_capacity(cages.len());
    for (k, clue) in clues.into_iter().enumerate() {
        match clue {
            Some(token) => out.push(token),
            None => {
                let last = lines.last().map_or(1, |l| l[0].line);
                return Err(TextError::at(
                    last,
                    0,
                    format!("cage {:?} has no clue line", labels[k]),
                ));
            }
        }
    }
    Ok((n, cages, out))
}

/// Whether `cells` of an `n × n` grid are connected side by side.
fn connected(cells: &[usize], n: usize) -> bool {
    let mut reached = vec![cells[0]];
    let mut k = 0;
    while k < reached.len() {
        let m = reached[k];
        for &other in cells {
            let near = (m / n == other / n && m.abs_diff(other) == 1) || m.abs_diff(other) == n;
            if near && !reached.contains(&other) {
                reached.push(other);
            }
        }
        k += 1;
    }
    reached.len() == cells.len()
}

/// The cage map of `cages` over an `n × n` grid, one line per row, labels padded to one width.
pub(crate) fn cage_map(n: usize, cages: &[Vec<usize>]) -> String {
    let mut label = vec![String::new(); n * n];
    for (k, cells) in cages.iter().enumerate() {
        for &cell in cells {
            label[cell] = cage_label(k);
        }
    }
    let width = label.iter().map(String::len).max().unwrap_or(1);
    let mut out = String::new();
    for r in 0..n {
        let row: Vec<String> = (0..n)
            .map(|c| format!("{:<width$}", label[r * n + c]))
            .collect();
        out.push_str(row.join(" ").trim_end());
        out.push('\n');
    }
    out
}

/// The cages of an `n × n` cage map given as each cell's cage, renumbered in the order of their
/// first cell.
pub(crate) fn cages_of(cage: &[usize]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = Vec::new();
    let mut cages: Vec<Vec<usize>> = Vec::new();
    for (cell, &k) in cage.iter().enumerate() {
        let index = match order.iter().position(|&o| o == k) {
            Some(i) => i,
            None => {
                order.push(k);
                cages.push(Vec::new());
                cages.len() - 1
            }
        };
        cages[index].push(cell);
    }
    cages
}
