//! What `cspkit` and `fzn-cspkit` share of FlatZinc: reading a model file, and the solver
//! configuration that lets MiniZinc compile for cspkit (`--install-msc`, and `cspkit mzn`).
//!
//! One file, compiled into both programs.

use std::path::{Path, PathBuf};

use cspkit::flatzinc;

/// The largest FlatZinc file read: larger ones (or endless input, `/dev/zero`) are refused
/// before they fill the memory. The MiniZinc Challenge's largest compiled models are tens of
/// megabytes.
const MAX_MODEL_BYTES: u64 = 256 << 20;

/// Reads the model file, refusing one larger than [`MAX_MODEL_BYTES`] or not UTF-8.
pub(crate) fn read_model(file: &str) -> Result<String, String> {
    use std::io::Read as _;
    if Path::new(file).is_dir() {
        return Err(format!(
            "cannot read {file}: it is a directory, not a FlatZinc file"
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_MODEL_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {file}: {e}"))?;
    if bytes.len() as u64 > MAX_MODEL_BYTES {
        return Err(format!(
            "{file}: larger than {} MiB, the most cspkit reads",
            MAX_MODEL_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(&e.as_bytes()[..at]);
        let line = text.matches('\n').count() + 1;
        let column = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{file}: line {line}, column {column}: not UTF-8 text")
    })
}

/// Writes `cspkit.msc` and the MiniZinc library into `dir` (default `~/.minizinc/solvers`).
pub(crate) fn install(dir: Option<PathBuf>) -> Result<(), String> {
    let dir = match dir {
        Some(dir) => dir,
        None => {
            let home = std::env::var_os("HOME").ok_or("HOME is not set: give a directory")?;
            Path::new(&home).join(".minizinc").join("solvers")
        }
    };
    let executable = solver_executable()?;
    let path = write_solver_config(&dir, &executable)?;
    println!(
        "wrote {} (solver: {})",
        path.display(),
        executable.display()
    );
    println!("now: minizinc --solver cspkit model.mzn [data.dzn]");
    Ok(())
}

/// Writes cspkit's MiniZinc library into `dir/cspkit/mznlib` and the solver configuration
/// naming it and `executable` into `dir/cspkit.msc`; returns the configuration's path.
pub(crate) fn write_solver_config(dir: &Path, executable: &Path) -> Result<PathBuf, String> {
    let library = dir.join("cspkit").join("mznlib");
    std::fs::create_dir_all(&library)
        .map_err(|e| format!("cannot create {}: {e}", library.display()))?;
    for (name, text) in flatzinc::MZNLIB {
        let path = library.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let json = |path: &Path| {
        let text = path.display().to_string();
        text.replace('\\', "\\\\").replace('"', "\\\"")
    };
    let msc = format!(
        r#"{{
  "id": "org.cspkit.cspkit",
  "name": "cspkit",
  "description": "cspkit, a small constraint-satisfaction engine in Rust",
  "version": "{version}",
  "mznlib": "{library}",
  "executable": "{executable}",
  "tags": ["cp", "int"],
  "stdFlags": ["-a", "-n", "-s", "-t", "-f", "-r", "-p"],
  "extraFlags": [
    ["--learn", "learn from failures (lazy clause generation)", "bool", "false"],
    ["--no-lns", "optimise by branch and bound alone, without large-neighbourhood search", "bool", "false"]
  ],
  "supportsMzn": false,
  "supportsFzn": true,
  "needsSolns2Out": true,
  "needsMznExecutable": false,
  "needsStdlibDir": false,
  "isGUIApplication": false
}}
"#,
        version = env!("CARGO_PKG_VERSION"),
        library = json(&library),
        executable = json(executable),
    );
    let path = dir.join("cspkit.msc");
    std::fs::write(&path, msc).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// The `fzn-cspkit` program next to the running one (or the running one itself).
pub(crate) fn solver_executable() -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let me = me.canonicalize().unwrap_or(me);
    let name = format!("fzn-cspkit{}", std::env::consts::EXE_SUFFIX);
    if me.file_name().is_some_and(|n| n == name.as_str()) {
        return Ok(me);
    }
    let sibling = me.with_file_name(&name);
    if sibling.is_file() {
        Ok(sibling)
    } else {
        Err(format!(
            "{} not found next to {}: build or install both programs (cargo install --path .)",
            name,
            me.display()
        ))
    }
}
