//! Annotations: the search annotations of the solve item, and where an item comes from in the
//! MiniZinc model (`mzn_path`), which names the constraints and variables in traces.

use super::{Builder, SearchGroup, ValueChoice, VarChoice};
use crate::flatzinc::parse::{Expr, FznError, Pos};

impl<'a> Builder<'a> {
    /// Ignores a search annotation with a choice cspkit does not know, as the FlatZinc
    /// specification asks, with a warning.
    pub(super) fn ignore(
        &mut self,
        at: Pos,
        name: &str,
        what: &str,
        choice: &str,
    ) -> Result<(), FznError> {
        self.warnings.push(format!(
            "line {}: {name} ignored: cspkit does not know the {what} `{choice}`",
            at.line
        ));
        Ok(())
    }

    pub(super) fn search_annotation(
        &mut self,
        annotation: &'a Expr,
        pos: Pos,
    ) -> Result<(), FznError> {
        let Expr::Call(name, args) = annotation else {
            return Ok(()); // other annotations (e.g. `restart_none`) are ignored
        };
        match name.as_str() {
            "seq_search" => {
                if let Some((Expr::Array(items), _)) = args.first() {
                    for (item, at) in items {
                        self.search_annotation(item, *at)?;
                    }
                }
                Ok(())
            }
            "int_search" | "bool_search" => {
                if args.len() < 3 {
                    return Err(FznError::at(
                        pos,
                        format!("{name}: expected variables, a variable choice and a value choice"),
                    ));
                }
                let vars = self.resolve(&args[0].0, args[0].1)?;
                let vars = self.vars(&vars, pos)?;
                let choice = |e: &Expr| match e {
                    Expr::Ident(s) => s.clone(),
                    _ => String::new(),
                };
                let var_choice = match choice(&args[1].0).as_str() {
                    "input_order" => VarChoice::InputOrder,
                    "first_fail" => VarChoice::FirstFail,
                    "dom_w_deg" => VarChoice::DomWdeg,
                    "most_constrained" => VarChoice::MostConstrained,
                    "occurrence" => VarChoice::Occurrence,
                    "anti_first_fail" => VarChoice::AntiFirstFail,
                    "smallest" => VarChoice::Smallest,
                    "largest" => VarChoice::Largest,
                    other => {
                        return self.ignore(args[1].1, name, "variable choice", other);
                    }
                };
                let value_choice = match choice(&args[2].0).as_str() {
                    "indomain_min" | "indomain" | "indomain_interval" => ValueChoice::Min,
                    "indomain_split" => ValueChoice::Split,
                    "indomain_max" | "indomain_reverse_split" => ValueChoice::Max,
                    "indomain_median" | "indomain_middle" => ValueChoice::Median,
                    "indomain_random" => ValueChoice::Random,
                    other => {
                        return self.ignore(args[2].1, name, "value choice", other);
                    }
                };
                self.search.push(SearchGroup {
                    vars,
                    var_choice,
                    value_choice,
                });
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// Where an item comes from in the MiniZinc model, as its `mzn_path` annotation says (MiniZinc
/// writes it with `--keep-paths`): segments `file|line|column|line|column|kind|detail;`, from
/// the outermost expression in; the kinds read here are calls (`ca`), operators (`bin`, `un`)
/// and the bindings of comprehensions (`i=2`).
#[derive(Debug, PartialEq)]
pub(super) struct Origin {
    /// The file's name, without its folders.
    file: String,
    /// The line of the outermost expression.
    line: u32,
    /// The outermost call or operator: `all_different`, `'<'`.
    what: String,
    /// The innermost operator, if there is one besides `what`: `'+'` in `q[i] + i`.
    op: Option<String>,
    /// The comprehensions' bindings, outermost first: `i=2`.
    bindings: Vec<String>,
}

impl Origin {
    /// `all_different (queens.mzn:10)`, `'<' (futoshiki.mzn:17, i=2, j=3)`, `'+' in
    /// all_different (queens.mzn:10, i=1)`.
    pub(super) fn constraint_label(&self) -> String {
        let mut label = match &self.op {
            Some(op) => format!("{op} in {}", self.what),
            None => self.what.clone(),
        };
        label.push_str(&format!(" ({}:{}", self.file, self.line));
        for binding in &self.bindings {
            label.push_str(", ");
            label.push_str(binding);
        }
        label.push(')');
        label
    }

    /// `all_different@10[i=1]`: short, as a trace names a variable at each line.
    pub(super) fn var_name(&self) -> String {
        if self.bindings.is_empty() {
            format!("{}@{}", self.what, self.line)
        } else {
            format!("{}@{}[{}]", self.what, self.line, self.bindings.join(","))
        }
    }
}

/// The [`Origin`] in `annotations`, if they hold a `mzn_path` that reads as one.
pub(super) fn origin(annotations: &[(Expr, Pos)]) -> Option<Origin> {
    let path = annotations
        .iter()
        .find_map(|(annotation, _)| match annotation {
            Expr::Call(name, args) if name == "mzn_path" => match args.first() {
                Some((Expr::Str(path), _)) => Some(path.as_str()),
                _ => None,
            },
            _ => None,
        })?;
    let mut origin: Option<Origin> = None;
    let mut bindings = Vec::new();
    let mut op = None;
    for segment in path.split(';').filter(|s| !s.is_empty()) {
        let fields: Vec<&str> = segment.split('|').collect();
        let (Some(file), Some(line), Some(kind)) = (fields.first(), fields.get(1), fields.get(5))
        else {
            continue;
        };
        let detail = fields.get(6).copied().unwrap_or("");
        // The conjunctions `forall` makes say nothing of the expression.
        if matches!(*kind, "bin" | "un") && !matches!(detail, "" | "'/\\'") && origin.is_some() {
            op = Some(detail.to_owned());
        }
        let what = match *kind {
            // A call's name may carry a prefix up to `@` (`\\4@all_different`); `forall` and
            // `exists` only hold the expressions that say something.
            "ca" => match detail.rsplit('@').next().unwrap_or(detail) {
                "forall" | "exists" => continue,
                name => name,
            },
            "bin" | "un" => detail,
            binding if binding.contains('=') => {
                bindings.push(binding.to_owned());
                continue;
            }
            _ => continue,
        };
        if what.is_empty() || origin.is_some() {
            continue;
        }
        origin = Some(Origin {
            file: file.rsplit(['/', '\\']).next().unwrap_or(file).to_owned(),
            line: line.parse().ok()?,
            what: what.to_owned(),
            op: None,
            bindings: Vec::new(),
        });
    }
    let mut origin = origin?;
    origin.bindings = bindings;
    origin.op = op;
    Some(origin)
}
