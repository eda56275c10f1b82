"""The tutorial notebook (notebooks/tutorial.ipynb) runs headless, top to bottom, without an
error (nbclient, a kernel of this Python), and is stored without outputs or machine paths.
"""

import json
import pathlib
import re
import sys

import pytest

NOTEBOOK = pathlib.Path(__file__).resolve().parents[1] / "notebooks" / "tutorial.ipynb"


def test_stored_clean():
    raw = NOTEBOOK.read_text(encoding="utf-8")
    nb = json.loads(raw)
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code, "no code cells"
    for cell in code:
        assert cell["outputs"] == [] and cell["execution_count"] is None, cell["source"][:60]
    assert "widgets" not in nb["metadata"], "saved widget state"
    assert not re.search(r"/(work|tmp|root|home)/", raw), "a machine path in the notebook"


def test_runs_headless(tmp_path, monkeypatch):
    nbformat = pytest.importorskip(
        "nbformat", reason="the notebook test needs nbclient and ipykernel: pip install nbclient ipykernel"
    )
    nbclient = pytest.importorskip(
        "nbclient", reason="the notebook test needs nbclient and ipykernel: pip install nbclient ipykernel"
    )
    pytest.importorskip(
        "ipykernel", reason="the notebook test needs nbclient and ipykernel: pip install nbclient ipykernel"
    )
    pytest.importorskip(
        "anywidget", reason='the tutorial shows the tree widget: pip install "cspkit[notebook]"'
    )
    # A kernel of this very Python (the one with cspkit installed), whatever kernels the
    # machine has registered.
    spec = tmp_path / "kernels" / "cspkit-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps({
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "cspkit test",
            "language": "python",
        })
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    nb = nbformat.read(str(NOTEBOOK), as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=300,
        kernel_name="cspkit-test",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on an error

    outputs = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for out in cell.outputs:
            assert out.get("output_type") != "error", cell.source
            outputs.append(out)
    text = "\n".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    # Figures a course can check independently: 8-Queens has 92 solutions, 11-Queens 2680,
    # Australia has 18 colourings with 3 colours, and SEND+MORE=MONEY is 9567+1085=10652.
    assert re.search(r"\b92$", text, re.M)
    assert "complete 2680 solutions" in text
    assert "18 colourings in all" in text
    assert "S=9 E=5 N=6 D=7 M=1 O=0 R=8 Y=2" in text
    widgets = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(widgets) >= 4, "the tree widgets were not displayed"
    # The live widget's updates, sent from its search thread, went through the real kernel
    # (nbclient keeps the last state each widget sent while a cell ran: here, the cell that
    # waits for the 11-Queens search).
    states = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    live = [
        s["state"] for s in states.values()
        if s["state"].get("solutions") == 2680 and "page" in s["state"]
    ]
    assert len(live) == 1, "no state of the live widget reached the notebook"
    assert live[0]["status"] == "complete" and live[0]["pages"] >= 2 and not live[0]["live"]
    assert "(the first 100000 of" in live[0]["page"]
