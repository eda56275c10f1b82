//! The programs, run as a user would (`cspkit`, `fzn-cspkit`, and through MiniZinc and a
//! headless browser), in one test program: each module is a theme.

#[path = "../common/mod.rs"]
mod common;

mod ac3;
mod backjump;
mod basics;
mod compare;
mod counting;
mod flatzinc;
mod flatzinc_fuzz;
mod genres;
mod hostile;
mod html_page;
mod learn;
mod local_search;
mod minizinc;
mod mzn;
mod mzn_enums;
mod pumpkin;
mod puzzle_rating;
mod puzzles;
mod readme;
mod serve;
mod stopping;
mod strategies;
mod sudoku_state;
mod support;
mod svg_slide;
mod trace;
mod why_removed;
