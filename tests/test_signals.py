"""puzzles/signals.py's held signals, where they matter most: a PySAT solver deleted
(formulations/pysat_solvers.py's `deleted`) while a SIGTERM or Ctrl-C arrives. Run unheld, the handler raises between
the C solver's deletion and PySAT's note of it, and the solver is deleted a second time when collected: the generator
crashed so on SIGTERM (exit -11)."""
from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from types import FrameType

import pytest
from pysat.solvers import Solver

from formulations.pysat_solvers import deleted, opened
from puzzles.signals import signals_held


class Signalled(Exception):
    pass


def raise_signalled(signum: int, frame: FrameType | None) -> None:
    raise Signalled(signal.Signals(signum).name)


@pytest.fixture
def raising_on_sigterm() -> Iterator[None]:
    previous = signal.signal(signal.SIGTERM, raise_signalled)
    yield
    signal.signal(signal.SIGTERM, previous)


def signalled_inside_its_deletion(sat: Solver) -> None:
    """The solver's C deletion, with a SIGTERM sent to this process just before it starts."""
    backend = sat.solver
    real = backend.delete

    def delete() -> None:
        backend.delete = real  # once: a later deletion (its own, when collected) sends nothing
        os.kill(os.getpid(), signal.SIGTERM)
        real()

    backend.delete = delete


@pytest.mark.usefixtures("raising_on_sigterm")
def test_a_signal_waits_until_the_solver_is_deleted_and_noted() -> None:
    sat = Solver(name="cadical195", bootstrap_with=[[1, 2], [-1, 2]])
    signalled_inside_its_deletion(sat)
    with pytest.raises(Signalled):  # the signal is not lost: it is handled once the deletion is done
        deleted(sat)
    assert sat.solver is None  # PySAT noted the deletion: nothing is left to delete twice


@pytest.mark.usefixtures("raising_on_sigterm")
def test_a_with_block_closes_its_solver_the_same_way() -> None:
    with pytest.raises(Signalled), opened("minisat22", bootstrap_with=[[1]]) as sat:
        assert sat.solve() and sat.get_model() == [1]
        signalled_inside_its_deletion(sat)
    assert sat.solver is None


@pytest.mark.usefixtures("raising_on_sigterm")
def test_unheld_the_handler_interrupts_the_deletion() -> None:
    """The hazard itself, shown without the hold: the handler runs before the deletion is noted."""
    sat = Solver(name="minisat22")
    signalled_inside_its_deletion(sat)
    with pytest.raises(Signalled):
        sat.delete()
    assert sat.solver is not None
    with signals_held():  # the backend's own deletion again, now run whole
        sat.delete()
    assert sat.solver is None


@pytest.mark.usefixtures("raising_on_sigterm")
def test_a_block_finishes_before_the_signal_is_raised_to_the_handler_it_found() -> None:
    done = []
    with pytest.raises(Signalled), signals_held():
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGTERM)  # two: the first is raised, once
        done.append("written")
    assert done == ["written"]
    assert signal.getsignal(signal.SIGTERM) is raise_signalled
