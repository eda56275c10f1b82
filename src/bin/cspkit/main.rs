//! The `cspkit` command-line program (filled in by the CLI work).

fn main() {}
