"""In-place writes that read a tensor sharing part of the written tensor's memory
(``x[1:] -= x[:-1]``, ``m.copy_(m.t())``): PyTorch refuses them (its kernels would read
elements already written; assert_no_partial_overlap), and lets pass full overlap, no
overlap, and layouts with gaps or repeats, which it cannot tell cheaply.  Each case
against PyTorch: the same refusal, or the same values and gradients."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle

CASES = {
    "x[:-3] += x[3:]": lambda L, b: b[:-3].add_(b[3:]),
    "x[1:] -= x[:-1]": lambda L, b: b[1:].sub_(b[:-1]),
    "x[:4] *= x[2:6] (operator)": lambda L, b: b[:4].__imul__(b[2:6]),
    "x[:4] /= x[2:6]": lambda L, b: b[:4].div_(b[2:6]),
    "add_ alpha": lambda L, b: b[:4].add_(b[2:6], alpha=2),
    "0-d inside": lambda L, b: b[:2].add_(b[1]),
    "0-d outside": lambda L, b: b[1:].add_(b[0]),
    "broadcast inside": lambda L, b: b[:4].view(2, 2).add_(b[1:3]),
    "broadcast outside": lambda L, b: b[:4].view(2, 2).add_(b[5:7]),
    "square transpose": lambda L, b: b[:4].view(2, 2).mul_(b[:4].view(2, 2).t()),
    "same memory": lambda L, b: b.add_(b),
    "same view": lambda L, b: b[:4].add_(b[:4]),
    "full view": lambda L, b: b.add_(b[:]),
    "disjoint rows": lambda L, b: b.view(2, 4)[0].add_(b.view(2, 4)[1]),
    "strided (not dense)": lambda L, b: b[::2].add_(b[1::2]),
    "columns (not dense)": lambda L, b: b.view(2, 4)[:, :2].add_(b.view(2, 4)[:, 2:]),
    "base += its view": lambda L, b: b.view(2, 4).add_(b.view(2, 4)[0]),
    "detach of a view": lambda L, b: b[:4].add_(b.detach()[2:6]),
    "copy_ overlapping": lambda L, b: b[:-3].copy_(b[3:]),
    "copy_ 0-d": lambda L, b: b[:4].copy_(b[1]),
    "copy_ transpose": lambda L, b: b[:4].view(2, 2).copy_(b[:4].view(2, 2).t()),
    "pow_": lambda L, b: b[:4].pow_(b[2:6]),
    "atan2_": lambda L, b: b[:4].atan2_(b[2:6]),
    "lerp_": lambda L, b: b[:4].lerp_(b[2:6], 0.5),
    "addcmul_": lambda L, b: b[:4].addcmul_(b[2:6], b[:4]),
    "clamp_ by tensor": lambda L, b: b[:4].clamp_(b[2:6]),
    "masked_fill_ (a value)": lambda L, b: b[:4].masked_fill_(b[2:6] > 3, 0.0),
    "fill_ 0-d view": lambda L, b: b[:4].fill_(b[1]),
}


def _run(L, case, grad):
    x = L.arange(1.0, 9.0, dtype=L.float64, requires_grad=grad)
    b = x * 1 if grad else x
    try:
        CASES[case](L, b)
    except RuntimeError as e:
        return "raised", str(e)
    out = [b.detach().numpy().copy()]
    if grad:
        (b * L.arange(1.0, 9.0, dtype=L.float64)).sum().backward()
        out.append(x.grad.numpy())
    return "ran", out


@pytest.mark.parametrize("grad", [False, True], ids=["values", "recorded"])
@pytest.mark.parametrize("case", list(CASES))
def test_partial_overlap_as_pytorch(case, grad, torch):
    got, want = _run(tg, case, grad), _run(torch, case, grad)
    assert got[0] == want[0], (got, want)
    if got[0] == "raised":
        assert got[1] == want[1]
    else:
        for a, w in zip(got[1], want[1], strict=True):
            np.testing.assert_allclose(a, w, rtol=1e-12)


def test_refused_write_leaves_values_and_tape_alone(raises_as_torch):
    def call(L):
        b = L.arange(8.0, dtype=L.float64)
        b[:-3].add_(b[3:])
    raises_as_torch(call)
    b = tg.arange(8.0)
    with pytest.raises(RuntimeError):
        b[1:].sub_(b[:-1])
    assert b.tolist() == list(range(8))


@pytest.mark.parametrize("grad", [False, True])
def test_setitem_from_an_overlapping_view_copies_first(grad):
    # (PyTorch refuses ``x[:4] = x[2:6]``; here, by design, it writes the value as read
    # before the write, NumPy's answer: docs/limits.md)
    x = tg.arange(1.0, 9.0, dtype=tg.float64, requires_grad=grad)
    b = x * 1 if grad else x
    b[:4] = b[2:6]
    assert b.tolist() == [3.0, 4.0, 5.0, 6.0, 5.0, 6.0, 7.0, 8.0]
    if grad:
        (b * tg.arange(1.0, 9.0, dtype=tg.float64)).sum().backward()
        assert x.grad.tolist() == [0.0, 0.0, 1.0, 2.0, 8.0, 10.0, 7.0, 8.0]


@pytest.mark.parametrize("read", ["whole", "shifted", "disjoint"])
def test_a_parameter_read_by_a_write_into_its_view_as_pytorch(read, torch):
    # (a Parameter is a Tensor subclass: under no_grad, p[:2].add_(p) reads all of p)
    def run(L):
        p = L.nn.Parameter(L.arange(1.0, 7.0, dtype=L.float64))
        src = {"whole": p, "shifted": p[1:3], "disjoint": p[4:6]}[read]
        with L.no_grad():
            try:
                p[:2].add_(src)
            except RuntimeError as e:
                return str(e)
        return p.detach().numpy().tolist()
    assert run(tg) == run(torch)
