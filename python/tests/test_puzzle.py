"""The Sudoku tools from Python (generate, grade, explain, hint, why) against the native
`cspkit sudoku --generate | --grade | --explain | --hint | --why`."""

import subprocess

import pytest

import cspkit
from conftest import REPO

SAMPLES = REPO / "samples" / "sudoku"

#: No solution, and no chain of single-unit deductions shows it (the library's example).
NO_SOLUTION = "301800000000009400080005000000100600100004830090502000400007050709040006002000907"


def cli_lines(cli, *args):
    """The lines `cspkit args...` prints on standard output, whatever its exit code."""
    done = subprocess.run([cli, *args], capture_output=True, text=True, timeout=120)
    assert "panicked" not in done.stderr, done.stderr
    return done.stdout.splitlines()


def grid_file(tmp_path, text):
    path = tmp_path / "puzzle.txt"
    path.write_text(text + "\n")
    return str(path)


@pytest.mark.parametrize(
    "args, keywords",
    [
        (["--seed", "3"], {"seed": 3}),
        (["--seed", "7", "--clues", "30", "--symmetric"], {"seed": 7, "clues": 30, "symmetric": True}),
        (["--seed", "2", "--difficulty", "hard"], {"seed": 2, "difficulty": "hard"}),
        (["--seed", "1", "--size", "4"], {"seed": 1, "size": 4}),
    ],
)
def test_generate_makes_the_command_lines_puzzle(cli, args, keywords):
    puzzle = cspkit.sudoku_generate(**keywords)
    assert [puzzle] == cli_lines(cli, "sudoku", "--generate", *args)
    side = keywords.get("size", 9)
    assert len(puzzle) == side * side
    # A generated puzzle has exactly one solution.
    assert cspkit.sudoku(puzzle).count() == 1


def test_a_generated_puzzle_has_the_difficulty_asked_for():
    easy = cspkit.sudoku(cspkit.sudoku_generate(seed=4, difficulty="easy"))
    assert easy.grade()["difficulty"] == "forward"
    hard = cspkit.sudoku(cspkit.sudoku_generate(seed=4, difficulty="hard"))
    assert hard.grade()["difficulty"] == "search"


@pytest.mark.parametrize("name", ["2239.txt", "hard.txt"])
def test_grade_says_what_the_command_line_says(cli, name):
    native = cli_lines(cli, "sudoku", str(SAMPLES / name), "--grade")
    grade = cspkit.sudoku((SAMPLES / name).read_text()).grade()
    hardest = f" (hardest technique: {grade['hardest']})" if grade["hardest"] else ""
    techniques = ", ".join(f"{name} {n}" for name, n in grade["techniques"].items())
    assert native == [
        f"difficulty: {grade['difficulty']}{hardest}",
        f"rounds: {grade['rounds']}",
        f"decisions: {grade['decisions']}",
        f"techniques: {techniques}",
        f"rating: {grade['rating']:.1f} (Sudoku Explainer scale; hardest step: {grade['rating_hardest']})",
        f"level: {grade['level']} (technique ladder)",
        "solutions: 1",
    ]
    assert grade["unique"] is True


@pytest.mark.parametrize("name", ["2239.txt", "hard.txt"])
def test_explain_and_hint_are_the_command_lines_lines(cli, name):
    sudoku = cspkit.sudoku((SAMPLES / name).read_text())
    path = sudoku.explain()
    assert path == cli_lines(cli, "sudoku", str(SAMPLES / name), "--explain")
    assert path[-1] == "solved"
    assert [sudoku.hint()] == cli_lines(cli, "sudoku", str(SAMPLES / name), "--hint")


def test_explain_of_a_puzzle_without_solution_ends_saying_so(cli, tmp_path):
    path = cspkit.sudoku(NO_SOLUTION).explain()
    assert path == cli_lines(cli, "sudoku", grid_file(tmp_path, NO_SOLUTION), "--explain")
    assert path[-1].endswith("the puzzle has none")
    with pytest.raises(cspkit.CspkitError, match="no solution"):
        cspkit.sudoku(NO_SOLUTION).grade()


def test_why_without_a_cell_names_the_givens_that_clash(cli, tmp_path):
    clash = "11" + "." * 79
    found = cspkit.sudoku(clash).why()
    assert found["givens"] == [(1, 1, 1), (1, 2, 1)]
    assert found["minimal"] is True
    assert found["lines"] == cli_lines(cli, "sudoku", grid_file(tmp_path, clash), "--why")
    deep = cspkit.sudoku(NO_SOLUTION).why()
    assert deep["lines"] == cli_lines(cli, "sudoku", grid_file(tmp_path, NO_SOLUTION), "--why")
    assert deep["lines"][-1].strip().startswith("(the search proves it")
    # Each given named is one of the puzzle's, at its place.
    for row, col, value in deep["givens"]:
        assert NO_SOLUTION[(row - 1) * 9 + col - 1] == str(value)
    assert cspkit.sudoku((SAMPLES / "2239.txt").read_text()).why() is None


def test_why_of_a_cell_is_the_line_of_the_path_that_places_it():
    text = (SAMPLES / "2239.txt").read_text()
    sudoku = cspkit.sudoku(text)
    path = sudoku.explain()
    grid = "".join(ch for ch in text if ch.isdigit() or ch == ".")
    for row in range(1, 10):
        for col in range(1, 10):
            line = sudoku.why(row, col)
            if grid[(row - 1) * 9 + col - 1] not in ".0":
                assert line is None
            else:
                assert line in path
                assert line.startswith(f"r{row}c{col} = ") or f"r{row}c{col}" in line


def test_bad_arguments_raise_cspkit_errors_naming_them():
    sudoku = cspkit.sudoku((SAMPLES / "2239.txt").read_text())
    with pytest.raises(cspkit.CspkitError, match="row is 1-based"):
        sudoku.why(0, 3)
    with pytest.raises(cspkit.CspkitError, match="both row and col"):
        sudoku.why(3)
    with pytest.raises(cspkit.CspkitError, match="rows and columns 1 to 9"):
        sudoku.why(10, 1)
    with pytest.raises(cspkit.CspkitError, match="size 7"):
        cspkit.sudoku_generate(size=7)
    with pytest.raises(cspkit.CspkitError, match='difficulty "extreme"'):
        cspkit.sudoku_generate(difficulty="extreme")
    with pytest.raises(cspkit.CspkitError, match="clues 90"):
        cspkit.sudoku_generate(clues=90)
    with pytest.raises(cspkit.CspkitError, match="decision_limit"):
        sudoku.grade(decision_limit=-1)
    with pytest.raises(cspkit.CspkitError, match="time_limit"):
        sudoku.explain(time_limit=-1.0)


def test_a_limit_reached_is_reported_never_taken_for_an_answer():
    hard = cspkit.sudoku(cspkit.sudoku_generate(seed=4, difficulty="hard"))
    with pytest.raises(cspkit.CspkitError, match="decision limit reached, decision_limit"):
        hard.grade(decision_limit=0)
