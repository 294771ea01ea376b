"""examples/study.ipynb runs from top to bottom, as a reader would run it (its deps: the docs extra)."""
from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the docs extra: pip install -e '.[docs]'")
nbclient = pytest.importorskip("nbclient", reason="the docs extra: pip install -e '.[docs]'")

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "study.ipynb"


@pytest.mark.slow
def test_the_study_notebook_runs_and_shows_its_results() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), \
        "commit the notebook without outputs (they hold the machine's paths and timings)"
    client = nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()  # a cell that raises fails here, with its traceback (its asserts included)
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    shown = "".join(o.get("data", {}).get("text/plain", "") for o in outputs)
    assert "mrv:propagate=singles" in shown and "settled %" in shown  # the effort table and the ladder's shares
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 2, "the effort plot and the ladder's shares"
