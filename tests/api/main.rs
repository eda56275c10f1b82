//! The library's integration tests, on its public API only, in one test program (one build and
//! one link instead of one per file): each module is a theme.

#[path = "../common/mod.rs"]
mod common;

mod ac3;
mod aima;
mod backjump;
mod booleans;
mod catalogue;
mod config;
mod conformance;
mod custom_constraint;
mod deprecated;
mod events;
mod genres;
mod globals;
mod globals_in_models;
mod guide;
mod incremental;
mod learning;
mod limits;
mod linear;
mod local_search;
mod modelling;
mod names;
mod observer;
mod optimize;
mod properties;
mod puzzle_tools;
mod puzzles;
mod queens_board;
mod reasons;
mod reasons_builtins;
mod reify;
mod scheduling;
mod smallest_conflict;
mod stepping;
mod strategies;
mod sudoku_rating;
mod sudoku_state;
mod textbook;
mod tree;
mod views;
mod why_removed;
mod wide_domains;
