// The same search in WebAssembly and natively: run_trace of the module against the standard
// output of `cspkit ... --trace` for the same options, byte for byte, on N-Queens, Sudoku and
// FlatZinc models; a Session's stepped trace against the same; and the errors of a broken and
// of an unsupported FlatZinc model.
//
//     node web/check/equivalence.mjs DIST CSPKIT REPO
//
// DIST is web/dist (after web/build.sh), CSPKIT the native binary, REPO the repository (for
// its samples). Exits 1 at the first difference, naming the case and the first differing line.

import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, cspkit, repo] = process.argv.slice(2);
if (!repo) {
    console.error('usage: node equivalence.mjs DIST CSPKIT REPO');
    process.exit(2);
}
const wasm = await import(pathToFileURL(join(dist, 'pkg', 'cspkit_web.js')).href);
wasm.initSync({ module: readFileSync(join(dist, 'pkg', 'cspkit_web_bg.wasm')) });

const NODE_LIMIT = 1000000;
const TIME_LIMIT_MS = 60000;
const TRACE_LIMIT = 200000;
const SESSION_TRACE_LINES = 20000;

// The CLI's options for a spec's strategy, mode and limits.
function options(spec) {
    const args = [];
    for (const [key, option] of [['propagation', '--propagation'], ['var_order', '--var-order'],
        ['value_order', '--value-order'], ['branching', '--branching'], ['counting', '--count-as']]) {
        if (spec[key] !== undefined) args.push(option, spec[key]);
    }
    if (spec.solutions === 0) args.push('--count');
    else if (spec.solutions > 1) args.push('--all', '--limit', String(spec.solutions));
    args.push('--node-limit', String(spec.node_limit), '--time-limit', String(spec.time_limit_ms / 1000));
    args.push('--trace', '--trace-limit', String(spec.trace_limit));
    return args;
}

// The native standard output (exit codes 0, 1 and 3 are answers).
function native(args) {
    try {
        return execFileSync(cspkit, args, { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (error) {
        if ([1, 3].includes(error.status)) return error.stdout;
        throw error;
    }
}

let failures = 0;
function same(name, expected, actual) {
    if (expected === actual) {
        console.log(`same   ${name} (${expected.split('\n').length - 1} lines)`);
        return;
    }
    failures += 1;
    const a = expected.split('\n');
    const b = actual.split('\n');
    let i = 0;
    while (i < a.length && a[i] === b[i]) i += 1;
    console.log(`DIFFER ${name}: first at line ${i + 1}\n  native: ${JSON.stringify(a[i])}\n  wasm:   ${JSON.stringify(b[i])}`);
}

const sudoku = (file) => readFileSync(join(repo, 'samples', 'sudoku', file), 'utf8');
const fzn = (file) => readFileSync(join(repo, file), 'utf8');
const cases = [
    ['queens 6, all, fc', { kind: 'queens', n: 6 }, ['queens', '6'], { solutions: 0, propagation: 'fc' }],
    ['queens 6, all, none', { kind: 'queens', n: 6 }, ['queens', '6'], { solutions: 0, propagation: 'none' }],
    ['queens 8, first, mrv, middle', { kind: 'queens', n: 8 }, ['queens', '8'], { var_order: 'mrv', value_order: 'middle' }],
    ['queens 6, 3 solutions, dway, aima', { kind: 'queens', n: 6 }, ['queens', '6'], { solutions: 3, branching: 'dway', counting: 'aima' }],
    ['sudoku 2239, first', { kind: 'sudoku', grid: sudoku('2239.txt') }, ['sudoku', join(repo, 'samples/sudoku/2239.txt')], {}],
    ['sudoku hard, all, forward, mrv', { kind: 'sudoku', grid: sudoku('hard.txt') }, ['sudoku', join(repo, 'samples/sudoku/hard.txt')], { solutions: 0, propagation: 'forward', var_order: 'mrv' }],
    ['sudoku multi, 2 solutions', { kind: 'sudoku', grid: sudoku('multi.txt') }, ['sudoku', join(repo, 'samples/sudoku/multi.txt')], { solutions: 2 }],
    ['colouring australia, all, ac3', { kind: 'colouring', map: 'australia', colours: 3 }, ['colour', 'australia', '--colours', '3'], { solutions: 0, propagation: 'ac3' }],
    ['flatzinc queens8 (output arrays), first', { kind: 'flatzinc', text: fzn('samples/minizinc/queens8.fzn') }, ['fzn', join(repo, 'samples/minizinc/queens8.fzn')], {}],
    ['flatzinc queens8, all, mrv', { kind: 'flatzinc', text: fzn('samples/minizinc/queens8.fzn') }, ['fzn', join(repo, 'samples/minizinc/queens8.fzn')], { solutions: 0, var_order: 'mrv' }],
    ['flatzinc queens8, 5 solutions', { kind: 'flatzinc', text: fzn('samples/minizinc/queens8.fzn') }, ['fzn', join(repo, 'samples/minizinc/queens8.fzn')], { solutions: 5 }],
    ['flatzinc pigeonhole (no solution)', { kind: 'flatzinc', text: fzn('tests/data/pigeonhole_4_into_3.fzn') }, ['fzn', join(repo, 'tests/data/pigeonhole_4_into_3.fzn')], { solutions: 0 }],
];

for (const [name, model, command, strategy] of cases) {
    const spec = { model, solutions: 1, node_limit: NODE_LIMIT, time_limit_ms: TIME_LIMIT_MS, trace_limit: TRACE_LIMIT, ...strategy };
    const expected = native([...command, ...options(spec)]);
    const actual = wasm.run_trace(JSON.stringify(spec));
    same(name, expected, actual);
    // A session stepped event by event writes the same trace lines, cut as --trace-limit
    // cuts them at the session's 20000 (a count prints its number after them).
    if (spec.solutions === 0 && model.kind !== 'flatzinc') {
        const session = new wasm.Session(JSON.stringify({ ...spec, trace_limit: undefined }));
        let progress;
        do { progress = JSON.parse(session.step()); } while (progress.state !== 'done');
        const cut = native([...command, ...options({ ...spec, trace_limit: SESSION_TRACE_LINES })]);
        // The CLI prints the count before the line that says where the trace was cut.
        const lines = session.trace(0).split('\n');
        const stepped = lines.at(-1).startsWith('… trace cut')
            ? [...lines.slice(0, -1), String(progress.solutions), lines.at(-1)].join('\n') + '\n'
            : session.trace(0) + `\n${progress.solutions}\n`;
        same(`${name}, stepped session`, cut, stepped);
        session.free();
    }
}

function error(name, spec, check) {
    try {
        new wasm.Session(JSON.stringify(spec));
        failures += 1;
        console.log(`DIFFER ${name}: no error`);
    } catch (thrown) {
        const value = JSON.parse(thrown);
        const problem = check(value);
        if (problem) {
            failures += 1;
            console.log(`DIFFER ${name}: ${problem}: ${thrown}`);
        } else {
            console.log(`same   ${name}: ${thrown}`);
        }
    }
}
error('broken FlatZinc', { model: { kind: 'flatzinc', text: 'var 1..3: x :: output_var;\nconstraint int_lt(x, );\nsolve satisfy;\n' } },
    (e) => (e.what !== 'flatzinc' ? 'what is not flatzinc' : e.line !== 2 ? 'line is not 2' : typeof e.column !== 'number' ? 'no column' : null));
error('float FlatZinc', { model: { kind: 'flatzinc', text: 'var 0.0..1.0: x :: output_var;\nsolve satisfy;\n' } },
    (e) => (e.what !== 'unsupported' ? 'what is not unsupported' : !/float/.test(e.error) ? 'the message does not name floats' : e.line !== 1 ? 'line is not 1' : null));
error('unknown spec key', { model: { kind: 'queens', n: 8 }, nodes: 5 },
    (e) => (e.what !== 'spec' ? 'what is not spec' : !e.error.includes('"nodes"') ? 'the key is not named' : null));

if (failures > 0) {
    console.log(`${failures} difference(s)`);
    process.exit(1);
}
console.log('the WebAssembly and native searches are the same');
