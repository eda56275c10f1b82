//! The enums of a MiniZinc model, so that `cspkit mzn` shows `colour[WA] = blue` where the
//! FlatZinc has `colour[1] = 3`.
//!
//! FlatZinc numbers the values of an enum from 1. The compiler says which output variable is
//! of which enum, and which enums index each array (`minizinc --model-types-only`):
//!
//! ```text
//! "colour": {"type" : "int", "dim" : 1, "dims" : ["State"], "enum_type" : "Colour"}
//! ```
//!
//! and the `.ozn` file holds the names of each enum's values:
//!
//! ```text
//! array [1..3] of string: _enum_to_string_0_Colour = ["red","green","blue"];
//! ```
//!
//! An enum made of constructors (`enum E = C(1..3) ++ {d}`) has several such arrays and keeps
//! its numbers, as does anything these two texts do not say clearly. Booleans are named
//! `false` and `true`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use cspkit::flatzinc::{FznModel, OutputItem, OutputValue};

/// The type of an output variable of the model, as far as names go.
#[derive(Debug, Default, Clone, PartialEq)]
struct Type {
    /// The enum of its values, if any.
    values: Option<String>,
    /// The enum (or `int`) of each index set, for an array.
    dims: Vec<String>,
}

/// The enums of a model: the names of their values, and the output variables that use them.
#[derive(Debug, Default)]
pub(crate) struct Enums {
    names: HashMap<String, Vec<String>>,
    types: HashMap<String, Type>,
}

impl Enums {
    /// The enums of `model` with `data`, from the compiler (`minizinc --model-types-only`)
    /// and the `.ozn` text `ozn`; none if the compiler does not say.
    pub(crate) fn read(model: &Path, data: &[PathBuf], ozn: &str) -> Enums {
        let names = names(ozn);
        if names.is_empty() {
            return Enums::default();
        }
        let types = Command::new("minizinc")
            .arg("--model-types-only")
            .arg(model)
            .args(data)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| types(&String::from_utf8_lossy(&out.stdout)))
            .unwrap_or_default();
        Enums { names, types }
    }

    /// The names of the values of `enum_name`, if known.
    fn values(&self, enum_name: Option<&str>) -> Option<&[String]> {
        self.names.get(enum_name?).map(Vec::as_slice)
    }

    /// Names the output variables of `fzn`: their values, and the elements of arrays indexed
    /// by enums.
    pub(crate) fn apply(&self, fzn: &mut FznModel) {
        let mut renames = Vec::new();
        let mut values = Vec::new();
        for item in fzn.output() {
            match item {
                OutputItem::Scalar {
                    name,
                    value: OutputValue::Var(var, boolean),
                } => values.push((*var, *boolean, self.type_of(name).values)),
                OutputItem::Array {
                    name,
                    ranges,
                    values: elements,
                } => {
                    let kind = self.type_of(name);
                    let named_dims = kind.dims.iter().any(|dim| self.values(Some(dim)).is_some());
                    for (k, element) in elements.iter().enumerate() {
                        let OutputValue::Var(var, boolean) = *element else {
                            continue;
                        };
                        values.push((var, boolean, kind.values.clone()));
                        if named_dims
                            && ranges.len() == kind.dims.len()
                            && let Some(index) = self.index_text(ranges, &kind.dims, k)
                        {
                            renames.push((var, format!("{name}[{index}]")));
                        }
                    }
                }
                #[allow(unreachable_patterns, reason = "OutputItem may grow")]
                _ => {}
            }
        }
        for (var, name) in renames {
            fzn.rename_var(var, name);
        }
        for (var, boolean, enum_name) in values {
            if boolean {
                fzn.name_values(var, 0, &["false", "true"]);
            } else if let Some(names) = self.values(enum_name.as_deref()) {
                fzn.name_values(var, 1, names);
            }
        }
    }

    fn type_of(&self, name: &str) -> Type {
        self.types.get(name).cloned().unwrap_or_default()
    }

    /// The index of the `k`-th element (row by row) of an array over `ranges`, each index
    /// written by its enum's name where `dims` names one: `WA`, `alice,red`.
    fn index_text(&self, ranges: &[(i64, i64)], dims: &[String], k: usize) -> Option<String> {
        let mut rest = u64::try_from(k).ok()?;
        let mut parts = Vec::with_capacity(ranges.len());
        for (&(low, high), dim) in ranges.iter().zip(dims).rev() {
            let size = u64::try_from(high - low + 1).ok().filter(|&s| s > 0)?;
            let index = low + i64::try_from(rest % size).ok()?;
            rest /= size;
            let named = self.values(Some(dim)).and_then(|names| {
                names
                    .get(usize::try_from(index - 1).ok()?)
                    .map(String::as_str)
            });
            parts.push(named.map_or_else(|| index.to_string(), str::to_owned));
        }
        parts.reverse();
        Some(parts.join(","))
    }
}

/// The names of the values of each simple enum of an `.ozn` text.
fn names(ozn: &str) -> HashMap<String, Vec<String>> {
    let mut names = HashMap::new();
    let mut composite = Vec::new();
    for line in ozn.lines() {
        let Some((_, rest)) = line.split_once("of string: _enum_to_string_") else {
            continue;
        };
        let Some((part, rest)) = rest.split_once('_') else {
            continue;
        };
        let Some((name, list)) = rest.split_once(" = ") else {
            continue;
        };
        let name = name.trim().to_owned();
        if part != "0" {
            composite.push(name);
            continue;
        }
        if let Some(list) = strings(list) {
            names.insert(name, list);
        }
    }
    for name in composite {
        names.remove(&name);
    }
    names
}

/// The strings of `["a","b"];`, unescaped; `None` if the text is not such a list.
fn strings(text: &str) -> Option<Vec<String>> {
    let inner = text.trim().strip_suffix(';')?.trim();
    let inner = inner.strip_prefix('[')?.strip_suffix(']')?;
    let mut out = Vec::new();
    let mut chars = inner.chars();
    loop {
        match chars.next() {
            None => return Some(out),
            Some(c) if c == ',' || c.is_whitespace() => {}
            Some('"') => {
                let mut s = String::new();
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => s.push(match chars.next()? {
                            'n' => '\n',
                            't' => '\t',
                            other => other,
                        }),
                        c => s.push(c),
                    }
                }
                out.push(s);
            }
            Some(_) => return None,
        }
    }
}

/// The output variables' types of `minizinc --model-types-only`, one variable a line.
fn types(json: &str) -> HashMap<String, Type> {
    let mut types = HashMap::new();
    for line in json.lines() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix('"') else {
            continue;
        };
        let Some((name, body)) = rest.split_once("\": {") else {
            continue;
        };
        if body.contains("\"set\" : true") {
            continue;
        }
        let field = |key: &str| -> Option<&str> {
            let at = body.find(&format!("\"{key}\" : "))? + key.len() + 5;
            Some(&body[at..])
        };
        let values = field("enum_type")
            .and_then(|v| v.strip_prefix('"'))
            .and_then(|v| v.split_once('"'))
            .map(|(v, _)| v.to_owned());
        let dims = field("dims")
            .and_then(|v| v.strip_prefix('['))
            .and_then(|v| v.split_once(']'))
            .and_then(|(list, _)| strings(&format!("[{list}];")))
            .unwrap_or_default();
        types.insert(name.to_owned(), Type { values, dims });
    }
    types
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_enums_of_the_texts_minizinc_writes_are_read() {
        let ozn = "array [1..3] of string: _enum_to_string_0_Colour = [\"red\",\"green\",\"blue\"];\n\
                   array [1..2] of string: _enum_to_string_0_E = [\"a\"];\n\
                   array [1..2] of string: _enum_to_string_1_E = [\"b\"];\n";
        let names = names(ozn);
        assert_eq!(names["Colour"], ["red", "green", "blue"]);
        assert!(!names.contains_key("E"), "constructors keep their numbers");
        let json = "{\"var_types\": {\n  \"vars\": {\n\
                    \"Colour\": {\"type\" : \"int\", \"set\" : true, \"enum_type\" : \"Colour\"},\n\
                    \"likes\": {\"type\" : \"bool\", \"dim\" : 2, \"dims\" : [\"P\",\"Colour\"]},\n\
                    \"fav\": {\"type\" : \"int\", \"enum_type\" : \"Colour\"}\n  }}}";
        let types = types(json);
        assert!(!types.contains_key("Colour"));
        assert_eq!(types["fav"].values.as_deref(), Some("Colour"));
        assert_eq!(types["likes"].dims, ["P", "Colour"]);
        assert_eq!(types["likes"].values, None);
        let enums = Enums {
            names,
            types: HashMap::new(),
        };
        let dims = ["int".to_owned(), "Colour".to_owned()];
        assert_eq!(
            enums.index_text(&[(1, 2), (1, 3)], &dims, 5).as_deref(),
            Some("2,blue")
        );
        assert_eq!(
            strings("[\"a\\\"b\", \"c\"];"),
            Some(vec!["a\"b".into(), "c".into()])
        );
        assert_eq!(strings("[1, 2];"), None);
    }
}
