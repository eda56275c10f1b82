//! `cspkit compare`: one puzzle, every combination of the strategies asked for, one table.

use std::fs::File;
use std::io::{self, Write};

use cspkit::teach::TreeFormat;
use cspkit::teach::html::{self, Board, Panel};
use cspkit::teach::table::{self, Record};
use cspkit::teach::tree::SearchTree;
use cspkit::{Branching, Limit, Model, Outcome, Propagation, SearchConfig};

use crate::args::{BranchingArg, CompareArgs, Puzzle, Switch, ValOrder, VarOrder, name_of};
use crate::input::{colouring, load_grid, queens_model};
use crate::output::{bad_input, exit, output_failed};

/// Runs the comparison and prints the table; returns the exit code.
pub(crate) fn run(args: &CompareArgs) -> u8 {
    let built = match build(args) {
        Ok(built) => built,
        Err(code) => return code,
    };
    let model = built.model();
    let var_orders = or_all(
        &args.var_order,
        &[
            VarOrder::Input,
            VarOrder::Mrv,
            VarOrder::MrvRandom,
            VarOrder::DomDeg,
            VarOrder::DomWdeg,
        ],
    );
    let value_orders = or_all(
        &args.value_order,
        &[
            ValOrder::Asc,
            ValOrder::Desc,
            ValOrder::Middle,
            ValOrder::Random,
            ValOrder::Lcv,
        ],
    );
    let levels = or_all(
        &args.propagation,
        &[
            Propagation::None,
            Propagation::TextbookForward,
            Propagation::Forward,
            Propagation::Full,
        ],
    );
    let branchings = or_all(&args.branching, &[BranchingArg::Assign]);
    let mut backjumps = or_all(&args.backjump, &[Switch::Off]);
    backjumps.dedup();
    if backjumps.contains(&Switch::On) && levels.contains(&Propagation::Ac3) {
        return bad_input(
            "--backjump follows the reasons of the constraints' own propagation: it cannot be \
             combined with --propagation ac3 (drop ac3 from the list, or compare with \
             --backjump off)",
        );
    }
    let seed = args.seed.unwrap_or_default();
    let runs =
        backjumps.len() * branchings.len() * var_orders.len() * value_orders.len() * levels.len();
    // The page's file is checked and created before any search runs.
    let mut page = match args.tree.as_deref() {
        None => None,
        Some(path) => {
            if TreeFormat::from_path(path) != Ok(TreeFormat::Html) {
                return bad_input(format_args!(
                    "--tree {}: compare writes its trees as one page, a file ending in .html",
                    path.display()
                ));
            }
            if runs > MAX_TREES {
                return bad_input(format_args!(
                    "--tree draws at most {MAX_TREES} runs side by side, and the lists make \
                     {runs}: name fewer orders, levels or branchings"
                ));
            }
            match File::create(path) {
                Ok(file) => Some(file),
                Err(error) => {
                    return bad_input(format_args!(
                        "cannot write the trees to {}: {error}",
                        path.display()
                    ));
                }
            }
        }
    };
    let tree_limit = usize::try_from(args.tree_limit).unwrap_or(usize::MAX);
    let mut trees: Vec<(String, String, SearchTree<'_>)> = Vec::new();
    let mut rows = Vec::new();
    for (&branching, &backjump) in branchings
        .iter()
        .flat_map(|b| backjumps.iter().map(move |j| (b, j)))
    {
        let backjump = backjump == Switch::On;
        for &var_order in &var_orders {
            for &value_order in &value_orders {
                for &level in &levels {
                    let mut config = SearchConfig::new()
                        .with_propagation(level)
                        .with_branching(Branching::from(branching))
                        .with_backjumping(backjump)
                        .with_decision_limit(args.decision_limit)
                        .with_time_limit(args.time_limit);
                    if let Some(count_as) = args.count_as {
                        config = config.with_counting(count_as.into());
                    }
                    let solver = match model.solver_with(config) {
                        Ok(solver) => solver,
                        Err(error) => return bad_input(error),
                    };
                    let solver = solver
                        .with_variable_order(var_order.build(seed))
                        .with_value_order(value_order.build(seed));
                    let mut tree = page.is_some().then(|| {
                        SearchTree::new(model)
                            .with_limit(tree_limit)
                            .with_domains(true)
                    });
                    // Counted on what the model's output shows, as MiniZinc's `-a` lists.
                    let solver = match &built {
                        Built::Model(fzn)
                            if fzn.has_hidden_variables() && (args.count || args.all) =>
                        {
                            match solver.with_projection(&fzn.shown_variables()) {
                                Ok(solver) => solver,
                                Err(error) => return bad_input(error),
                            }
                        }
                        _ => solver,
                    };
                    let mut solver = solver.with_observer(&mut tree);
                    let stopped = if args.count || args.all {
                        solver.count().stopped_by
                    } else {
                        match solver.next_solution() {
                            Outcome::LimitReached(limit) => Some(limit),
                            _ => None,
                        }
                    };
                    let stats = solver.stats();
                    drop(solver);
                    let status =
                        stopped.map_or_else(|| "done".to_owned(), |l: Limit| l.to_string());
                    let names = [
                        name_of(var_order),
                        name_of(value_order),
                        level.name().to_owned(),
                        name_of(branching),
                    ];
                    let names = [&*names[0], &*names[1], &*names[2], &*names[3]];
                    if let Some(tree) = tree {
                        let mut summary = html::panel_stats(&stats, &status);
                        let mut title = names.join(", ");
                        if backjump {
                            title.push_str(", backjump");
                            summary.push_str(&format!(
                                ", backjumps {}, levels skipped {}",
                                stats.backjumps, stats.levels_skipped
                            ));
                        }
                        trees.push((title, summary, tree));
                    }
                    rows.push(Record::new(names, &stats, &status).with_backjumping(backjump));
                }
            }
        }
    }
    if let (Some(file), Some(path)) = (page.take(), args.tree.as_deref()) {
        let board = built.board();
        let panels: Vec<Panel<'_>> = trees
            .iter()
            .map(|(title, stats, tree)| Panel {
                tree,
                board: &board,
                title,
                stats,
            })
            .collect();
        let title = format!("cspkit compare {} {}", args.puzzle, args.target.join(" "));
        let text = html::render_comparison(&title, &panels);
        let mut file = file;
        if let Err(error) = file.write_all(text.as_bytes()) {
            return bad_input(format_args!(
                "cannot write the trees to {}: {error}",
                path.display()
            ));
        }
    }
    let text = table::render_records(&rows, args.format.into());
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => exit::SOLVED,
        Err(error) => output_failed(error, exit::SOLVED),
    }
}

/// The most runs `--tree` draws on one page.
const MAX_TREES: usize = 4;

/// The lists given, or every choice.
fn or_all<T: Copy>(given: &[T], all: &[T]) -> Vec<T> {
    if given.is_empty() {
        all.to_vec()
    } else {
        given.to_vec()
    }
}

/// The puzzle's model, kept with what owns it.
enum Built {
    Queens(cspkit::models::queens::Queens),
    Sudoku(cspkit::models::sudoku::Sudoku),
    Colour(cspkit::models::colouring::Colouring),
    Model(Box<cspkit::flatzinc::FznModel>),
}

impl Built {
    fn model(&self) -> &Model {
        match self {
            Built::Queens(q) => q.model(),
            Built::Sudoku(s) => s.model(),
            Built::Colour(c) => c.model(),
            Built::Model(m) => m.model(),
        }
    }

    /// How the page draws the puzzle.
    fn board(&self) -> Board {
        match self {
            Built::Queens(q) => Board::Queens {
                rows: q.rows().to_vec(),
                first_column: 1,
            },
            Built::Sudoku(s) => Board::Grid {
                columns: s.cells().len().isqrt(),
                cells: s.cells().to_vec(),
            },
            Built::Colour(_) => Board::Table,
            Built::Model(m) => crate::minizinc::board_of(m),
        }
    }
}

fn build(args: &CompareArgs) -> Result<Built, u8> {
    let target = match (&args.puzzle, args.target.as_slice()) {
        (Puzzle::Model(file), data) => {
            let data: Vec<std::path::PathBuf> = data.iter().map(Into::into).collect();
            return crate::minizinc::model_of(file, &data)
                .map(|m| Built::Model(Box::new(m)))
                .map_err(bad_input);
        }
        (_, [target]) => target,
        (puzzle, []) => {
            return Err(bad_input(format_args!(
                "compare {puzzle}: give {}",
                match puzzle {
                    Puzzle::Queens => "N, the number of queens",
                    Puzzle::Sudoku => "the puzzle file",
                    _ => "the graph",
                }
            )));
        }
        (puzzle, [_, extra, ..]) => {
            return Err(bad_input(format_args!(
                "compare {puzzle}: unexpected argument {extra:?}"
            )));
        }
    };
    match args.puzzle {
        Puzzle::Model(_) => unreachable!("a model returned above"),
        Puzzle::Queens => {
            let n: usize = target
                .parse()
                .ok()
                .filter(|n| (1..=1000).contains(n))
                .ok_or_else(|| {
                    bad_input(format_args!(
                        "compare queens {target:?}: N must be a whole number from 1 to 1000"
                    ))
                })?;
            queens_model(n, args.model).map(Built::Queens)
        }
        Puzzle::Sudoku => {
            let (grid, _) = load_grid(Some(std::path::Path::new(target)), None)?;
            cspkit::models::sudoku::Sudoku::new(&grid)
                .map(Built::Sudoku)
                .map_err(bad_input)
        }
        Puzzle::Colour => colouring(target, args.colours).map(Built::Colour),
    }
}
