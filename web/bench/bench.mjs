// WebAssembly (in node) against native on the same workloads, from the same Rust code
// (src/bench.rs): `queens N --count` and the Sudoku workload of bench/run.sh. Each is run
// RUNS times after one warm-up run, on each side; medians and the ratio are printed, and the
// two sides' answers are compared.
//
//     node web/bench/bench.mjs DIST NATIVE_BENCH SUDOKU_FILE RUNS [QUEENS_N]

import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const [dist, nativeBench, sudokuFile, runsText, queensText = '12'] = process.argv.slice(2);
if (!runsText) {
    console.error('usage: node bench.mjs DIST NATIVE_BENCH SUDOKU_FILE RUNS [QUEENS_N]');
    process.exit(2);
}
const runs = Number(runsText);
const queens = Number(queensText);
const wasm = await import(pathToFileURL(join(dist, 'pkg', 'cspkit_web.js')).href);
wasm.initSync({ module: readFileSync(join(dist, 'pkg', 'cspkit_web_bg.wasm')) });

const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

// The native side: one process, a warm-up run then RUNS timed runs.
function native(args) {
    const out = execFileSync(nativeBench, [...args.slice(0, -1), String(runs + 1)], { encoding: 'utf8' });
    const lines = out.trim().split('\n').map((line) => JSON.parse(line)).slice(1);
    return { times: lines.map((l) => l.ms), result: JSON.stringify(lines[0].result) };
}

// The WebAssembly side: a warm-up run then RUNS timed runs.
function webassembly(work) {
    work();
    const times = [];
    let result;
    for (let i = 0; i < runs; i += 1) {
        const started = performance.now();
        result = work();
        times.push(performance.now() - started);
    }
    return { times, result: JSON.stringify(JSON.parse(result)) };
}

const sudokuText = readFileSync(sudokuFile, 'utf8');
const puzzles = sudokuText.split('\n').filter((l) => l.trim()).length;
const workloads = [
    [`queens ${queens} --count`, ['queens', String(queens), 'RUNS'], () => wasm.bench_queens_count(queens)],
    [`sudoku lex, ${puzzles} puzzles of ${sudokuFile.split('/').at(-1)}`, ['sudoku', sudokuFile, '1000000', 'RUNS'],
        () => wasm.bench_sudoku(sudokuText, 1000000)],
];

console.log(`${runs} runs each after a warm-up; median milliseconds (min-max)`);
console.log('| workload | native ms | WebAssembly ms | ratio | answer |');
console.log('|---|---|---|---|---|');
let mismatch = false;
for (const [name, args, work] of workloads) {
    const n = native(args);
    const w = webassembly(work);
    const range = (t) => `${median(t).toFixed(1)} (${Math.min(...t).toFixed(1)}-${Math.max(...t).toFixed(1)})`;
    const ratio = median(w.times) / median(n.times);
    const same = n.result === w.result;
    mismatch ||= !same;
    console.log(`| ${name} | ${range(n.times)} | ${range(w.times)} | ${ratio.toFixed(2)}x | ${same ? w.result : `DIFFER native ${n.result} wasm ${w.result}`} |`);
}
if (mismatch) process.exit(1);
