// Gecode driver for bench/run.sh: the same workloads and output lines as every driver
// (see bench/peers/rust/src/lib.rs for the protocol).
//
//   driver sudoku lex|mrv|count2 FILE [--limit K] [--timeout SECONDS]
//   driver queens count|mrv|lex N... [--timeout SECONDS]
//
// Sudoku: 81 variables 1..9, `distinct` with IPL_DOM (domain consistency) on every row,
// column and block, on a space built once for the empty grid; each puzzle clones it and posts
// its givens with `rel`. lex and count2 branch with INT_VAR_NONE and
// INT_VAL_MIN (first unassigned variable, smallest value), mrv with INT_VAR_SIZE_MIN.
// N-Queens: one variable per row, three `distinct` (columns, and the rows with offsets i and
// -i for the diagonals) at the default propagation level; count and lex branch with
// INT_VAR_NONE, mrv with INT_VAR_SIZE_MIN, values smallest first. One thread.
// Times cover building the space and searching; nodes and failures are Gecode's statistics.

#include <gecode/int.hh>
#include <gecode/search.hh>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace Gecode;

namespace {

enum class Order { Input, SmallestDomain };

void post_branching(Space& home, const IntVarArray& x, Order order) {
  if (order == Order::Input) {
    branch(home, x, INT_VAR_NONE(), INT_VAL_MIN());
  } else {
    branch(home, x, INT_VAR_SIZE_MIN(), INT_VAL_MIN());
  }
}

class SudokuSpace : public Space {
 public:
  IntVarArray cells;

  // The model of the empty grid, with its branching: built once, then cloned per puzzle.
  SudokuSpace(Order order) : cells(*this, 81, 1, 9) {
    for (int g = 0; g < 9; g++) {
      IntVarArgs row, column, block;
      for (int k = 0; k < 9; k++) {
        row << cells[g * 9 + k];
        column << cells[k * 9 + g];
        block << cells[(g / 3 * 3 + k / 3) * 9 + g % 3 * 3 + k % 3];
      }
      distinct(*this, row, IPL_DOM);
      distinct(*this, column, IPL_DOM);
      distinct(*this, block, IPL_DOM);
    }
    post_branching(*this, cells, order);
  }

  // Posts a puzzle's givens on a clone of the empty grid's space.
  void givens(const std::string& puzzle) {
    for (int i = 0; i < 81; i++) {
      char c = puzzle[i];
      if (c >= '1' && c <= '9') rel(*this, cells[i], IRT_EQ, c - '0');
    }
  }

  SudokuSpace(SudokuSpace& other) : Space(other) { cells.update(*this, other.cells); }

  Space* copy() override { return new SudokuSpace(*this); }

  std::string text() const {
    std::string out;
    for (int i = 0; i < 81; i++) out += char('0' + cells[i].val());
    return out;
  }
};

class QueensSpace : public Space {
 public:
  IntVarArray rows;

  QueensSpace(int n, Order order) : rows(*this, n, 1, n) {
    IntArgs up(n), down(n);
    for (int i = 0; i < n; i++) {
      up[i] = i;
      down[i] = -i;
    }
    distinct(*this, rows);
    distinct(*this, up, rows);
    distinct(*this, down, rows);
    post_branching(*this, rows, order);
  }

  QueensSpace(QueensSpace& other) : Space(other) { rows.update(*this, other.rows); }

  Space* copy() override { return new QueensSpace(*this); }

  std::string text() const {
    std::string out;
    for (int i = 0; i < rows.size(); i++) {
      if (i > 0) out += ',';
      out += std::to_string(rows[i].val());
    }
    return out;
  }
};

struct Answer {
  std::string text;
  unsigned long nodes = 0;
  unsigned long failures = 0;
};

// Runs a depth-first search on `root` (which it takes): the first solution rendered, or up to
// `max` solutions counted when `max` > 0.
template <class S>
Answer search(S* root, unsigned long max, double timeout) {
  Search::Options options;
  options.threads = 1;
  std::unique_ptr<Search::Stop> stop(
      new Search::TimeStop(static_cast<unsigned long>(timeout * 1000)));
  options.stop = stop.get();
  DFS<S> engine(root, options);
  delete root;
  Answer answer;
  unsigned long found = 0;
  while (S* solution = engine.next()) {
    found++;
    if (max == 0) answer.text = solution->text();
    delete solution;
    if (max == 0 || found >= max) break;
  }
  if (engine.stopped()) {
    answer.text = "limit";
  } else if (max > 0) {
    answer.text = std::to_string(found);
  } else if (found == 0) {
    answer.text = "none";
  }
  answer.nodes = engine.statistics().node;
  answer.failures = engine.statistics().fail;
  return answer;
}

void emit(const std::string& item, const Answer& answer, double micros) {
  std::printf("%s %s %.1f %lu %lu\n", item.c_str(), answer.text.c_str(), micros, answer.nodes,
              answer.failures);
  std::fflush(stdout);
}

template <class Work>
double timed(Work work) {
  auto started = std::chrono::steady_clock::now();
  work();
  std::chrono::duration<double, std::micro> elapsed = std::chrono::steady_clock::now() - started;
  return elapsed.count();
}

int usage() {
  std::cerr << "usage: driver sudoku lex|mrv|count2 FILE [--limit K] [--timeout SECONDS]\n"
               "       driver queens count|mrv|lex N... [--timeout SECONDS]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> positional;
  long limit = -1;
  double timeout = 60;
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    if (arg == "--limit" && i + 1 < argc) {
      limit = std::stol(argv[++i]);
    } else if (arg == "--timeout" && i + 1 < argc) {
      timeout = std::stod(argv[++i]);
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() < 3) return usage();
  const std::string& problem = positional[0];
  const std::string& mode = positional[1];
  Order order = mode == "mrv" ? Order::SmallestDomain : Order::Input;

  if (problem == "sudoku" && (mode == "lex" || mode == "mrv" || mode == "count2")) {
    std::ifstream file(positional[2]);
    if (!file) {
      std::cerr << positional[2] << ": cannot open\n";
      return 2;
    }
    std::string line;
    long done = 0;
    // As cspkit's driver does: the model of the empty grid is built once (Gecode's idiom for
    // many instances of one model is to clone a stable base space), each puzzle timed from the
    // clone to the answer.
    SudokuSpace base(order);
    base.status();
    for (long number = 1; std::getline(file, line); number++) {
      if (line.size() != 81) continue;
      if (limit >= 0 && done >= limit) break;
      Answer answer;
      double micros = timed([&] {
        auto* space = static_cast<SudokuSpace*>(base.clone());
        space->givens(line);
        answer = search(space, mode == "count2" ? 2 : 0, timeout);
      });
      emit(std::to_string(number), answer, micros);
      done++;
    }
    return 0;
  }
  if (problem == "queens" && (mode == "count" || mode == "mrv" || mode == "lex")) {
    for (size_t i = 2; i < positional.size(); i++) {
      int n = std::stoi(positional[i]);
      Answer answer;
      double micros = timed([&] {
        answer = search(new QueensSpace(n, order), mode == "count" ? ~0UL : 0, timeout);
      });
      emit(positional[i], answer, micros);
    }
    return 0;
  }
  return usage();
}
