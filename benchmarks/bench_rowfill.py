"""Filling a (T, B, H) tensor a row at a time under grad (``out[t] = h`` in an unrolled
recurrence), against collecting the rows and stacking them, beside PyTorch.

A recorded ``x[key] = v`` writes into x's slot in place here while no recorded op read x's
values (ops/shape.py ``_put_in_place``), so the row-by-row fill is O(T), as PyTorch's
(before it, a copy of x per write made it O(T^2): docs/limits.md); ``torch.stack`` of the
rows is the other O(T) form.  Groups
``rowfill <form>``, phase ``fwd+bwd``; ``test_rowfill_agrees`` checks the gradients.
"""
import numpy as np
import pytest
from bench_scripts import LIBRARIES, _module

T, B, H = 100, 16, 64
FORMS = ("setitem", "stack")


def build(mod, form):
    """step() runs the recurrence once with a backward; returns W's gradient."""
    w = mod.tensor(np.random.default_rng(0).standard_normal((H, H)) * 0.1, requires_grad=True)
    x = mod.ones(B, H, dtype=mod.float64)

    def step():
        w.grad = None
        h = x
        out = mod.zeros(T, B, H, dtype=mod.float64) if form == "setitem" else []
        for t in range(T):
            h = mod.tanh(h @ w)
            if form == "setitem":
                out[t] = h
            else:
                out.append(h)
        out = out if form == "setitem" else mod.stack(out)
        (out ** 2).sum().backward()
        return w.grad.numpy().copy()

    return step


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("form", FORMS)
def test_rowfill(phase, form, lib):
    mod = _module(lib)
    step = build(mod, form)
    step()  # warm-up (untimed)
    library = "tapegrad" if lib == "tapegrad" else f"torch {mod.__version__} (1 thread)"
    phase(step, group=f"rowfill {form}", library=library, phase="fwd+bwd", ops=None)


@pytest.mark.parametrize("form", FORMS)
def test_rowfill_agrees(form):
    got, want = (build(_module(lib), form)() for lib in LIBRARIES)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
