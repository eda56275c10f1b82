"""Bad models and options raise CspkitError (a ValueError) naming what is wrong."""

import pytest

import cspkit


def test_cspkit_error_is_a_value_error():
    assert issubclass(cspkit.CspkitError, ValueError)


def test_an_empty_domain_names_the_variable():
    m = cspkit.Model()
    with pytest.raises(cspkit.CspkitError, match="z"):
        m.int_var(5, 1, "z")


def test_unknown_option_and_unknown_names_list_the_choices():
    m = cspkit.queens(4)
    with pytest.raises(cspkit.CspkitError, match="frobnicate.*var_order"):
        m.solve(frobnicate=1)
    with pytest.raises(cspkit.CspkitError, match="var_order.*bogus.*mrv"):
        m.solve(var_order="bogus")
    with pytest.raises(cspkit.CspkitError, match="value_order.*lcv"):
        m.count(value_order="upwards")
    with pytest.raises(cspkit.CspkitError, match="propagation"):
        m.count(propagation="magic")
    with pytest.raises(cspkit.CspkitError, match="branching"):
        m.count(branching="sideways")
    with pytest.raises(cspkit.CspkitError, match="time_limit"):
        m.count(time_limit=-1.0)


def test_variables_of_two_models_do_not_mix():
    a, b = cspkit.Model(), cspkit.Model()
    x, y = a.int_var(0, 1, "x"), b.int_var(0, 1, "y")
    with pytest.raises(cspkit.CspkitError, match="two different models"):
        x + y
    with pytest.raises(cspkit.CspkitError, match="another model"):
        a += y == 1


def test_a_constraint_has_no_truth_value_and_a_bool_is_no_constraint():
    m = cspkit.Model()
    x = m.int_var(0, 1)
    with pytest.raises(TypeError, match="post it"):
        if x == 1:
            pass
    with pytest.raises(cspkit.CspkitError, match="boolean"):
        m += 1 == 2


def test_multiplying_two_variables_is_refused():
    m = cspkit.Model()
    x, y = m.int_var(0, 3), m.int_var(0, 3)
    with pytest.raises(cspkit.CspkitError, match="integer constant"):
        x * y


def test_library_errors_carry_their_message():
    m = cspkit.Model()
    a, b = m.int_var(0, 3, "a"), m.int_var(0, 3, "b")
    with pytest.raises(cspkit.CspkitError) as raised:
        m += cspkit.table([a, b], [(0, 1, 2)])
    assert str(raised.value)  # the library's own message, not empty
    with pytest.raises(cspkit.CspkitError, match="sudoku|grid|line|character|cell|81"):
        cspkit.sudoku("not a grid")
