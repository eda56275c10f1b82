// MiniZinc in the page: the npm package `minizinc` (its compiler as WebAssembly, in
// minizinc/), loaded on the first MiniZinc model only, compiles a model to FlatZinc for cspkit.
//
// cspkit's MiniZinc library (which global constraints to keep whole) is added to the
// compiler's virtual files with a solver configuration naming it, as `cspkit mzn` does with
// the installed compiler. The library comes from the module's `mznlib()` when it has one;
// without it the compiler's standard decompositions are used.

let loading = null;

/** Loads the compiler once; resolves to the package's module. */
export function loadMiniZinc() {
  if (!loading) {
    loading = (async () => {
      const base = new URL('minizinc/', document.baseURI);
      const MiniZinc = await import(new URL('minizinc.mjs', base).href);
      await MiniZinc.init({
        workerURL: new URL('minizinc-worker.js', base),
        wasmURL: new URL('minizinc.wasm', base),
        dataURL: new URL('minizinc.data', base),
        numWorkers: 1,
      });
      return MiniZinc;
    })();
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/** The first line of `minizinc --version`: which MiniZinc the page brings. */
export async function miniZincVersion() {
  const MiniZinc = await loadMiniZinc();
  const text = await MiniZinc.version();
  const match = /version ([0-9][0-9.]*)/.exec(text);
  return match ? match[1] : text.split('\n')[0];
}

// MiniZinc 2.7 and later refuse two-dimensional arrays as arguments of a FlatZinc builtin;
// the library's declarations that have them are left out, so those constraints are
// decomposed by the compiler instead of reaching cspkit whole.
const TWO_DIMENSIONAL = /array\s*\[\s*int\s*,\s*int\s*\]/;

/** The longest a compilation may take. */
const COMPILE_LIMIT_MS = 60000;

/** The model file name, as errors and `mzn_path` annotations name it. */
export const MODEL_FILE = 'model.mzn';
/** The data file name. */
export const DATA_FILE = 'data.dzn';

/**
 * Compiles `source` (with DZN `data`, may be empty) to FlatZinc text.
 * `library`: [[file name, text], ...] of cspkit's MiniZinc library, or null.
 * Rejects with {error, line, column, file, what} on a MiniZinc error.
 */
export async function compileMiniZinc(source, data, library) {
  const MiniZinc = await loadMiniZinc();
  const model = new MiniZinc.Model();
  const options = { 'keep-paths': true };
  if (library && library.length) {
    for (const [name, text] of library) {
      if (!TWO_DIMENSIONAL.test(text)) model.addFile(`cspkit/mznlib/${name}`, text, false);
    }
  } else {
    // No library from the module: the standard library's decompositions (FlatZinc
    // builtins only, which cspkit reads), not another solver's globals.
    model.addFile('cspkit/mznlib/redefinitions.mzn', '% the standard decompositions\n', false);
  }
  const config = {
    id: 'org.cspkit.cspkit',
    name: 'cspkit',
    version: '0',
    mznlib: 'cspkit/mznlib',
    executable: 'fzn-cspkit',
    tags: ['cp', 'int'],
    stdFlags: [],
    supportsMzn: false,
    supportsFzn: true,
    needsSolns2Out: true,
  };
  model.addFile('cspkit.msc', JSON.stringify(config), false);
  options.solver = 'cspkit.msc';
  model.addFile(MODEL_FILE, source);
  if (data && data.trim()) model.addFile(DATA_FILE, data);
  const errors = [];
  const compilation = model.compile({ options });
  compilation.on('error', (e) => errors.push(e));
  // The page never hangs: a compilation that runs away is cancelled.
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; compilation.cancel(); }, COMPILE_LIMIT_MS);
  try {
    return await compilation;
  } catch (exit) {
    if (timedOut) {
      throw {
        error: `MiniZinc's compiler did not finish within ${COMPILE_LIMIT_MS / 1000} s: stopped`,
        line: null, column: null, file: null, what: 'model',
      };
    }
    const first = errors[0];
    const location = first && first.location;
    const message = first ? first.message : (exit && exit.message) || 'MiniZinc could not compile the model';
    throw {
      error: message,
      line: location ? location.firstLine : lineFromMessage(message),
      column: location ? location.firstColumn : null,
      file: location ? location.filename.replace(/^.*\//, '') : null,
      what: first && first.what ? first.what : 'model',
    };
  } finally {
    clearTimeout(timer);
  }
}

/** A `file:LINE.COL` or `line N` in a message, when the error had no location. */
function lineFromMessage(message) {
  const match = /\.mzn:(\d+)/.exec(message) || /line (\d+)/.exec(message);
  return match ? Number(match[1]) : null;
}
