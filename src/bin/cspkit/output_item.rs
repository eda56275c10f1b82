//! The solutions of a MiniZinc model written by the model's own `output` item.
//!
//! `cspkit mzn` solves the FlatZinc and writes its solutions in the FlatZinc output format;
//! the compiler's `.ozn` file holds the model's `output` item and the names of its enums.
//! MiniZinc's solution printer (`minizinc --ozn-file model.ozn`, "solns2out") reads the
//! FlatZinc solutions and prints what the model asks for (`WA: blue`), as
//! `minizinc --solver NAME` prints it: the text of a student's model is the model's own.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};

use crate::ozn::Rewrite;

/// The `output` item of a compiled model, printed by MiniZinc's solution printer.
#[derive(Debug)]
pub(crate) struct ModelOutput {
    ozn: PathBuf,
}

impl ModelOutput {
    /// The output item of the `.ozn` file at `ozn`.
    pub(crate) fn new(ozn: PathBuf) -> Self {
        ModelOutput { ozn }
    }

    fn command(&self) -> Command {
        let mut command = Command::new("minizinc");
        command.arg("--ozn-file").arg(&self.ozn);
        command
    }

    /// `text` (FlatZinc solutions and separators) as the model's output item writes it; `text`
    /// itself if the printer cannot be run or fails.
    pub(crate) fn render(&self, text: &str) -> String {
        self.try_render(text).unwrap_or_else(|| text.to_owned())
    }

    fn try_render(&self, text: &str) -> Option<String> {
        let mut child = self
            .command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let mut stdin = child.stdin.take()?;
        let mut stdout = child.stdout.take()?;
        // Written from another thread: the printer may answer before it has read everything.
        let input = text.to_owned();
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let mut rendered = String::new();
        let read = stdout.read_to_string(&mut rendered);
        let written = writer.join();
        let status = child.wait().ok()?;
        (read.is_ok() && matches!(written, Ok(Ok(()))) && status.success()).then_some(rendered)
    }

    /// The printer as a process writing to this program's standard output, for a stream of
    /// solutions written into [`Printer::input`].
    pub(crate) fn spawn(&self) -> io::Result<Printer> {
        let mut child = self
            .command()
            .stdin(Stdio::piped())
            .stdout(Stdio::inherit())
            .stderr(Stdio::inherit())
            .spawn()?;
        let input = child
            .stdin
            .take()
            .ok_or_else(|| io::Error::other("no stdin"))?;
        Ok(Printer { child, input })
    }
}

impl Rewrite for ModelOutput {
    fn rewrite_all(&self, text: &str) -> String {
        self.render(text)
    }
}

/// MiniZinc's solution printer running: what is written into its input goes, as the model's
/// output item writes it, to standard output.
pub(crate) struct Printer {
    child: Child,
    input: ChildStdin,
}

impl Printer {
    /// The printer's input.
    pub(crate) fn input(&mut self) -> &mut ChildStdin {
        &mut self.input
    }

    /// Closes the input and waits for the printer to write the rest.
    pub(crate) fn finish(self) -> io::Result<()> {
        let Printer { mut child, input } = self;
        drop(input);
        let status = child.wait()?;
        if status.success() {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "MiniZinc's solution printer (minizinc --ozn-file) failed: {status}"
            )))
        }
    }
}
