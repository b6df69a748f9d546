"""Rule helpers shared by the op families' rules and the interpreters of ``_sweep.py``:
unsigned/signed index casts, and marking an input slot reached (zeroing its adjoints on
first touch).  The bottom floor of the compiled code: it imports no op.
"""
import numpy as np

from ._jit import rule


@rule
def _u(x):
    return np.uint64(x)


@rule
def _s(x):
    return np.int64(x)


@rule
def reach_input(adj, reach, offs, s, w):
    """Slot ``s`` is an input of a row the reverse sweep runs.  The first time (sweeping
    backwards: before its first rule accumulates into it) its adjoints are zeroed, in
    cache, so the adjoint buffer is never zeroed as a whole (engine.py; in batch replay
    every slot is reached from the start and the buffer is zeroed per block)."""
    if reach[s] == 0:
        reach[s] = 1
        for i in range(_u(offs[s]) * _u(w), _u(offs[s + 1]) * _u(w)):
            adj[i] = 0.0


@rule
def claim_input(adj, reach, offs, s, w, direct):
    """reach_input for a rule that can write its first contribution straight into the
    span (``direct``: a BLAS product, instead of zeroing, a temporary and an add).
    Returns True when it must: the span was reached first here and was not zeroed."""
    if direct and reach[s] == 0:
        reach[s] = 1
        return True
    reach_input(adj, reach, offs, s, w)
    return False


@rule
def add_into(adj, i, g, fresh):
    """``adj[i] += g``, where ``fresh`` says the sweep did not zero the span first (its first
    touch, by a row that writes each of its elements once: _sweep._writes_once): set to
    ``g + 0.0``, the value zeroing and adding gives (a -0.0 comes out +0.0 either way),
    without the zeroing pass and the read (a k-means objective's 1.6M-element chain)."""
    if fresh:
        adj[i] = g + 0.0
    else:
        adj[i] += g
