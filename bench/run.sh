#!/usr/bin/env bash
# The benchmark suite in one command: every workload for cspkit and for each peer, on the same
# inputs, every answer validated, and a Markdown report. See bench/README.md.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bench/run.sh [--quick] [--workloads LIST] [--peers LIST] [--data DIR] [--scratch DIR]
                    [--out FILE] [--max-queens N] [--no-install]

  --quick           a short smoke run (under 3 minutes): small subsets, small boards
  --workloads LIST  comma-separated, from: sudoku, levels, queens-count, queens-first,
                    queens-lex, cost, memory, startup, micro (default: all of them)
  --peers LIST      comma-separated, from: gecode, cp-sat, python-constraint2, selen,
                    puzzle-solver, sudoku-crate, bitboard; 'none' runs cspkit alone
                    (default: all of them)
  --data DIR        the Sudoku puzzle sets (default: $CSPKIT_BENCH_DATA, else
                    ../shared/data/sudoku from the repository root)
  --scratch DIR     where the peers are installed and the raw results kept (default:
                    $BENCH_SCRATCH, else bench-peers/ in cargo's target directory)
  --out FILE        the report (default: docs/benchmarks.md; with --quick, report.md in the
                    results directory)
  --max-queens N    count the solutions of N-Queens up to this n (default 15; quick 11)
  --no-install      install nothing: use the peers already in the scratch directory or on
                    the machine, and skip the others
EOF
}

all_workloads=sudoku,levels,queens-count,queens-first,queens-lex,cost,memory,startup,micro
all_peers=gecode,cp-sat,python-constraint2,selen,puzzle-solver,sudoku-crate,bitboard

quick=0
workloads=$all_workloads
peers=$all_peers
data=${CSPKIT_BENCH_DATA:-../shared/data/sudoku}
scratch=${BENCH_SCRATCH:-}
out=
max_queens=
install=1
command_line="bench/run.sh${*:+ $*}"

while (($#)); do
  case $1 in
    --quick) quick=1 ;;
    --workloads) workloads=$2; shift ;;
    --peers) peers=$2; shift ;;
    --data) data=$2; shift ;;
    --scratch) scratch=$2; shift ;;
    --out) out=$2; shift ;;
    --max-queens) max_queens=$2; shift ;;
    --no-install) install=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $workloads == all ]] && workloads=$all_workloads
[[ $peers == all ]] && peers=$all_peers
[[ $peers == none ]] && peers=

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
export PYTHONDONTWRITEBYTECODE=1

# wants LIST ITEM: whether the comma-separated LIST holds ITEM.
wants() { [[ ",$1," == *",$2,"* ]]; }
wants_workload() { wants "$workloads" "$1"; }
wants_peer() { wants "$peers" "$1"; }

say() { printf '%s\n' "$*" >&2; }

# ---------------------------------------------------------------------------------------------
# Settings of a full run and of a quick one.

if ((quick)); then
  max_queens=${max_queens:-11}
  cspkit_subset=500          # puzzles per set for cspkit (200 of hardest-1905)
  fast_subset=500            # Gecode, the sudoku crate
  cpsat_subset=20
  puzzle_solver_subset=50
  selen_subset=3
  constraint2_subset=2
  selen_timeout=2
  fast_budget=60             # seconds of wall time for one peer on one set
  slow_budget=20
  level_puzzles=10
  level_node_limit=100000
  count_time_limit=30
  first_sizes="8 16 32 64 128"
  first_time_limit=2
  lex_sizes=$(seq -s ' ' 4 20)
  lex_time_limit=1
  queens_memory_n=11
  memory_puzzles=5000
  startup_runs=20
  cost_puzzles=50
  cost_count_n=9
  cost_lex_n=20
  micro_args=(--warm-up-time 0.2 --measurement-time 0.3 --sample-size 10)
else
  max_queens=${max_queens:-15}
  cspkit_subset=
  fast_subset=10000
  cpsat_subset=200
  puzzle_solver_subset=1000
  selen_subset=10
  constraint2_subset=5
  selen_timeout=5
  fast_budget=600
  slow_budget=120
  level_puzzles=100
  level_node_limit=1000000
  count_time_limit=300
  first_sizes="8 16 32 64 128 256 1000"
  first_time_limit=10
  lex_sizes=$(seq -s ' ' 4 30)
  lex_time_limit=10
  queens_memory_n=14
  memory_puzzles=
  startup_runs=100
  cost_puzzles=200
  cost_count_n=11
  cost_lex_n=26
  micro_args=(--warm-up-time 1 --measurement-time 3)
fi

# The puzzle sets: key and file name.
datasets=(
  "unbiased:puzzles1_unbiased_first1000.txt"
  "17-clue:puzzles2_17_clue.txt"
  "top1465:puzzles3_magictour_top1465.txt"
  "hardest-1905:puzzles5_forum_hardest_1905_11+.txt"
  "hardest-1106:puzzles6_forum_hardest_1106.txt"
  "serg:puzzles7_serg_benchmark.txt"
)

# subset PEER DATASET: how many puzzles of the set the peer runs (empty: all of them).
subset() {
  local peer=$1 dataset=$2
  case $peer in
    cspkit)
      if ((quick)) && [[ $dataset == hardest-1905 ]]; then echo 200; else echo "$cspkit_subset"; fi ;;
    gecode | sudoku-crate)
      if [[ $dataset == hardest-1905 ]]; then echo $((fast_subset < 2000 ? 200 : 2000)); else echo "$fast_subset"; fi ;;
    cp-sat)
      # More of serg: the set on which the lexicographic answers are checked.
      if [[ $dataset == serg ]]; then echo $((cpsat_subset * 5)); else echo "$cpsat_subset"; fi ;;
    puzzle-solver) echo "$puzzle_solver_subset" ;;
    selen) echo "$selen_subset" ;;
    python-constraint2) echo "$constraint2_subset" ;;
  esac
}

# skip_reason PEER DATASET: why the peer does not run this set at all (empty: it does).
skip_reason() {
  case $1:$2 in
    python-constraint2:17-clue) echo "not run: in trials no 17-clue puzzle finished within 20 s" ;;
    python-constraint2:top1465 | python-constraint2:hardest-1905)
      ((quick)) && echo "not run in a quick run: several seconds per puzzle" ;;
  esac
  return 0
}

# budget PEER: the wall-clock seconds one peer gets for one set or one list of boards.
budget() {
  case $1 in
    cspkit) echo $((fast_budget * 3)) ;;
    selen | python-constraint2 | cp-sat | puzzle-solver) echo "$slow_budget" ;;
    *) echo "$fast_budget" ;;
  esac
}

# ---------------------------------------------------------------------------------------------
# cspkit: the CLI and the workloads program.

say "== building cspkit"
cargo build --release --quiet --bin cspkit
target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
cli="$target_dir/release/cspkit"
workloads_bin=$(cargo bench --bench workloads --no-run --message-format=json 2>/dev/null |
  python3 -c '
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message["target"]["name"] == "workloads" and message.get("executable"):
        print(message["executable"])')

scratch=${scratch:-$target_dir/bench-peers}
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
results="$scratch/results/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$results"
if [[ -z $out ]]; then
  if ((quick)); then out="$results/report.md"; else out=docs/benchmarks.md; fi
fi
[[ $data == /* ]] || data="$repo/$data"
if [[ ! -d $data ]]; then
  say "run.sh: no puzzle sets in $data (set --data or CSPKIT_BENCH_DATA)"
  exit 2
fi

meta() { printf '%s\t%s\n' "$1" "$2" >> "$results/meta.tsv"; }
peer_status() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$results/peers.tsv"; }

# ---------------------------------------------------------------------------------------------
# The peers: each installed into the scratch directory (Gecode from Debian's packages), each
# skipped with a message if that fails.

apt_updated=0
apt_install() {
  ((install)) || return 1
  command -v apt-get > /dev/null || return 1
  local sudo=
  if ((EUID != 0)); then
    command -v sudo > /dev/null && sudo -n true 2> /dev/null || return 1
    sudo=sudo
  fi
  if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "$@" > "$scratch/apt.log" 2>&1; then
    ((apt_updated)) && return 1
    apt_updated=1
    $sudo apt-get update -q >> "$scratch/apt.log" 2>&1 || return 1
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "$@" >> "$scratch/apt.log" 2>&1 || return 1
  fi
}

available=,
enable() { available+="$1,"; }
has_peer() { wants "$available" "$1"; }

setup_gecode() {
  if [[ ! -f /usr/include/gecode/int.hh ]] && ! apt_install libgecode-dev; then
    peer_status gecode skipped - "libgecode-dev is not installed and could not be installed (see apt.log)"
    return
  fi
  if ! command -v g++ > /dev/null; then
    peer_status gecode skipped - "no g++ to compile the driver"
    return
  fi
  mkdir -p "$scratch/gecode"
  local source=bench/peers/gecode/driver.cpp binary="$scratch/gecode/driver"
  if [[ ! -x $binary || $source -nt $binary ]] &&
    ! g++ -O2 -std=c++17 -o "$binary" "$source" -lgecodesearch -lgecodeint -lgecodekernel \
      -lgecodesupport 2> "$scratch/gecode/build.log"; then
    peer_status gecode skipped - "the driver did not compile (see gecode/build.log)"
    return
  fi
  local version
  version=$(sed -n 's/^#define GECODE_VERSION "\(.*\)"/\1/p' /usr/include/gecode/support/config.hpp)
  peer_status gecode installed "$version" "Debian libgecode-dev; driver built with $(g++ --version | head -n 1)"
  enable gecode
}

venv_python="$scratch/venv/bin/python"
setup_python() {
  local wanted=()
  wants_peer cp-sat && wanted+=(cp-sat)
  wants_peer python-constraint2 && wanted+=(python-constraint2)
  ((${#wanted[@]})) || return 0
  if [[ ! -x $venv_python ]]; then
    if ((!install)) || ! python3 -m venv "$scratch/venv" > "$scratch/venv.log" 2>&1; then
      for peer in "${wanted[@]}"; do peer_status "$peer" skipped - "no Python virtual environment (see venv.log)"; done
      return
    fi
  fi
  if ((install)); then
    "$venv_python" -m pip install -q -r bench/peers/python/requirements.txt >> "$scratch/venv.log" 2>&1 || true
  fi
  local peer module package version
  for peer in "${wanted[@]}"; do
    case $peer in
      cp-sat) module=ortools.sat.python.cp_model package=ortools ;;
      python-constraint2) module=constraint package=python-constraint2 ;;
    esac
    if version=$("$venv_python" -c "import importlib.metadata, $module; print(importlib.metadata.version('$package'))" 2> /dev/null); then
      peer_status "$peer" installed "$version" "PyPI $package in a virtual environment; $("$venv_python" --version)"
      enable "$peer"
    else
      peer_status "$peer" skipped - "PyPI $package could not be installed (see venv.log)"
    fi
  done
}

rust_bin="$scratch/rust/release"
setup_rust() {
  local wanted=() peer
  for peer in selen puzzle-solver sudoku-crate bitboard; do
    wants_peer "$peer" && wanted+=("$peer")
  done
  ((${#wanted[@]})) || return 0
  local offline=()
  ((install)) || offline=(--offline)
  if ! cargo build --release --quiet --locked "${offline[@]}" --manifest-path bench/peers/rust/Cargo.toml \
    --target-dir "$scratch/rust" 2> "$scratch/rust-build.log"; then
    for peer in "${wanted[@]}"; do peer_status "$peer" skipped - "the Rust drivers did not build (see rust-build.log)"; done
    return
  fi
  local crate version
  for peer in "${wanted[@]}"; do
    case $peer in
      selen) crate=selen ;;
      puzzle-solver) crate=puzzle-solver ;;
      sudoku-crate) crate=sudoku ;;
      bitboard)
        peer_status bitboard installed - "written for this suite (bench/peers/rust/src/bin/bitboard.rs)"
        enable bitboard
        continue ;;
    esac
    version=$(grep -A1 "^name = \"$crate\"$" bench/peers/rust/Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
    peer_status "$peer" installed "$version" "crates.io $crate"
    enable "$peer"
  done
}

say "== installing the peers into $scratch"
wants_peer gecode && setup_gecode
setup_python
setup_rust
for peer in ${all_peers//,/ }; do
  wants_peer "$peer" || peer_status "$peer" "not requested" - "not in --peers"
done
while IFS=$'\t' read -r peer status version note; do
  say "   $peer: $status${version:+ $version}${note:+ ($note)}"
done < "$results/peers.tsv"

# driver PEER: sets the array `cmd` to the peer's driver.
driver() {
  case $1 in
    gecode) cmd=("$scratch/gecode/driver") ;;
    cp-sat) cmd=("$venv_python" bench/peers/python/ortools_driver.py) ;;
    python-constraint2) cmd=("$venv_python" bench/peers/python/constraint2_driver.py) ;;
    selen) cmd=("$rust_bin/selen") ;;
    puzzle-solver) cmd=("$rust_bin/puzzle_solver") ;;
    sudoku-crate) cmd=("$rust_bin/sudoku_crate") ;;
    bitboard) cmd=("$rust_bin/bitboard") ;;
  esac
}

# run WORKLOAD KEY PEER BUDGET PARAMETERS: runs `cmd` under a wall-clock budget, keeps its lines
# in WORKLOAD/KEY/PEER.txt and notes the case in the manifest. PARAMETERS describe the case for
# the report (subset, limits).
run() {
  local workload=$1 key=$2 peer=$3 seconds=$4 parameters=$5
  local dir="$results/$workload/$key"
  mkdir -p "$dir"
  local status=0 started=$SECONDS
  timeout --kill-after=10 "$seconds" "${cmd[@]}" > "$dir/$peer.txt" 2> "$dir/$peer.log" || status=$?
  local state=finished
  case $status in
    0) ;;
    124 | 137) state="stopped by the ${seconds} s budget" ;;
    *) state="failed (exit $status, see $workload/$key/$peer.log)" ;;
  esac
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$workload" "$key" "$peer" "$state" "$parameters" \
    "$((SECONDS - started))" >> "$results/manifest.tsv"
  say "   $(printf '%-13s %-13s %-19s' "$workload" "$key" "$peer") $((SECONDS - started)) s, $(grep -cv '^#' "$dir/$peer.txt" || true) answers, $state"
}

# skip WORKLOAD KEY PEER REASON: notes in the manifest a case that is deliberately not run.
skip() {
  printf '%s\t%s\t%s\t%s\t\t0\n' "$1" "$2" "$3" "$4" >> "$results/manifest.tsv"
  say "   $(printf '%-13s %-13s %-19s' "$1" "$2" "$3") $4"
}

# ---------------------------------------------------------------------------------------------
# Sudoku: lexicographically smallest solution, any solution (smallest domain first), count up
# to 2, on every set.

sudoku_peers() {
  case $1 in
    lex) echo "cspkit gecode cp-sat selen" ;;
    mrv) echo "cspkit gecode cp-sat puzzle-solver python-constraint2 sudoku-crate" ;;
    count2) echo "cspkit gecode cp-sat puzzle-solver python-constraint2 selen sudoku-crate" ;;
  esac
}

if wants_workload sudoku; then
  for mode in lex mrv count2; do
    say "== sudoku $mode"
    for entry in "${datasets[@]}"; do
      dataset=${entry%%:*} file="$data/${entry#*:}"
      if [[ ! -f $file ]]; then
        say "   $dataset: $file is missing, skipped"
        continue
      fi
      puzzles=$(wc -l < "$file")
      for peer in $(sudoku_peers "$mode"); do
        [[ $peer == cspkit ]] || has_peer "$peer" || continue
        reason=$(skip_reason "$peer" "$dataset")
        if [[ -n $reason ]]; then
          skip "sudoku-$mode" "$dataset" "$peer" "$reason"
          continue
        fi
        limit=$(subset "$peer" "$dataset")
        if [[ -n $limit ]] && ((limit >= puzzles)); then limit=; fi
        if [[ $peer == cspkit ]]; then
          cmd=("$workloads_bin" sudoku "$file" --mode "$mode" --emit -)
        else
          driver "$peer"
          cmd+=(sudoku "$mode" "$file")
          [[ $peer == selen ]] && cmd+=(--timeout "$selen_timeout")
        fi
        if [[ -n $limit ]]; then cmd+=(--limit "$limit"); fi
        run "sudoku-$mode" "$dataset" "$peer" "$(budget "$peer")" \
          "${limit:+first $limit puzzles}$([[ $peer == selen ]] && echo "; ${selen_timeout} s per puzzle")"
      done
    done
  done
fi

# ---------------------------------------------------------------------------------------------
# Propagation levels, cspkit alone: none (with a node limit), forward and full on the same
# puzzles.

if wants_workload levels; then
  say "== propagation levels"
  for entry in "${datasets[@]}"; do
    dataset=${entry%%:*} file="$data/${entry#*:}"
    [[ $dataset == unbiased || $dataset == top1465 ]] || continue
    [[ -f $file ]] || continue
    for level in none forward full; do
      cmd=("$workloads_bin" sudoku "$file" --mode lex --propagation "$level" --limit "$level_puzzles" --emit -)
      parameters="first $level_puzzles puzzles"
      if [[ $level == none ]]; then
        cmd+=(--decision-limit "$level_node_limit")
        parameters+="; node limit $level_node_limit"
      fi
      run levels "$dataset-$level" cspkit "$fast_budget" "$parameters"
    done
  done
fi

# ---------------------------------------------------------------------------------------------
# N-Queens: count all solutions, first solution smallest domain first, lexicographically first
# placement.

# sizes_up_to MAX SIZES...: the sizes not above MAX.
sizes_up_to() {
  local max=$1 n
  shift
  for n in "$@"; do ((n <= max)) && printf '%s ' "$n"; done
  return 0
}

# queens_case WORKLOAD MODE PEER TIME_LIMIT SIZES...
queens_case() {
  local workload=$1 mode=$2 peer=$3 time_limit=$4
  shift 4
  (($#)) || return 0
  if [[ $peer == cspkit || $peer == cspkit-board ]]; then
    cmd=("$workloads_bin" queens "$mode" "$@" --emit -)
    [[ $peer == cspkit-board ]] && cmd+=(--model board)
    [[ -n $time_limit ]] && cmd+=(--time-limit "$time_limit")
  else
    has_peer "$peer" || return 0
    driver "$peer"
    cmd+=(queens "$mode" "$@")
    [[ -n $time_limit ]] && cmd+=(--timeout "$time_limit")
  fi
  run "$workload" all "$peer" "$(budget "$peer")" "n = $*${time_limit:+; ${time_limit} s per board}"
}

if wants_workload queens-count; then
  say "== queens count"
  sizes=$(seq -s ' ' 8 "$max_queens")
  small=$((quick ? 9 : 11))
  queens_case queens-count count cspkit "$count_time_limit" $sizes
  queens_case queens-count count cspkit-board "$count_time_limit" $sizes
  queens_case queens-count count bitboard "" $sizes
  queens_case queens-count count gecode "$count_time_limit" $sizes
  queens_case queens-count count cp-sat "$count_time_limit" $(sizes_up_to "$small" $sizes)
  queens_case queens-count count puzzle-solver "" $(sizes_up_to "$small" $sizes)
  queens_case queens-count count selen "$count_time_limit" $(sizes_up_to $((small - 1)) $sizes)
  queens_case queens-count count python-constraint2 "" $(sizes_up_to $((small - 1)) $sizes)
fi

if wants_workload queens-first; then
  say "== queens first solution, smallest domain first"
  queens_case queens-first mrv cspkit "$first_time_limit" $first_sizes
  queens_case queens-first mrv gecode "$first_time_limit" $first_sizes
  queens_case queens-first mrv cp-sat "$first_time_limit" $first_sizes
  queens_case queens-first mrv puzzle-solver "" $(sizes_up_to 64 $first_sizes)
  queens_case queens-first mrv python-constraint2 "" $(sizes_up_to 16 $first_sizes)
fi

if wants_workload queens-lex; then
  say "== queens lexicographically first placement"
  queens_case queens-lex lex cspkit "$lex_time_limit" $lex_sizes
  queens_case queens-lex lex cspkit-board "$lex_time_limit" $lex_sizes
  queens_case queens-lex lex bitboard "" $lex_sizes
  queens_case queens-lex lex gecode "$lex_time_limit" $lex_sizes
  queens_case queens-lex lex cp-sat "$lex_time_limit" $(sizes_up_to 20 $lex_sizes)
  queens_case queens-lex lex selen "$lex_time_limit" $(sizes_up_to 20 $lex_sizes)
fi

# ---------------------------------------------------------------------------------------------
# What a node costs the engine, on a fixed case of each workload: the instructions of the whole
# workloads program (callgrind), with the tree nodes, propagator runs and domain changes it
# counts. Instructions are the same from run to run on any load, unlike times.

# cost_case WORKLOAD CASE ARGS...: runs the workloads program on ARGS under callgrind and notes
# its instructions and the engine's counts in cost.tsv.
cost_case() {
  local workload=$1 case=$2
  shift 2
  local out="$results/cost/$workload-${case// /-}"
  mkdir -p "$results/cost"
  if ! valgrind --tool=callgrind --callgrind-out-file=/dev/null "$workloads_bin" "$@" \
    > /dev/null 2> "$out.log"; then
    say "   cost $workload $case: failed (see cost/$(basename "$out").log)"
    return 0
  fi
  local instructions aggregate
  instructions=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out.log" | tail -n 1)
  aggregate=$(grep "tree nodes," "$out.log" | tail -n 1 || true)
  printf '%s\t%s\t%s\t%s\n' "$workload" "$case" "$instructions" "$aggregate" >> "$results/cost.tsv"
  say "   cost $(printf '%-13s %-26s' "$workload" "$case") $instructions instructions"
}

if wants_workload cost; then
  say "== what a node costs"
  if command -v valgrind > /dev/null || apt_install valgrind; then
    meta "cost tool" "$(valgrind --version) (callgrind)"
    easy="$data/puzzles1_unbiased_first1000.txt" hard="$data/puzzles5_forum_hardest_1905_11+.txt"
    for mode in lex mrv count2; do
      [[ -f $easy ]] && cost_case "sudoku-$mode" "unbiased, first $cost_puzzles" \
        sudoku "$easy" --mode "$mode" --limit "$cost_puzzles" --emit -
      [[ -f $hard ]] && cost_case "sudoku-$mode" "hardest-1905, first $cost_puzzles" \
        sudoku "$hard" --mode "$mode" --limit "$cost_puzzles" --emit -
    done
    top="$data/puzzles3_magictour_top1465.txt"
    if [[ -f $top ]]; then
      cost_case levels "top1465 forward, first 20" sudoku "$top" --propagation forward --limit 20 --emit -
      cost_case levels "top1465 none, first 5" sudoku "$top" --propagation none --limit 5 \
        --decision-limit 100000 --emit -
    fi
    cost_case queens-count "n = $cost_count_n" queens count "$cost_count_n" --emit -
    cost_case queens-first "n = 8..32" queens mrv 8 16 32 --emit -
    cost_case queens-lex "n = $cost_lex_n" queens lex "$cost_lex_n" --emit -
    cost_case queens-count "n = $cost_count_n, board model" queens count "$cost_count_n" --model board --emit -
    cost_case queens-lex "n = $cost_lex_n, board model" queens lex "$cost_lex_n" --model board --emit -
  else
    say "   valgrind is not installed and could not be installed: skipped"
  fi
fi

# ---------------------------------------------------------------------------------------------
# Peak memory of the CLI, and its start-up plus one 9x9 solve.

# max_rss COMMAND...: runs the command (output discarded) and prints its peak resident set
# size in KiB.
max_rss() {
  if [[ -x /usr/bin/time ]] || apt_install time; then
    /usr/bin/time -v "$@" 2>&1 > /dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p'
  else
    python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
  fi
}

if wants_workload memory; then
  say "== peak memory"
  memory_file="$data/puzzles2_17_clue.txt"
  if [[ -n $memory_puzzles ]]; then
    head -n "$memory_puzzles" "$memory_file" > "$results/memory-puzzles.txt"
    memory_file="$results/memory-puzzles.txt"
  fi
  memory_lines=$(wc -l < "$memory_file")
  printf '%s\t%s\t%s\t%s\n' "cspkit sudoku --batch FILE" \
    "$(max_rss "$cli" sudoku --batch "$memory_file")" \
    "$(max_rss "$cli" --version)" "17-clue, $memory_lines puzzles" >> "$results/memory.tsv"
  printf '%s\t%s\t%s\t%s\n' "cspkit queens $queens_memory_n --count" \
    "$(max_rss "$cli" queens "$queens_memory_n" --count)" \
    "$(max_rss "$cli" --version)" "" >> "$results/memory.tsv"
  if [[ -x /usr/bin/time ]]; then
    meta "rss tool" "GNU time (/usr/bin/time -v)$(dpkg-query -W -f=' ${Version}' time 2> /dev/null || true)"
  else
    meta "rss tool" "getrusage (Python)"
  fi
fi

if wants_workload startup; then
  say "== start-up plus one 9x9 solve"
  head -n 1 "$data/puzzles3_magictour_top1465.txt" > "$results/one-puzzle.txt"
  if command -v hyperfine > /dev/null || apt_install hyperfine; then
    hyperfine -N --warmup 5 --runs "$startup_runs" --export-json "$results/startup.json" \
      "$cli sudoku $results/one-puzzle.txt" > "$results/startup.log" 2>&1
    meta "startup tool" "$(hyperfine --version)"
  else
    python3 - "$startup_runs" "$cli" "$results/one-puzzle.txt" > "$results/startup.json" <<'EOF'
import json, subprocess, sys, time
runs, command = int(sys.argv[1]), sys.argv[2:]
times = []
for _ in range(runs + 5):
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    times.append(time.perf_counter() - started)
print(json.dumps({"results": [{"command": " ".join(command), "times": times[5:]}]}))
EOF
    meta "startup tool" "a loop of $startup_runs runs in Python"
  fi
fi

# ---------------------------------------------------------------------------------------------
# Criterion micro-benchmarks.

if wants_workload micro; then
  say "== criterion micro-benchmarks"
  CRITERION_HOME="$results/criterion" CSPKIT_BENCH_DATA="$data" \
    cargo bench --quiet --bench micro -- "${micro_args[@]}" > "$results/micro.log" 2>&1 ||
    say "   the micro-benchmarks failed (see micro.log)"
fi

# ---------------------------------------------------------------------------------------------
# The machine, the tools, the report.

meta command "$command_line"
meta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
meta cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
meta nproc "$(nproc)"
meta memory "$(free -h | awk '/^Mem:/ {print $2}')"
meta kernel "$(uname -sr)"
meta load "$(cut -d ' ' -f 1-3 /proc/loadavg)"
meta cspkit "$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1) at $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src benches Cargo.toml || echo ' with local changes')"
meta rustc "$(rustc --version)"
meta cargo "$(cargo --version)"
meta criterion "$(grep -A1 '^name = "criterion"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')"
meta python "$(python3 --version)"
meta quick "$quick"
meta duration "$((SECONDS / 60)) min $((SECONDS % 60)) s"
meta data "$data"

say "== report"
status=0
python3 bench/report.py "$results" > "$results/report.tmp" || status=$?
mkdir -p "$(dirname "$out")"
mv "$results/report.tmp" "$out"
say "report: $out (raw results in $results)"
if ((status == 1)); then
  say "run.sh: some answers were wrong: see the validation section of the report"
fi
exit "$status"
