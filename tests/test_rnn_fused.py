"""The fused recurrent cell rows (ops/nn.py LSTM_CELL, GRU_CELL; issue 20): nn.LSTM, nn.GRU
and their cells record one row of gates a step.  Every option against PyTorch (outputs,
final states, the gradients of the input, the initial states and every parameter), the
fused path taken (rows per step), finite differences in float64 (first and second order,
forward mode), replay and save/load of a graph holding the rows, and crafted rows refused
at load."""
import io

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.ops import nn as N
from tapegrad.replay import validate
from tapegrad.tape import OP_MASK
from test_hostile21 import _arrays, _file  # (a trace's arrays; a file of them, re-digested)

pytestmark = pytest.mark.oracle

# name: (build(nn), input shape, initial states given, packed lengths or None)
CASES = {
    "LSTM": (lambda nn: nn.LSTM(3, 4), (5, 2, 3), True, None),
    "LSTM_2_layers_bidirectional_dropout_eval": (
        lambda nn: nn.LSTM(3, 4, 2, dropout=0.5, bidirectional=True), (4, 3, 3), True, None),
    "LSTM_proj_batch_first_no_state": (
        lambda nn: nn.LSTM(3, 5, 2, batch_first=True, proj_size=2), (2, 4, 3), False, None),
    "LSTM_no_bias_unbatched": (lambda nn: nn.LSTM(3, 4, bias=False), (5, 3), True, None),
    "LSTM_packed_bidirectional": (lambda nn: nn.LSTM(3, 4, bidirectional=True), (5, 3, 3),
                                  True, [5, 2, 4]),
    "GRU": (lambda nn: nn.GRU(3, 4), (5, 2, 3), True, None),
    "GRU_2_layers_bidirectional_dropout_eval": (
        lambda nn: nn.GRU(3, 4, 2, dropout=0.5, bidirectional=True), (4, 3, 3), True, None),
    "GRU_batch_first_no_state": (lambda nn: nn.GRU(3, 4, batch_first=True), (2, 4, 3), False,
                                 None),
    "GRU_no_bias_unbatched": (lambda nn: nn.GRU(3, 4, bias=False), (5, 3), True, None),
    "GRU_packed_2_layers": (lambda nn: nn.GRU(3, 4, 2), (5, 3, 3), True, [3, 5, 1]),
    "LSTMCell": (lambda nn: nn.LSTMCell(3, 4), (2, 3), True, None),
    "LSTMCell_no_bias_no_state": (lambda nn: nn.LSTMCell(3, 4, bias=False), (2, 3), False, None),
    "LSTMCell_unbatched": (lambda nn: nn.LSTMCell(3, 4), (3,), True, None),
    "GRUCell": (lambda nn: nn.GRUCell(3, 4), (2, 3), True, None),
    "GRUCell_no_bias_unbatched": (lambda nn: nn.GRUCell(3, 4, bias=False), (3,), True, None),
}


def _flat(out):
    if not isinstance(out, tuple):
        return [out]
    return [t for o in out for t in _flat(o)]


def _run(L, mod, x, states, lengths, us, dtype):
    """Outputs and gradients (input, states, parameters) of sum(output_i * u_i)."""
    xt = L.tensor(x.astype(dtype), requires_grad=True)
    sts = [L.tensor(s.astype(dtype), requires_grad=True) for s in states]
    lstm = type(mod).__name__.startswith("LSTM")
    hx = None if not sts else tuple(sts) if lstm else sts[0]
    inp = xt
    if lengths is not None:
        inp = L.nn.utils.rnn.pack_padded_sequence(xt, L.tensor(lengths), enforce_sorted=False)
    out = mod(inp) if hx is None else mod(inp, hx)
    if lengths is not None:
        out = (L.nn.utils.rnn.pad_packed_sequence(out[0])[0], out[1])
    outs = _flat(out)
    loss = sum((o * L.tensor(u.astype(dtype))).sum() for o, u in zip(outs, us, strict=True))
    params = [p for _, p in mod.named_parameters()]
    grads = L.autograd.grad(loss, [xt] + sts + params)
    return [np.asarray(o.detach()) for o in outs] + [np.asarray(g) for g in grads]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", list(CASES))
def test_fused_cells_match_torch(name, dtype, rng, torch):
    build, shape, with_state, lengths = CASES[name]
    torch.manual_seed(0)
    tmod = build(torch.nn).to(torch.float64 if dtype == np.float64 else torch.float32).eval()
    mod = build(tg.nn).to(tg.float64 if dtype == np.float64 else tg.float32).eval()
    mod.load_state_dict({k: tg.tensor(v.detach().numpy()) for k, v in
                         tmod.state_dict().items()})
    x = rng.standard_normal(shape)
    with torch.no_grad():
        tx = torch.tensor(x.astype(dtype))
        if lengths is not None:
            tx = torch.nn.utils.rnn.pack_padded_sequence(tx, torch.tensor(lengths),
                                                         enforce_sorted=False)
        probe = tmod(tx)
    if lengths is not None:
        probe = (torch.nn.utils.rnn.pad_packed_sequence(probe[0])[0], probe[1])
    shapes = [tuple(t.shape) for t in _flat(probe)]
    states = [rng.standard_normal(s) for s in shapes[0 if "Cell" in name else 1:]] \
        if with_state else []
    us = [rng.standard_normal(s) for s in shapes]
    got = _run(tg, mod, x, states, lengths, us, dtype)
    want = _run(torch, tmod, x, states, lengths, us, dtype)
    tol = dict(rtol=1e-10, atol=1e-12) if dtype == np.float64 else dict(rtol=2e-4, atol=2e-5)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, **tol)


def _ops(t):
    """The opcodes of the rows on ``t``'s tape."""
    tape = t._tok.tape
    tape.flush()
    return np.frombuffer(tape.rows, np.int64).reshape(-1, 5)[:tape.nrows, 0] & OP_MASK


@pytest.mark.parametrize("kind, code, per_step", [("LSTM", N.LSTM_CELL, 3),
                                                   ("GRU", N.GRU_CELL, 2)])
def test_one_cell_row_a_step(kind, code, per_step):
    """A layer of T steps records T cell rows and, a step, the state's GEMM and the cell
    row (an LSTM's c' row and h' row) besides the projections' split: not 12-15 rows
    (fails where the step is composed from primitives)."""
    T = 6
    mod = getattr(tg.nn, kind)(3, 4)
    out, _ = mod(tg.randn(T, 2, 3))
    ops = _ops(out)
    at = np.nonzero(ops == code)[0]
    assert len(at) == T
    assert np.all(np.diff(at) <= per_step + 1)  # (+1: the step's piece of the projections)
    cell = getattr(tg.nn, kind + "Cell")(3, 4)
    h = cell(tg.randn(2, 3))
    assert int((_ops(h[0] if kind == "LSTM" else h) == code).sum()) == T + 1  # (same tape)
    assert (h[0] if kind == "LSTM" else h).grad_fn.name() == \
        ("MulBackward0" if kind == "LSTM" else "AddBackward0")  # (PyTorch's CPU cells')


def test_composed_where_dtypes_mix():
    """A float32 state into a float64 layer promotes as PyTorch's composed ops do: the
    cell is then composed, not fused, and its result is float64."""
    mod = tg.nn.GRUCell(3, 4)
    h = mod(tg.randn(2, 3), tg.randn(2, 4, dtype=tg.float32))
    assert h.dtype == tg.float64 and not (_ops(h) == N.GRU_CELL).any()


def _small(kind, cell=False):
    tg.manual_seed(0)
    mod = getattr(tg.nn, kind + ("Cell" if cell else ""))(2, 3)
    return mod, [p for p in mod.parameters()]


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_gradcheck_and_gradgradcheck(kind):
    """First and second derivatives of a layer's outputs in the input, the initial
    states and every parameter, against central differences (float64)."""
    mod, params = _small(kind)
    lstm = kind == "LSTM"
    rng = np.random.default_rng(1)
    x = tg.tensor(rng.standard_normal((3, 2, 2)), requires_grad=True)
    h0 = tg.tensor(rng.standard_normal((1, 2, 3)), requires_grad=True)
    c0 = tg.tensor(rng.standard_normal((1, 2, 3)), requires_grad=True)
    n = len(params)

    def f(x, h0, c0, *ps):
        out = _functional(mod, x, (h0, c0) if lstm else h0, ps)
        return out[0], *(out[1] if lstm else (out[1],))

    args = (x, h0, c0) + tuple(tg.tensor(p.detach().numpy(), requires_grad=True)
                               for p in params)
    assert n == len(args) - 3
    assert tg.autograd.gradcheck(f, args, eps=1e-6, atol=1e-6, rtol=1e-5)
    assert tg.autograd.gradgradcheck(f, args, eps=1e-6, atol=1e-5, rtol=1e-4)


def _functional(mod, x, hx, ps):
    """``mod(x, hx)`` with its parameters replaced by the tensors ``ps``."""
    return tg.func.functional_call(mod, dict(zip([k for k, _ in mod.named_parameters()], ps,
                                                 strict=True)), (x, hx))


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_forward_mode_matches_finite_differences(kind):
    """jvp (the cells' tangent rules) in every input against central differences."""
    mod, params = _small(kind, cell=True)
    rng = np.random.default_rng(2)
    lstm = kind == "LSTM"
    prim = [rng.standard_normal(s) for s in [(2, 2), (2, 3), (2, 3)][:3 if lstm else 2]]
    prim += [p.detach().numpy() for p in params]
    tans = [rng.standard_normal(p.shape) for p in prim]
    m = 3 if lstm else 2

    def f(x, h, *rest):
        hx = (h, rest[0]) if lstm else h
        out = _functional(mod, x, hx, rest[m - 2:])
        return tg.cat([out[0], out[1]], 1) if lstm else out

    _, t = tg.func.jvp(f, tuple(tg.tensor(p) for p in prim), tuple(tg.tensor(v) for v in tans))
    eps = 1e-6
    with tg.no_grad():
        up = f(*(tg.tensor(p + eps * v) for p, v in zip(prim, tans, strict=True)))
        dn = f(*(tg.tensor(p - eps * v) for p, v in zip(prim, tans, strict=True)))
    fd = (np.asarray(up) - np.asarray(dn)) / (2 * eps)
    np.testing.assert_allclose(np.asarray(t), fd, rtol=1e-6, atol=1e-8)


def _objective(kind):
    tg.manual_seed(0)
    mod = getattr(tg.nn, kind)(3, 4, 2, bidirectional=True).requires_grad_(False)

    def f(x):  # x: 24 numbers, the sequence (4, 2, 3) of a layer with fixed weights
        out, _ = mod(x.reshape(4, 2, 3))
        return (out * out).sum()
    return f


@pytest.mark.parametrize("kind, code", [("LSTM", N.LSTM_CELL), ("GRU", N.GRU_CELL)])
def test_replay_and_save_load(kind, code, tmp_path):
    """A trace holding the cell rows replays (one point and a batch) to the eager value and
    gradient at new points, and so does its saved and loaded copy."""
    f = _objective(kind)
    rng = np.random.default_rng(3)
    x0, X = rng.standard_normal(24), rng.standard_normal((3, 24))
    t = tg.trace(f, x0)
    assert (np.asarray(t.rows)[:, 0] & OP_MASK == code).sum() == 16  # (4 steps, 4 directions)
    t.save(tmp_path / "t.npz")
    loaded = tg.jit.load(tmp_path / "t.npz")
    for i in range(3):
        xt = tg.tensor(X[i], requires_grad=True)
        y = f(xt)
        y.backward()
        for tr in (t, loaded):
            v, g = tr.value_and_grad(X[i])
            np.testing.assert_allclose(v, y.item(), rtol=1e-12)
            np.testing.assert_allclose(g, np.asarray(xt.grad), rtol=1e-10, atol=1e-14)
    V, G = loaded.value_and_grad_batch(X)
    for i in range(3):
        v, g = t.value_and_grad(X[i])
        np.testing.assert_allclose(V[i], v, rtol=1e-12)
        np.testing.assert_allclose(G[i], g, rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("kind, code", [("LSTM", N.LSTM_CELL), ("LSTM", N.LSTM_H),
                                        ("GRU", N.GRU_CELL)])
@pytest.mark.parametrize("edit", ["H", "H_zero", "state_slot", "state_newer", "in0_size"])
def test_crafted_cell_rows_are_refused(kind, code, edit):
    """A cell row whose H, state slot or operand sizes do not fit is refused at load,
    naming the row, before any rule could read or write outside its slots."""
    a = _arrays(_objective(kind), np.linspace(-1, 1, 24))
    rows, meta = a["rows"], a["meta"]
    r = int(np.nonzero(rows[:, 0] == code)[0][1])
    k = int(rows[r, 4])
    if edit == "H":
        meta[k] += 1
    elif edit == "H_zero":
        meta[k] = 0
    elif edit == "state_slot":
        meta[k + 1] = len(a["offs"]) + 5
    elif edit == "state_newer":
        meta[k + 1] = rows[r, 1]
    else:
        rows[r, 2] = meta[k + 1]  # (the state's slot: a quarter or a third of the size)
    with pytest.raises(ValueError, match=rf"row {r} \(\w+, opcode {code}\)"):
        validate.check(validate.fields_from_npz(a), validate.MAX_BYTES)
    with pytest.raises(ValueError, match="opcode"):
        tg.load(io.BytesIO(_file(a)))


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_hooks_retain_grad_and_hvp_as_torch(kind, torch):
    """Hooks and retain_grad on a cell's outputs (views of an LSTM_CELL row, a GRU_CELL
    row's own output), and a Hessian-vector product through the rows (reverse over their
    create_graph rules), as PyTorch's."""
    lstm = kind == "LSTM"
    rng = np.random.default_rng(4)
    x, h0, c0, v = (rng.standard_normal((2, 3)), rng.standard_normal((2, 4)),
                    rng.standard_normal((2, 4)), rng.standard_normal((2, 3)))
    results = []
    tmod = None
    for L in (torch, tg):
        L.manual_seed(0)
        cell = getattr(L.nn, kind + "Cell")(3, 4).double()
        if L is torch:
            tmod = cell
        else:
            cell.load_state_dict({k: tg.tensor(p.detach().numpy()) for k, p in
                                  tmod.state_dict().items()})
        xt = L.tensor(x, requires_grad=True)
        seen = []
        out = cell(xt, (L.tensor(h0), L.tensor(c0)) if lstm else L.tensor(h0))
        h1 = out[0] if lstm else out
        h1.register_hook(lambda g: seen.append(np.asarray(g.detach()).copy()) or g * 2.0)
        second = out[1] if lstm else h1
        second.retain_grad()
        out2 = cell(h1.tanh()[:, :3] * xt, out if lstm else h1)
        loss = ((out2[0] if lstm else out2) ** 2).sum() + (second * second).sum()
        loss.backward()
        hv = L.autograd.functional.hvp(
            lambda z: (cell(z, (L.tensor(h0), L.tensor(c0)) if lstm else L.tensor(h0))[0]
                       ** 3).sum() if lstm else (cell(z, L.tensor(h0)) ** 3).sum(),
            L.tensor(x), L.tensor(v))[1]
        results.append([seen[0], np.asarray(second.grad), np.asarray(xt.grad),
                        np.asarray(hv.detach())])
    for what, g, w in zip(("hook", "retain_grad", "x.grad", "hvp"), *results, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12, err_msg=what)


def test_large_recorded_states_are_composed():
    """Recorded for backward, a state above FUSE_MAX_RECORDED elements is composed (where
    the fused rows measured slower: nn/rnn.py); the values are the fused forward's."""
    mod = tg.nn.GRU(3, 40)
    x = tg.randn(3, 30, 3)
    out, _ = mod(x)
    assert not (_ops(out) == N.GRU_CELL).any()
    with tg.no_grad():
        fused, _ = mod(x)
    np.testing.assert_allclose(np.asarray(fused), np.asarray(out.detach()), rtol=1e-12,
                               atol=1e-14)
