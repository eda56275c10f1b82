//! Command-line arguments.

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use std::num::NonZeroUsize;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use cspkit::flatzinc::{AnnotatedOrder, AnnotatedValues};
use cspkit::models::sudoku::GridFormat;
use cspkit::teach::{TreeFormat, table};
use cspkit::{
    Activity, Ascending, Branching, ConstraintId, Counting, Descending, DomWdeg, DomainOverDegree,
    InputOrder, LeastConstraining, Literal, MiddleOut, Propagation, RandomValue, RestartPolicy,
    SearchConfig, SearchView, SmallestDomain, SmallestDomainRandomTies, ValueOrder, VarId,
    VariableOrder,
};

const EXAMPLES: &str = "\
Examples:
  cspkit                                          solve the built-in samples, show hints
  cspkit sudoku samples/sudoku/2239.txt           the lexicographically smallest solution
  cspkit sudoku --batch samples/sudoku/batch.txt  one puzzle per line in, one answer per line out
  cspkit queens 8 --count                         count the placements of 8 queens
  cspkit queens 13 --count --jobs 2               count on two threads
  cspkit fzn samples/minizinc/queens8.fzn         a FlatZinc model
  cspkit mzn model.mzn data.dzn                   a MiniZinc model (compiled by minizinc)
  cspkit serve --open                             the live page in the browser (once
                                                  `bash web/build.sh` has built it)
  cspkit help sudoku                              every option of a subcommand, with examples
(The files are in the repository's samples/ folder.)

Defaults (each option overrides its part; --stats prints the strategy used):
  entry point        propagation  variable order       value order    branching
  library (Model)    full         input                asc            assign
  cspkit sudoku      full         input                asc            assign
  cspkit queens      forward      input                asc            assign
  cspkit colour      full         input                asc            assign
  cspkit compare     all levels   all orders           all orders     assign
  cspkit fzn, mzn    full         annotations, then    annotations    assign
                                  start times (min),   (min)
                                  smallest domain
With input order and ascending values, the first solution is the lexicographically smallest.

Exit codes: 0 solved, 1 no solution, 2 malformed input or bad usage, 3 stopped by a limit.";

/// Solve Sudoku and N-Queens puzzles with the cspkit constraint-satisfaction engine.
#[derive(Debug, Parser)]
#[command(name = "cspkit", version, after_help = EXAMPLES)]
pub struct Cli {
    /// What to solve; without one, cspkit solves its built-in samples.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve a Sudoku (4x4 to 36x36): by default, print its lexicographically smallest solution.
    #[command(after_help = SUDOKU_HELP)]
    Sudoku(SudokuArgs),
    /// Place N queens on an N x N board so that none attacks another.
    #[command(after_help = QUEENS_HELP)]
    Queens(QueensArgs),
    /// Colour a graph (a map) so that neighbours differ: australia, or myciel3..myciel8.
    #[command(after_help = COLOUR_HELP)]
    Colour(ColourArgs),
    /// Run one puzzle with every combination of strategies and print a table of what each
    /// cost.
    #[command(after_help = COMPARE_HELP)]
    Compare(CompareArgs),
    /// Solve a FlatZinc model (what MiniZinc compiles a model into), and watch its search.
    #[command(after_help = fzn_help())]
    Fzn(FznArgs),
    /// Solve a MiniZinc model (compiled by the installed `minizinc`), and watch its search.
    #[command(after_help = MZN_HELP)]
    Mzn(MznArgs),
    /// Serve the live page (the search in the browser) on a local web server, or export it as
    /// a static site.
    #[command(after_help = SERVE_HELP)]
    Serve(ServeArgs),
    /// Solve a Futoshiki from its text, and say whether the solution is unique.
    Futoshiki(crate::genres::GenreArgs),
    /// Solve a KenKen from its text, and say whether the solution is unique.
    Kenken(crate::genres::GenreArgs),
    /// Solve a Kakuro from its text, and say whether the solution is unique.
    Kakuro(crate::genres::GenreArgs),
    /// Solve a Skyscrapers puzzle from its text, and say whether the solution is unique.
    Skyscrapers(crate::genres::GenreArgs),
    /// Solve a Killer Sudoku from its text, and say whether the solution is unique.
    Killer(crate::genres::GenreArgs),
    /// Make puzzles with one solution: Sudoku, Futoshiki, KenKen, Kakuro, Skyscrapers, Killer
    /// Sudoku.
    Generate(crate::genres::GenerateArgs),
}

const SERVE_HELP: &str = "\
The site is built by `bash web/build.sh` (in the cspkit repository; it needs node and npm)
into web/dist/. cspkit serves the first of: --site DIR; the folder named by the environment
variable CSPKIT_SITE; web/dist/ of the source tree cspkit was built from; cspkit-site/ beside
the cspkit program. Without an index.html there, it says where it looked and stops.

The first line printed is the page's address (http://127.0.0.1:7878/); Ctrl-C (or SIGTERM)
stops the server. It listens on loopback only, unless --bind names another address: then
every machine that can reach this one can read the site. GET and HEAD only; no folder
listings; nothing outside the site is served (`..`, links that lead out: 403).

Examples:
  cspkit serve --open                     serve the page, open it in the browser
  cspkit serve --port 0                   on a free port (the address says which)
  cspkit serve --site path/to/site -v     another copy of the site; log each request
  cspkit serve --export course-page       copy the site for any static web host

Exit codes: 0 stopped by Ctrl-C or SIGTERM, or exported; 2 no site, the port is taken, or
the export folder is refused.";

/// The port `cspkit serve` listens on unless told.
pub const DEFAULT_PORT: u16 = 7878;

/// Arguments of `cspkit serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one.
    #[arg(long, value_name = "PORT", default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on. Anything but loopback (127.0.0.1, ::1) makes the site
    /// visible to other machines.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Open the page in the default browser (a failure is only a warning).
    #[arg(long)]
    pub open: bool,
    /// The site's folder (the web build's output, with its index.html).
    #[arg(long, value_name = "DIR")]
    pub site: Option<PathBuf>,
    /// Copy the site into DIR (new or empty, not inside the site) instead of serving it, and
    /// list the files written.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["port", "bind", "open", "verbose"])]
    pub export: Option<PathBuf>,
    /// With --export: write into a folder that is not empty, replacing the files of the same
    /// names (others are left).
    #[arg(long, requires = "export")]
    pub force: bool,
    /// Log each request on standard error (method, path, status); quiet by default.
    #[arg(short, long)]
    pub verbose: bool,
}

const FZN_HELP: &str = "\
Solutions are printed in the FlatZinc output format: each output variable and array, then
`----------`; `==========` when the search is complete; `=====UNSATISFIABLE=====`;
`=====UNKNOWN=====` when a limit stops it before any solution. The trace, the tree and
--stats name the model's variables as it does: an output array's elements are q[1], x[2,3].

Without strategy options the search follows the model's search annotations (then smallest
domain first); --var-order and --value-order replace them.

Examples:
  cspkit fzn samples/minizinc/queens8.fzn
  cspkit fzn samples/minizinc/queens8.fzn --trace --trace-limit 20
  cspkit fzn samples/minizinc/queens8.fzn --tree q8.html --var-order mrv --stats
  cspkit fzn --install-msc      then: minizinc --solver cspkit model.mzn data.dzn

Exit codes: 0 solved, 1 no solution, 2 bad input or unsupported model, 3 stopped by a limit.";

const MZN_HELP: &str = "\
The model and its data are compiled by `minizinc` (Debian: apt-get install minizinc) with
cspkit's MiniZinc library, which keeps all-different, table, circuit and the other globals
cspkit propagates whole; cspkit then solves the FlatZinc. Variables MiniZinc introduces are
named after where they come from in the model: all_different@10[i=2] is the expression at
line 10, inside all_different, for i = 2.

Examples:
  cspkit mzn samples/minizinc/futoshiki.mzn samples/minizinc/futoshiki.dzn
  cspkit mzn samples/minizinc/futoshiki.mzn samples/minizinc/futoshiki.dzn --trace
  cspkit mzn samples/minizinc/queens.mzn samples/minizinc/queens.dzn --tree queens.html
  cspkit compare samples/minizinc/futoshiki.mzn samples/minizinc/futoshiki.dzn --var-order mrv

Exit codes: 0 solved, 1 no solution, 2 bad input, unsupported model or no `minizinc`,
3 stopped by a limit.";

/// The end of `cspkit fzn --help`: its notes, and the builtins cspkit reads.
fn fzn_help() -> String {
    format!(
        "{FZN_HELP}\n\nSupported FlatZinc builtins: {}",
        cspkit::flatzinc::SUPPORTED.join(", ")
    )
}

/// Arguments of `cspkit fzn`.
#[derive(Debug, Args)]
pub struct FznArgs {
    /// The FlatZinc model.
    #[arg(required_unless_present = "install_msc")]
    pub model: Option<PathBuf>,
    /// Write the solver configuration cspkit.msc and cspkit's MiniZinc library into DIR
    /// (default: ~/.minizinc/solvers), for `minizinc --solver cspkit`.
    #[arg(long, value_name = "DIR", num_args = 0..=1, exclusive = true)]
    pub install_msc: Option<Option<PathBuf>>,
    #[command(flatten)]
    pub run: ModelRunArgs,
}

/// Arguments of `cspkit mzn`.
#[derive(Debug, Args)]
pub struct MznArgs {
    /// The MiniZinc model.
    pub model: PathBuf,
    /// Its data files (.dzn or .json).
    pub data: Vec<PathBuf>,
    /// Print the solutions in the FlatZinc output format (its output variables, as
    /// `cspkit fzn`) instead of by the model's `output` item.
    #[arg(long)]
    pub fzn_output: bool,
    #[command(flatten)]
    pub run: ModelRunArgs,
}

/// How `cspkit fzn` and `cspkit mzn` solve a model: MiniZinc's standard flags, and cspkit's.
#[derive(Debug, Args)]
#[command(group = ArgGroup::new("model_listing").args(["count", "all"]).multiple(true))]
pub struct ModelRunArgs {
    /// Every solution; for an optimisation, each improving solution.
    #[arg(short = 'a', long = "all-solutions", visible_alias = "all")]
    pub all: bool,
    /// Print the number of solutions instead of the solutions (a satisfaction model), as the
    /// puzzles' --count.
    #[arg(long, conflicts_with_all = ["all", "solutions"])]
    pub count: bool,
    /// With --count or --all: stop after this many solutions (at least 1), as the puzzles'
    /// --limit.
    #[arg(
        long,
        value_name = "N",
        requires = "model_listing",
        conflicts_with = "solutions",
        allow_negative_numbers = true,
        value_parser = parse_solution_limit
    )]
    pub limit: Option<u64>,
    /// Stop after N solutions (for an optimisation: N improving solutions, each printed).
    #[arg(short = 'n', long = "num-solutions", value_name = "N", value_parser = parse_solution_limit)]
    pub solutions: Option<u64>,
    /// Print statistics as MiniZinc's %%%mzn-stat: lines.
    #[arg(short = 's', long = "statistics")]
    pub statistics: bool,
    /// A time limit in milliseconds (MiniZinc's flag; --time-limit takes seconds).
    #[arg(short = 't', value_name = "MS", value_parser = parse_count)]
    pub time_limit_ms: Option<u64>,
    /// Free search: ignore the model's search annotations (the start times of tasks by smallest
    /// minimum, then smallest domain first).
    #[arg(short = 'f', long = "free-search")]
    pub free: bool,
    /// The seed of the annotations' indomain_random.
    #[arg(short = 'r', long = "random-seed", value_name = "SEED", value_parser = parse_count)]
    pub random_seed: Option<u64>,
    /// Threads (accepted for MiniZinc; the search runs on one).
    #[arg(short = 'p', long = "parallel", value_name = "N", value_parser = parse_count)]
    pub parallel: Option<u64>,
    /// Print a solving path instead of solving: one deduction a line, each with the reason
    /// its constraint gives, in the model's names; a guess (the value of a solution) where
    /// propagation deduces nothing more.
    #[arg(long, conflicts_with_all = ["all", "count", "limit", "solutions", "local_search", "step", "trace", "tree"])]
    pub explain: bool,
    #[command(flatten)]
    pub strategy: StrategyArgs,
    #[command(flatten)]
    pub local: LocalArgs,
    #[command(flatten)]
    pub show: ShowArgs,
    #[command(flatten)]
    pub removal: crate::why_removed::WhyRemovedArgs,
}

const COLOUR_HELP: &str = "\
Graphs:
  australia  the states and territories of Australia (7 regions, 9 borders; 3 colours do)
  myciel3    the Mycielski graphs of the DIMACS benchmarks: 11, 23, 47, ... vertices,
  ...myciel8 triangle-free but needing 4, 5, 6, ... colours (myciel3: 4)

Examples:
  cspkit colour australia                 a colouring in 3 colours: WA=1 NT=2 ...
  cspkit colour australia --count         18
  cspkit colour myciel3 --colours 3 --stats   no colouring: the proof, in decisions
  cspkit compare colour myciel4 --colours 4 --count --var-order mrv,dom-deg,dom-wdeg

Exit codes: 0 solved, 1 no solution, 2 bad usage, 3 stopped by a limit.";

const COMPARE_HELP: &str = "\
Every combination of the lists given (all the orders and levels by default) is run on the
puzzle, each with the decision and time limits, and the table gives, per strategy:
decisions (left branches), tree_nodes (the root, decisions and refutations), failures,
nassigns (AIMA's count of assignments that passed the consistency check), propagations
(propagator runs), solutions, time (ms), and status (done, or the limit that stopped it).

Examples:
  cspkit compare queens 8 --count
  cspkit compare queens 8 --count --var-order input,mrv --value-order asc,lcv --format markdown
  cspkit compare queens 8 --count --branching dway --propagation none,fc,forward,mac
  cspkit compare sudoku samples/sudoku/2239.txt --propagation forward,full --format csv
  cspkit compare colour myciel4 --colours 4 --count --var-order mrv,dom-deg,dom-wdeg
  cspkit compare samples/minizinc/futoshiki.mzn samples/minizinc/futoshiki.dzn --var-order mrv
  cspkit compare samples/minizinc/queens.mzn samples/minizinc/queens.dzn --count

A model (.mzn, compiled by `minizinc`, or .fzn) is searched for a first solution, or all with
--count, with each strategy in place of its search annotations; an objective is not optimised.

Exit codes: 0 the table was printed, 2 bad usage or malformed input.";

/// Arguments of `cspkit colour`.
#[derive(Debug, Args)]
pub struct ColourArgs {
    /// The graph: australia, or myciel3 to myciel8.
    pub graph: String,
    /// The number of colours, 1 to 1000.
    #[arg(long, value_name = "K", default_value_t = 3, allow_negative_numbers = true, value_parser = clap::value_parser!(i32).range(1..=1000))]
    pub colours: i32,
    #[command(flatten)]
    pub mode: ModeArgs,
    #[command(flatten)]
    pub strategy: StrategyArgs,
    #[command(flatten)]
    pub local: LocalArgs,
    #[command(flatten)]
    pub show: ShowArgs,
}

/// The puzzles `cspkit compare` runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Puzzle {
    /// N-Queens: the argument is N.
    Queens,
    /// A Sudoku: the argument is the puzzle file.
    Sudoku,
    /// Graph colouring: the argument is the graph.
    Colour,
    /// A MiniZinc (`.mzn`, with its data files as the arguments) or FlatZinc (`.fzn`) model.
    Model(PathBuf),
}

impl std::fmt::Display for Puzzle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Puzzle::Queens => f.write_str("queens"),
            Puzzle::Sudoku => f.write_str("sudoku"),
            Puzzle::Colour => f.write_str("colour"),
            Puzzle::Model(path) => write!(f, "{}", path.display()),
        }
    }
}

/// The puzzle of `cspkit compare`: a built-in one by name, or a model file.
fn parse_puzzle(text: &str) -> Result<Puzzle, String> {
    match text {
        "queens" => Ok(Puzzle::Queens),
        "sudoku" => Ok(Puzzle::Sudoku),
        "colour" => Ok(Puzzle::Colour),
        _ if text.ends_with(".mzn") || text.ends_with(".fzn") => {
            Ok(Puzzle::Model(PathBuf::from(text)))
        }
        _ => Err(format!(
            "{text:?}: give queens, sudoku, colour, or a model file (.mzn or .fzn)"
        )),
    }
}

/// Arguments of `cspkit compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The puzzle: queens, sudoku, colour, or a model file (.mzn or .fzn).
    #[arg(value_parser = parse_puzzle)]
    pub puzzle: Puzzle,
    /// N for queens, the puzzle file for sudoku, the graph for colour, the data files of a
    /// MiniZinc model.
    pub target: Vec<String>,
    /// Count the solutions (--all counts them too); without, search for the first.
    #[arg(long)]
    pub count: bool,
    /// The same as --count.
    #[arg(long)]
    pub all: bool,
    /// Variable orders, comma-separated [default: all].
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub var_order: Vec<VarOrder>,
    /// Value orders, comma-separated [default: all].
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub value_order: Vec<ValOrder>,
    /// Propagation levels, comma-separated [default: none,fc,forward,full].
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = propagation_parser())]
    pub propagation: Vec<Propagation>,
    /// Branchings, comma-separated [default: assign].
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub branching: Vec<BranchingArg>,
    /// Which variables a decision assigns, in every run [default: aima with fc, and with ac3
    /// and dway; cspkit otherwise; fc always assigns every variable].
    #[arg(long, value_name = "CONVENTION")]
    pub count_as: Option<CountAs>,
    /// The seed of the random orders [default: 0].
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub seed: Option<u64>,
    /// The queens model (queens only).
    #[arg(long, value_name = "MODEL", default_value = "alldiff")]
    pub model: QueensModel,
    /// The number of colours (colour only), 1 to 1000.
    #[arg(long, value_name = "K", default_value_t = 3, allow_negative_numbers = true, value_parser = clap::value_parser!(i32).range(1..=1000))]
    pub colours: i32,
    /// Stop each run after this many decisions.
    #[arg(long, visible_alias = "node-limit", value_name = "N", default_value_t = 1_000_000, value_parser = parse_count)]
    pub decision_limit: u64,
    /// Stop each run after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value = "2", value_parser = parse_seconds)]
    pub time_limit: Duration,
    /// How to print the table.
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub format: TableFormat,
    /// Also write the runs' search trees side by side, on one scale, to FILE (.html), the
    /// first node where they part marked (at most 4 runs: narrow the lists).
    #[arg(long, value_name = "FILE")]
    pub tree: Option<PathBuf>,
    /// The most nodes each run's tree records; the searches themselves run to their end.
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_TREE_LIMIT,
        allow_negative_numbers = true,
        value_parser = parse_count
    )]
    pub tree_limit: u64,
    /// Conflict-directed backjumping in the runs: on, off, or off,on for both [default: off;
    /// --backjump alone: on]. The table then names each run's setting and counts its backjumps
    /// and the levels they skipped.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        num_args = 0..=1,
        default_missing_value = "on"
    )]
    pub backjump: Vec<Switch>,
}

/// A setting of `compare`'s `--backjump` list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    /// Without the option.
    Off,
    /// With it.
    On,
}

/// The N-Queens models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum QueensModel {
    /// Three all-different constraints (columns and both diagonals).
    Alldiff,
    /// One `≠` per pair of rows and kind of attack (the textbooks' binary model).
    Binary,
    /// One constraint for the whole board, its taken columns and diagonals kept in words.
    Board,
}

const SUDOKU_HELP: &str = "\
Input formats (detected automatically; 0 or . is an empty cell):
  compact  N lines of N digits          103000509 (9 lines)
  spaced   N lines of N numbers         1 0 3 0 0 0 5 0 9 (9 lines)
  line     the whole grid on one line   1.3...5.9..21.94.. (81 characters)
Grids above 9x9 use the letters A-P for 10-25 in the compact and line formats; 36x36 grids
take the spaced format. CRLF or CR line endings and trailing blanks are fine.

With --batch, each output line is a solution in the line format, a count with --count, or
a marker: 'no solution', 'stopped: <limit>', 'malformed: line L, column C: <reason>'.

With --jobs N, --count and --all search on N threads (same answers, in the same order), and
--batch solves N puzzles at a time (output still in input order).

Examples:
  cspkit sudoku samples/sudoku/2239.txt
  cspkit sudoku --count --limit 2 samples/sudoku/multi.txt   is the solution unique? (2: no)
  cspkit sudoku --var-order mrv --stats < samples/sudoku/hard.txt
  cspkit sudoku --batch --time-limit 0.5 samples/sudoku/batch.txt > solutions.txt
  cspkit sudoku --batch --jobs 2 samples/sudoku/batch.txt    two puzzles at a time
  cspkit sudoku --var-order mrv-random --value-order random --restarts luby samples/sudoku/16x16.txt
  cspkit sudoku --state --hint samples/sudoku/state.txt      the next step from a player's marks
(The samples are in the repository's samples/ folder.)

Exit codes: 0 solved, 1 no solution, 2 malformed input or bad usage (the message names the
line and column), 3 stopped by a limit.
With --batch: 2 if a line was malformed, else 3 if a search was stopped, else 1 if a puzzle
had no solution, else 0.";

const QUEENS_HELP: &str = "\
Examples:
  cspkit queens 8                 the first placement: a board and its columns (from 1)
  cspkit queens 12 --count        14200
  cspkit queens 15 --count --jobs 2
  cspkit queens 6 --all --limit 2
  cspkit queens 200 --var-order mrv --value-order middle
  cspkit queens 1000 --var-order mrv-random --value-order middle --restarts luby --seed 7
  cspkit queens 1000000 --local-search min-conflicts --seed 1 --stats > columns.txt
  cspkit queens 8 --local-search min-conflicts --trace

Smallest domain first (mrv) with the middle columns first places 1000 queens in a fraction of
a second, but some sizes take far longer (n = 120: thousands of failures); with random
tie-breaking (mrv-random) and restarts, every size up to 1000 takes well under a second.

--local-search min-conflicts (AIMA's MIN-CONFLICTS) repairs a complete placement instead: a
million queens in about 50 steps and a few seconds, in memory that grows as N (about 400 bytes
a queen). The tree search takes up to 10000 queens (its domains take N² bits); local search up
to 4000000 (under 2 GB), with the alldiff model. The board is drawn up to 10000 queens, the columns always.

Exit codes: 0 solved, 1 no solution, 2 bad usage, 3 stopped by a limit, or not found by
--local-search (which never proves that there is no solution).";

/// Arguments of `cspkit sudoku`.
#[derive(Debug, Args)]
pub struct SudokuArgs {
    /// The puzzle file; standard input if absent or `-`.
    pub file: Option<PathBuf>,
    /// Solve one puzzle per line (line format); print one solution (or a marker) per line.
    #[arg(long)]
    pub batch: bool,
    /// The input format, instead of detecting it.
    #[arg(long, value_name = "FORMAT")]
    pub input_format: Option<Format>,
    /// The output format; by default, the input's.
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<Format>,
    #[command(flatten)]
    pub mode: ModeArgs,
    #[command(flatten)]
    pub strategy: StrategyArgs,
    #[command(flatten)]
    pub local: LocalArgs,
    #[command(flatten)]
    pub show: ShowArgs,
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    #[command(flatten)]
    pub removal: crate::why_removed::WhyRemovedArgs,
}

/// Making and explaining puzzles (`cspkit sudoku --generate`, `--grade`, `--explain`,
/// `--hint`, `--why`).
#[derive(Debug, Args)]
#[command(group = ArgGroup::new("puzzle_task").args(["generate", "grade", "explain", "hint", "why"]))]
pub struct PuzzleArgs {
    /// Make puzzles with exactly one solution instead of solving one (no FILE; --count M makes
    /// M, one a line).
    #[arg(long)]
    pub generate: bool,
    /// With --generate: the grid's side, 4, 9, 16 or 25 [default: 9].
    #[arg(long, value_name = "N", requires = "generate", value_parser = parse_side)]
    pub size: Option<usize>,
    /// With --generate: stop removing clues at K (puzzles that stay above are redrawn).
    #[arg(long, value_name = "K", requires = "generate", value_parser = parse_count)]
    pub clues: Option<u64>,
    /// With --generate: easy (naked singles: forward checking solves it), medium (hidden
    /// singles and pairs, triples...: full propagation solves it, forward checking does not),
    /// hard (propagation alone does not solve it).
    #[arg(long, value_name = "LEVEL", requires = "generate")]
    pub difficulty: Option<DifficultyArg>,
    /// With --generate: clues symmetric under a half turn of the grid.
    #[arg(long, requires = "generate")]
    pub symmetric: bool,
    /// Grade the puzzle: the weakest reasoning that solves it and its hardest technique.
    #[arg(long)]
    pub grade: bool,
    /// Print a solving path, one deduction a line, each with its reason.
    #[arg(long)]
    pub explain: bool,
    /// Print the next deduction only.
    #[arg(long)]
    pub hint: bool,
    /// For a puzzle without solution: a minimal set of givens that already has none, and why.
    #[arg(long)]
    pub why: bool,
    /// With --hint or --explain: FILE is a player's state (givens, +entries, [pencil marks],
    /// or sukaku's 729 candidate characters); the hint is the easiest next step by human
    /// techniques on those marks, and wrong entries or marks are named.
    #[arg(long)]
    pub state: bool,
    /// With --grade, or --state with --hint or --explain: the human techniques may also use
    /// uniqueness (unique rectangles, BUG+1), on a puzzle proved to have one solution.
    #[arg(long, requires = "puzzle_task")]
    pub uniqueness: bool,
}

impl PuzzleArgs {
    /// Whether a puzzle task replaces solving.
    pub fn any(&self) -> bool {
        self.generate || self.grade || self.explain || self.hint || self.why
    }
}

/// A difficulty asked of `--generate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DifficultyArg {
    /// Forward checking (naked singles) solves it.
    Easy,
    /// Full propagation solves it; forward checking does not.
    Medium,
    /// Propagation alone does not solve it.
    Hard,
}

/// A Sudoku side for `--generate --size`: 4, 9, 16 or 25.
fn parse_side(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(side @ (4 | 9 | 16 | 25)) => Ok(side),
        _ => Err(format!(
            "{text:?} is not a generated grid's side: 4, 9, 16 or 25"
        )),
    }
}

/// The largest board `cspkit queens` searches by backtracking. The search's domains take N²
/// bits and a decision costs about N² operations, so larger boards take hundreds of megabytes,
/// and the few dozen decisions between two readings of the clock outlast a short time limit
/// many times over.
pub const MAX_QUEENS: u32 = 10_000;

/// The largest board `cspkit queens` accepts with `--local-search`: memory grows as N (about
/// 400 bytes a queen), not N².
pub const MAX_LOCAL_QUEENS: u32 = 4_000_000;

/// Arguments of `cspkit queens`.
#[derive(Debug, Args)]
pub struct QueensArgs {
    /// The number of queens (and the size of the board), 1 to 10000; up to 4000000 with
    /// --local-search (the alldiff model; the board is drawn up to 10000, the columns always).
    #[arg(
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_LOCAL_QUEENS))
    )]
    pub n: u32,
    /// The model: three all-different constraints, or pairwise `≠` constraints.
    #[arg(long, value_name = "MODEL", default_value = "alldiff")]
    pub model: QueensModel,
    #[command(flatten)]
    pub mode: ModeArgs,
    #[command(flatten)]
    pub strategy: StrategyArgs,
    #[command(flatten)]
    pub local: LocalArgs,
    #[command(flatten)]
    pub show: ShowArgs,
}

/// What to compute: the first solution (the default), a count, or all solutions.
#[derive(Debug, Args)]
#[command(group = ArgGroup::new("listing").args(["count", "all"]))]
pub struct ModeArgs {
    /// Print the number of solutions instead of a solution.
    #[arg(long, conflicts_with = "all")]
    pub count: bool,
    /// Print every solution.
    #[arg(long)]
    pub all: bool,
    /// With --count or --all: stop after this many solutions (at least 1).
    #[arg(
        long,
        value_name = "N",
        requires = "listing",
        allow_negative_numbers = true,
        value_parser = parse_solution_limit
    )]
    pub limit: Option<u64>,
}

/// How to search.
#[derive(Debug, Args)]
pub struct StrategyArgs {
    /// Which variable to branch on next [default: input; fzn and mzn: the model's search
    /// annotations].
    #[arg(long, value_name = "ORDER")]
    pub var_order: Option<VarOrder>,
    /// Which value to try first [default: asc; fzn and mzn: the model's search annotations].
    #[arg(long, value_name = "ORDER")]
    pub value_order: Option<ValOrder>,
    /// The seed of the random orders (mrv-random, random) and of --local-search [default: 0].
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = parse_count
    )]
    pub seed: Option<u64>,
    /// Restart the search for a first solution after a budget of failures that grows run after
    /// run, with new random choices (needs a random order).
    #[arg(long, value_name = "SEQUENCE")]
    pub restarts: Option<Restarts>,
    /// The failures of the first run with --restarts [default: 100].
    #[arg(
        long,
        value_name = "N",
        requires = "restarts",
        allow_negative_numbers = true,
        value_parser = parse_restart_base
    )]
    pub restart_base: Option<u64>,
    /// How hard constraints prune [default: forward for queens, full otherwise].
    #[arg(long, value_name = "LEVEL", value_parser = propagation_parser())]
    pub propagation: Option<Propagation>,
    /// How a node is split: x = v then x ≠ v (assign), or x ≤ v then x > v (split, with
    /// --value-order middle for bisection).
    #[arg(long, value_name = "KIND", default_value = "assign")]
    pub branching: BranchingArg,
    /// Conflict-directed backjumping: a failure goes back to the deepest decision it rests on
    /// (its conflict set), not to the last one; --trace prints each conflict set and jump.
    /// Not with --propagation ac3; on a model with a variable of more than 16384 values between
    /// its bounds the search backtracks chronologically.
    #[arg(long)]
    pub backjump: bool,
    /// Learning from failures (lazy clause generation): each failure is analysed (first UIP)
    /// into a nogood the search keeps and propagates, and the search jumps back to where
    /// the nogood first says something new; --trace prints each nogood, --stats counts them.
    /// Implies --backjump, with its limits; with --branching dway or --propagation fc the
    /// search backjumps without learning.
    #[arg(long)]
    pub learn: bool,
    /// Which variables a decision assigns, and so what decisions, nassigns and arc revisions
    /// count [default: aima with fc, and with ac3 and --branching dway; cspkit otherwise].
    #[arg(long, value_name = "CONVENTION")]
    pub count_as: Option<CountAs>,
    /// Threads for --count, --all and --batch, 1 to 256.
    #[arg(
        long,
        value_name = "N",
        default_value = "1",
        allow_negative_numbers = true,
        value_parser = parse_jobs
    )]
    pub jobs: NonZeroUsize,
    /// Stop the search after this many decisions (per puzzle with --batch).
    #[arg(
        long,
        visible_alias = "node-limit",
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = parse_count
    )]
    pub decision_limit: Option<u64>,
    /// Stop the search after this many seconds, such as 0.5 (per puzzle with --batch).
    #[arg(
        long,
        value_name = "SECONDS",
        allow_hyphen_values = true,
        value_parser = parse_seconds
    )]
    pub time_limit: Option<Duration>,
    /// Print the strategy used and the search's counts (decisions, tree nodes, failures,
    /// nassigns, ...) on standard error: lines of text, or one row of a strategy table with
    /// --stats=json|csv|markdown.
    #[arg(
        long,
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "text"
    )]
    pub stats: Option<TableFormat>,
}

/// Local search instead of the tree search.
#[derive(Debug, Args, Default)]
pub struct LocalArgs {
    /// Search by local search instead of backtracking: min-conflicts (AIMA) repairs a complete
    /// assignment, one variable in conflict at a time. Incomplete: when it finds nothing (exit
    /// 3), a solution may still exist. Takes --seed, --time-limit, --stats and --trace.
    #[arg(long, value_name = "METHOD")]
    pub local_search: Option<LocalSearch>,
    /// With --local-search: the most steps, all restarts together [default: 1000000].
    #[arg(
        long,
        value_name = "N",
        requires = "local_search",
        allow_negative_numbers = true,
        value_parser = parse_count
    )]
    pub max_steps: Option<u64>,
    /// With --local-search: start again from a new assignment after N steps without fewer
    /// conflicts than the run's best [default: 10 per variable, at least 1000].
    #[arg(
        long,
        value_name = "N",
        requires = "local_search",
        allow_negative_numbers = true,
        value_parser = parse_restart_base
    )]
    pub restart_after: Option<u64>,
    /// The seed (the subcommand's --seed), set by [`LocalArgs::with_strategy`].
    #[arg(skip)]
    pub seed: Option<u64>,
    /// The time limit (the subcommand's --time-limit), set by [`LocalArgs::with_strategy`].
    #[arg(skip)]
    pub time_limit: Option<Duration>,
    /// The statistics format (the subcommand's --stats), set by [`LocalArgs::with_strategy`].
    #[arg(skip)]
    pub stats: Option<TableFormat>,
}

/// The local search methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LocalSearch {
    /// AIMA's MIN-CONFLICTS: a variable in conflict at random, given a value with the fewest
    /// conflicts.
    MinConflicts,
}

impl LocalArgs {
    /// These options with the seed, time limit and statistics format of `strategy`.
    pub fn with_strategy(&self, strategy: &StrategyArgs) -> LocalArgs {
        LocalArgs {
            local_search: self.local_search,
            max_steps: self.max_steps,
            restart_after: self.restart_after,
            seed: strategy.seed,
            time_limit: strategy.time_limit,
            stats: strategy.stats,
        }
    }

    /// Why the tree search's options `mode`, `strategy` and `show` make no sense with local
    /// search, if one does not.
    pub fn conflict(
        mode: &ModeArgs,
        strategy: &StrategyArgs,
        show: &ShowArgs,
    ) -> Option<&'static str> {
        Some(if mode.count || mode.all {
            "--local-search finds one solution: it cannot count or list them (--count, --all)"
        } else if show.tree.is_some() {
            "--local-search makes no search tree: it cannot be combined with --tree"
        } else if show.step {
            "--local-search cannot be combined with --step (--trace shows each step)"
        } else if show.trace_domains {
            "--local-search has no domains to trace: use --trace alone"
        } else if strategy.jobs.get() > 1 {
            "--local-search runs on one thread: it cannot be combined with --jobs"
        } else if strategy.restarts.is_some() {
            "--local-search restarts by itself (--restart-after): it cannot be combined with \
             --restarts"
        } else if strategy.decision_limit.is_some() {
            "--local-search makes no decisions: use --max-steps instead of --decision-limit"
        } else {
            return None;
        })
    }
}

/// How to write statistics and strategy tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// Aligned text (for --stats: one line, as without a format).
    Text,
    /// Comma-separated values.
    Csv,
    /// JSON.
    Json,
    /// A Markdown table.
    Markdown,
}

impl From<TableFormat> for table::Format {
    fn from(format: TableFormat) -> table::Format {
        match format {
            TableFormat::Text => table::Format::Text,
            TableFormat::Csv => table::Format::Csv,
            TableFormat::Json => table::Format::Json,
            TableFormat::Markdown => table::Format::Markdown,
        }
    }
}

/// The command-line name of a value of an option.
pub fn name_of(value: impl ValueEnum) -> String {
    value
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_owned())
}

/// What a puzzle does where no option says otherwise, by the names of the strategy tables.
#[derive(Debug, Clone, Copy)]
pub struct Defaults {
    /// The propagation level.
    pub level: &'static str,
    /// The variable order.
    pub var_order: &'static str,
    /// The value order.
    pub value_order: &'static str,
}

impl Defaults {
    /// Input order and ascending values, at `level`.
    pub const fn at(level: &'static str) -> Defaults {
        Defaults {
            level,
            var_order: "input",
            value_order: "asc",
        }
    }
}

/// The failures of the first run of a search with restarts.
pub const DEFAULT_RESTART_BASE: u64 = 100;

/// The growth factor of `--restarts geometric`.
pub const GEOMETRIC_FACTOR: f64 = 1.5;

/// The most threads `--jobs` accepts.
pub const MAX_JOBS: usize = 256;

impl StrategyArgs {
    /// The strategy as a table row names it: variable order, value order, propagation,
    /// branching; `defaults` names what the puzzle does where no option was given.
    pub fn names(&self, defaults: &Defaults) -> [String; 4] {
        [
            self.var_order
                .map_or_else(|| defaults.var_order.to_owned(), name_of),
            self.value_order
                .map_or_else(|| defaults.value_order.to_owned(), name_of),
            self.propagation
                .map_or(defaults.level, Propagation::name)
                .to_owned(),
            name_of(self.branching),
        ]
    }

    /// The variable order asked for (input order if none was).
    pub fn variable_order(&self) -> ChosenVariableOrder {
        self.var_order
            .unwrap_or(VarOrder::Input)
            .build(self.seed.unwrap_or_default())
    }

    /// The value order asked for (ascending if none was).
    pub fn value_order(&self) -> ChosenValueOrder {
        self.value_order
            .unwrap_or(ValOrder::Asc)
            .build(self.seed.unwrap_or_default())
    }

    /// The search options asked for (all but the orders), at the `default` propagation where
    /// none was asked for.
    pub fn config(&self, default: impl Into<Propagation>) -> SearchConfig {
        let mut config = SearchConfig::new()
            .with_propagation(self.propagation.unwrap_or(default.into()))
            .with_branching(self.branching.into())
            .with_backjumping(self.backjump)
            .with_learning(self.learn);
        if let Some(count_as) = self.count_as {
            config = config.with_counting(count_as.into());
        }
        if let Some(policy) = self.restart_policy() {
            config = config.with_restarts(policy);
        }
        if let Some(decisions) = self.decision_limit {
            config = config.with_decision_limit(decisions);
        }
        if let Some(time) = self.time_limit {
            config = config.with_time_limit(time);
        }
        config
    }

    /// The restart policy asked for, if any.
    pub fn restart_policy(&self) -> Option<RestartPolicy> {
        let base = self.restart_base.unwrap_or(DEFAULT_RESTART_BASE);
        self.restarts.map(|restarts| match restarts {
            Restarts::Luby => RestartPolicy::luby(base),
            Restarts::Geometric => RestartPolicy::geometric(base, GEOMETRIC_FACTOR),
        })
    }

    /// Whether one of the orders is random.
    pub fn is_random(&self) -> bool {
        matches!(self.var_order, Some(VarOrder::MrvRandom))
            || matches!(self.value_order, Some(ValOrder::Random))
    }

    /// Why these options make no sense together, if they do not; `listing` is whether the
    /// search counts or lists solutions, `batch` whether it solves a file of puzzles.
    pub fn conflict(&self, listing: bool, batch: bool) -> Option<&'static str> {
        if self.count_as == Some(CountAs::Cspkit)
            && self.propagation == Some(Propagation::TextbookForward)
        {
            return Some(
                "--propagation fc assigns every variable by a decision (it propagates from \
                 decisions only): it cannot be combined with --count-as cspkit; --propagation \
                 forward is forward checking that treats a fixed variable as assigned",
            );
        }
        if self.backjump && self.propagation == Some(Propagation::Ac3) {
            return Some(
                "--backjump follows the reasons of the constraints' own propagation: it cannot \
                 be combined with --propagation ac3 (use fc, forward or full)",
            );
        }
        if self.learn && self.propagation == Some(Propagation::Ac3) {
            return Some(
                "--learn follows the reasons of the constraints' own propagation: it cannot \
                 be combined with --propagation ac3 (use forward or full)",
            );
        }
        if self.restarts.is_some() && listing {
            return Some(
                "--restarts is for a first solution: it cannot be combined with --count or --all",
            );
        }
        if self.restarts.is_some() && !self.is_random() {
            return Some(
                "--restarts needs a random order (--var-order mrv-random or --value-order \
                 random): with fixed orders every run would search the same tree",
            );
        }
        if self.seed.is_some() && !self.is_random() {
            return Some(
                "--seed needs a random order (--var-order mrv-random or --value-order random)",
            );
        }
        if self.jobs.get() > 1 && !listing && !batch {
            return Some(
                "--jobs shares out --count, --all or --batch; a first solution is searched \
                 on one thread",
            );
        }
        None
    }
}

/// A whole number, 0 or more.
fn parse_count(text: &str) -> Result<u64, String> {
    parse_at_least(text, 0)
}

/// A restart base: a whole number of failures, 1 or more.
fn parse_restart_base(text: &str) -> Result<u64, String> {
    parse_at_least(text, 1)
}

/// A number of threads, 1 to [`MAX_JOBS`].
fn parse_jobs(text: &str) -> Result<NonZeroUsize, String> {
    let too_many = || format!("{text} threads is too many (at most {MAX_JOBS})");
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && text.parse::<u64>().is_err()
    {
        return Err(too_many());
    }
    let jobs = parse_at_least(text, 1)?;
    usize::try_from(jobs)
        .ok()
        .filter(|&jobs| jobs <= MAX_JOBS)
        .and_then(NonZeroUsize::new)
        .ok_or_else(too_many)
}

/// A solution limit: a whole number, 1 or more (0 would stop before the first solution).
fn parse_solution_limit(text: &str) -> Result<u64, String> {
    parse_at_least(text, 1)
}

fn parse_at_least(text: &str, min: u64) -> Result<u64, String> {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u64>() {
        Ok(count) if count >= min => Ok(count),
        Ok(_) => Err(format!("give {min} or more")),
        Err(_) if text.strip_prefix('-').is_some_and(digits) => {
            Err(format!("{text} is negative; give {min} or more"))
        }
        Err(_) if digits(text) => Err(format!("{text} is too large (at most {})", u64::MAX)),
        Err(_) => Err(format!("{text:?} is not a whole number")),
    }
}

/// A time limit in seconds: a finite decimal number, 0 or more, that a [`Duration`] can hold.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = match text.parse() {
        Ok(seconds) if !f64::is_nan(seconds) => seconds,
        _ => return Err(format!("{text:?} is not a number of seconds")),
    };
    if seconds < 0.0 {
        return Err(format!(
            "{text} is negative; a time limit is 0 seconds or more"
        ));
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| {
        format!(
            "{text} seconds is too long (at most {} seconds; leave out --time-limit for no limit)",
            Duration::MAX.as_secs()
        )
    })
}

/// A grid format on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    /// N lines of N digits.
    Compact,
    /// N lines of N numbers separated by blanks.
    Spaced,
    /// The whole grid on one line.
    Line,
}

impl From<Format> for GridFormat {
    fn from(format: Format) -> GridFormat {
        match format {
            Format::Compact => GridFormat::Compact,
            Format::Spaced => GridFormat::Spaced,
            Format::Line => GridFormat::Line,
        }
    }
}

/// A variable order on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum VarOrder {
    /// Declaration order (row by row for Sudoku).
    Input,
    /// Smallest domain first (MRV, first-fail).
    Mrv,
    /// Smallest domain first, ties broken at random (see --seed).
    MrvRandom,
    /// Smallest domain size over degree.
    DomDeg,
    /// Smallest domain size over weighted degree, the weights learnt from failures.
    DomWdeg,
    /// The variables of recent conflicts first (VSIDS): of the learned nogoods with --learn,
    /// else of the constraints that fail.
    Activity,
}

impl VarOrder {
    /// The order, its random choices drawn from `seed`.
    pub fn build(self, seed: u64) -> ChosenVariableOrder {
        match self {
            VarOrder::Input => ChosenVariableOrder::Input(InputOrder),
            VarOrder::Mrv => ChosenVariableOrder::Mrv(SmallestDomain),
            VarOrder::MrvRandom => {
                ChosenVariableOrder::MrvRandom(SmallestDomainRandomTies::new(seed))
            }
            VarOrder::DomDeg => ChosenVariableOrder::DomDeg(DomainOverDegree),
            VarOrder::DomWdeg => ChosenVariableOrder::DomWdeg(DomWdeg::new()),
            VarOrder::Activity => ChosenVariableOrder::Activity(Activity::new()),
        }
    }
}

impl ValOrder {
    /// The order, its random choices drawn from `seed`.
    pub fn build(self, seed: u64) -> ChosenValueOrder {
        match self {
            ValOrder::Asc => ChosenValueOrder::Asc(Ascending),
            ValOrder::Desc => ChosenValueOrder::Desc(Descending),
            ValOrder::Middle => ChosenValueOrder::Middle(MiddleOut),
            ValOrder::Random => ChosenValueOrder::Random(RandomValue::new(seed)),
            ValOrder::Lcv => ChosenValueOrder::Lcv(LeastConstraining::new()),
        }
    }
}

/// A value order on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ValOrder {
    /// Smallest value first.
    Asc,
    /// Largest value first.
    Desc,
    /// The values nearest the middle of the domain first.
    Middle,
    /// A random order (see --seed).
    Random,
    /// The least constraining value first (fewest values ruled out for the neighbours).
    Lcv,
}

/// A branching on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum BranchingArg {
    /// x = v, then x ≠ v.
    Assign,
    /// x ≤ v, then x > v (domain splitting).
    Split,
    /// One child per value, as textbooks draw the tree.
    Dway,
}

impl From<BranchingArg> for Branching {
    fn from(branching: BranchingArg) -> Branching {
        match branching {
            BranchingArg::Assign => Branching::Assign,
            BranchingArg::Split => Branching::Split,
            BranchingArg::Dway => Branching::DWay,
        }
    }
}

/// A counting convention on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CountAs {
    /// Every variable is assigned by a decision, even one propagation fixed (AIMA's
    /// BACKTRACKING-SEARCH)
    Aima,
    /// A variable propagation fixed is never branched on
    Cspkit,
}

impl From<CountAs> for Counting {
    fn from(count_as: CountAs) -> Counting {
        match count_as {
            CountAs::Aima => Counting::Aima,
            CountAs::Cspkit => Counting::Cspkit,
        }
    }
}

/// A restart sequence on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Restarts {
    /// The Luby sequence: 1, 1, 2, 1, 1, 2, 4, ... times the base.
    Luby,
    /// The base, then 1.5 times more at each run.
    Geometric,
}

/// The variable order of the command line: one of the library's, chosen at run time. An enum
/// rather than a boxed trait object, so that it can be copied to the threads of --jobs.
#[derive(Debug, Clone)]
pub enum ChosenVariableOrder {
    Input(InputOrder),
    Mrv(SmallestDomain),
    MrvRandom(SmallestDomainRandomTies),
    DomDeg(DomainOverDegree),
    DomWdeg(DomWdeg),
    Activity(Activity),
    /// A FlatZinc model's search annotations.
    Annotations(AnnotatedOrder),
}

impl VariableOrder for ChosenVariableOrder {
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        match self {
            ChosenVariableOrder::Input(order) => order.select_variable(view),
            ChosenVariableOrder::Mrv(order) => order.select_variable(view),
            ChosenVariableOrder::MrvRandom(order) => order.select_variable(view),
            ChosenVariableOrder::DomDeg(order) => order.select_variable(view),
            ChosenVariableOrder::DomWdeg(order) => order.select_variable(view),
            ChosenVariableOrder::Activity(order) => order.select_variable(view),
            ChosenVariableOrder::Annotations(order) => order.select_variable(view),
        }
    }

    fn start_run(&mut self, run: u32) {
        match self {
            ChosenVariableOrder::MrvRandom(order) => order.start_run(run),
            ChosenVariableOrder::Annotations(order) => order.start_run(run),
            _ => {}
        }
    }

    fn failure(&mut self, constraint: Option<ConstraintId>) {
        match self {
            ChosenVariableOrder::DomWdeg(order) => order.failure(constraint),
            ChosenVariableOrder::Activity(order) => order.failure(constraint),
            ChosenVariableOrder::Annotations(order) => order.failure(constraint),
            _ => {}
        }
    }

    fn learned(&mut self, nogood: &[Literal]) {
        match self {
            ChosenVariableOrder::Activity(order) => order.learned(nogood),
            ChosenVariableOrder::Annotations(order) => order.learned(nogood),
            _ => {}
        }
    }
}

/// The value order of the command line; see [`ChosenVariableOrder`].
#[derive(Debug, Clone)]
pub enum ChosenValueOrder {
    Asc(Ascending),
    Desc(Descending),
    Middle(MiddleOut),
    Random(RandomValue),
    Lcv(LeastConstraining),
    /// A FlatZinc model's search annotations.
    Annotations(AnnotatedValues),
}

impl ValueOrder for ChosenValueOrder {
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        match self {
            ChosenValueOrder::Asc(order) => order.select_value(var, view),
            ChosenValueOrder::Desc(order) => order.select_value(var, view),
            ChosenValueOrder::Middle(order) => order.select_value(var, view),
            ChosenValueOrder::Random(order) => order.select_value(var, view),
            ChosenValueOrder::Lcv(order) => order.select_value(var, view),
            ChosenValueOrder::Annotations(order) => order.select_value(var, view),
        }
    }

    fn start_run(&mut self, run: u32) {
        if let ChosenValueOrder::Random(order) = self {
            order.start_run(run);
        }
    }
}

/// The values of `--propagation`: the library's [`Propagation`] by its names (`mac` for
/// `full`), each with its line of help.
fn propagation_parser() -> impl TypedValueParser<Value = Propagation> {
    PossibleValuesParser::new(Propagation::ALL.map(|propagation| {
        let value = PossibleValue::new(propagation.name()).help(propagation_help(propagation));
        if propagation == Propagation::Full {
            value.alias("mac")
        } else {
            value
        }
    }))
    .try_map(|name| name.parse::<Propagation>())
}

/// What a propagation does, in the help of `--propagation`.
fn propagation_help(propagation: Propagation) -> &'static str {
    match propagation {
        Propagation::None => "Check constraints only (plain backtracking)",
        Propagation::TextbookForward => {
            "Forward checking as the textbooks define it: only from each decision, once"
        }
        Propagation::Forward => "Forward checking that also follows the values it fixes",
        Propagation::Full => {
            "Each constraint's strongest filtering (MAC: arc consistency maintained)"
        }
        Propagation::Ac3 => {
            "MAC with AC-3 as the textbooks write it: arcs of binary constraints (all-different \
             as pairwise ≠), each revision traced and counted"
        }
        _ => "",
    }
}

/// What to show of the search as it runs.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Print the search as it runs: each decision, what propagation fixed and why, each
    /// failure and solution, indented by depth.
    #[arg(long)]
    pub trace: bool,
    /// With the trace, also print the domains of the unfixed variables after each propagation.
    #[arg(long)]
    pub trace_domains: bool,
    /// The most lines the trace prints; a last line says what was cut.
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_TRACE_LIMIT,
        allow_negative_numbers = true,
        value_parser = parse_count
    )]
    pub trace_limit: u64,
    /// Step through the search, one node per Enter: its trace lines, then the board where the
    /// search stands (queens: Q placed, o still open, . ruled out; Sudoku: values, and the
    /// candidates of cells with few). The root comes first. With --trace-domains, the domains
    /// too; with --tree, the tree of the nodes stepped through. c then Enter runs to the end
    /// (the trace without the boards, as does the end of the input); q quits.
    #[arg(long)]
    pub step: bool,
    /// Write the search tree to FILE: .dot (Graphviz), .svg (a picture), or .html (a page to
    /// step through, with the board at each node).
    #[arg(long, value_name = "FILE")]
    pub tree: Option<PathBuf>,
    /// The most nodes the tree records; the search itself runs to its end.
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_TREE_LIMIT,
        allow_negative_numbers = true,
        value_parser = parse_count
    )]
    pub tree_limit: u64,
    /// The size of the --tree .svg picture, WIDTHxHEIGHT: the whole tree fits it with text
    /// at least 18 units high, failed subtrees drawn as counted triangles when it must.
    #[arg(
        long,
        value_name = "WxH",
        default_value = "1920x1080",
        requires = "tree"
    )]
    pub tree_size: cspkit::teach::svg::Slide,
    /// With --propagation ac3: write an HTML page of the constraint graph that steps through
    /// the search and AC-3's queue and revisions, with auto-play.
    #[arg(long, value_name = "FILE")]
    pub ac3_page: Option<PathBuf>,
}

/// The default of `--tree-limit`.
pub const DEFAULT_TREE_LIMIT: u64 = 5000;

/// The default of `--trace-limit`.
pub const DEFAULT_TRACE_LIMIT: u64 = 1000;

impl ShowArgs {
    /// Whether a trace was asked for (stepping prints one too).
    pub fn tracing(&self) -> bool {
        self.trace || self.trace_domains || self.step
    }

    /// The format of the `--tree` file, from its extension.
    pub fn tree_format(&self) -> Option<Result<TreeFormat, String>> {
        let path = self.tree.as_ref()?;
        Some(TreeFormat::from_path(path).map_err(|e| format!("--tree {e}")))
    }

    /// Why these options make no sense with the others, if they do not.
    pub fn conflict(&self, strategy: &StrategyArgs, batch: bool) -> Option<&'static str> {
        if self.tracing() && batch {
            return Some(
                "--trace and --step follow one search: they cannot be combined with --batch",
            );
        }
        if self.tracing() && strategy.jobs.get() > 1 {
            return Some(
                "--trace and --step follow one search: they cannot be combined with --jobs",
            );
        }
        if self.step && strategy.restarts.is_some() {
            return Some("--step follows one search from its root: it cannot use --restarts");
        }
        if self.tree.is_some() && batch {
            return Some("--tree draws one search: it cannot be combined with --batch");
        }
        if self.tree.is_some() && strategy.jobs.get() > 1 {
            return Some("--tree draws one search: it cannot be combined with --jobs");
        }
        if self.ac3_page.is_some() {
            if strategy.propagation != Some(Propagation::Ac3) {
                return Some("--ac3-page shows AC-3's revisions: it needs --propagation ac3");
            }
            if batch || self.step || strategy.jobs.get() > 1 {
                return Some(
                    "--ac3-page draws one search: it cannot be combined with --batch, --step \
                     or --jobs",
                );
            }
        }
        None
    }
}
