"""Hostile inputs, round 12.  Values read outside the tape go through one accessor
(``tensor.host_values``), which guards a traced tensor at the read: an op that forgot its
own guard (take_along_dim with a dim, repeat_interleave(counts), quantile's q) replayed the
traced point's choices, and an error raised on traced values before the guard (an index out
of range, a negative count, an integer division by zero) let a caught exception replay its
except branch at every point.  A value f computes answers requires_grad, is_leaf, grad_fn
and is_inference as tracing made it, not as eager does: refused from f's code; a backward
inside f accumulating into f's input is refused.  Crafted files: duplicate member names,
shapes NumPy cannot hold."""
import io
import json
import pathlib
import zipfile

import numpy as np
import pytest
from conftest import eager_value_and_grad, replays_as_eager

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad.replay import DivergenceError, validate
from tapegrad.tensor import TRACE_HOOKS, host_values

X0 = np.array([0.3, 1.2, -0.4, 0.9, 2.0, 0.1])
POINTS = [np.array([1.5, 0.5, 1.0, -1.0, 0.0, 3.0]), np.array([-1.0, 0.0, 1.0, 1.0, 0.0, -1.0]),
          np.array([0.7, -1.9, 0.2, -0.3, 1.1, 1.6]), np.array([2.0, 1.0, 0.5, 0.25, -3.0, 0.1])]


def _replays_as_eager(f, points=POINTS, x0=X0):
    return replays_as_eager(f, points, x0)


def _program(expr):
    """f(x) = expr (over i, k, n: integer, bool and count values of x that record without a
    guard of their own, so only the op's read of them can guard) + |x|^2."""
    ns = {"tg": tg, "F": F}
    exec("def f(x):\n"
         "    i = (x > 0).long() + (x > 1).long() * 2\n"
         "    k = x > 0.5\n"
         "    n = (x > 0).sum()\n"
         f"    return ({expr}).double().sum() + (x * x).sum()\n", ns)
    return ns["f"]


# ---- every op taking an integer or bool tensor: its values replay or the trace diverges --
INT_ARGS = [
    "x.index_select(0, i)", "x.gather(0, i)", "tg.zeros(6).scatter(0, i, x)",
    "tg.zeros(6).scatter_add(0, i, x)", "x.take(i)", "tg.take_along_dim(x, i)",
    "tg.take_along_dim(x.reshape(2, 3), (x.reshape(2, 3) > 0).long(), 1)",  # was unguarded
    "x.reshape(2, 3).take_along_dim((x.reshape(2, 3) > 0).long() * 2, 1)",  # was unguarded
    "tg.repeat_interleave(i)[:3]", "tg.repeat_interleave(i).sum()",  # was unguarded
    "x.repeat_interleave(i)", "tg.where(k, x, -x)", "x.masked_select(k)", "k.nonzero()",
    "tg.nonzero(k, as_tuple=True)[0]", "tg.where(k)[0]", "x.argwhere()", "i.unique()",
    "i.unique(return_counts=True)[1]", "tg.unique_consecutive(i)", "x[x.sort().indices]",
    "x[i.sort(stable=True).indices]", "x[i.topk(3).indices]", "i.argsort(stable=True)",
    "x.narrow(0, n - 4, 2)", "x[:int(n)]", "x[:n]", "x[n - 4]", "x[i]", "x[k]",
    "x.reshape(2, 3)[i[0] % 2, i[1] % 3]", "tg.bucketize(x, tg.tensor([0.0, 1.0]))",
    "tg.searchsorted(tg.tensor([0.0, 1.0]), x)", "tg.bucketize(i, tg.tensor([1, 3]))",
    "tg.searchsorted(tg.tensor([0, 1, 2]), i)", "tg.histc(i.double(), 4, 0, 3)",
    "i.kthvalue(2).indices", "i.mode().values", "i.mode().indices", "i.bincount()",
    "tg.bincount(i, weights=x).detach()", "x.index_fill(0, i[:2], 0.0)", "x.index_copy(0, i % 6, x)",
    "x.index_add(0, i, x)", "x.index_put((i[:2],), tg.tensor(5.0))", "x.masked_fill(k, 1.0)",
    "i.masked_fill(k, 7)", "x.masked_scatter(k, x * 3)", "x.roll(int(n))", "tg.zeros(int(n) + 1)",
    "x.new_zeros(n + 1)", "x.repeat(int(n) + 1)", "F.pad(x, (int(n), 0))", "tg.isin(i, i[:2])",
    "x.unfold(0, int(n) + 1, 1)", "x.chunk(int(n) + 1)[0]", "x.split(int(n) + 1)[0]",
    "F.one_hot(i, 4)", "F.embedding(i, tg.eye(4))", "F.cross_entropy(x[:4].reshape(1, 4), i[:1])",
    "F.nll_loss(x[:4].reshape(1, 4), i[:1])", "F.multi_margin_loss(x[:4].reshape(1, 4), i[:1])",
    "i // 2", "i.div(2, rounding_mode='trunc')", "i % 3", "i.gcd(tg.tensor(2))", "i.cummax(0).indices",
    "i.frexp()[1] if False else x.frexp()[1]", "x.heaviside(k.double()).detach()", "x.signbit()",
    "x[1:].quantile((x[0] > 0).double() * 0.5 + 0.25)",  # was unguarded: q read in NumPy
    "F.max_pool1d(x.reshape(1, 1, 6), 2, return_indices=True)[1]",
    "F.adaptive_max_pool1d(x.reshape(1, 1, 6), 2, return_indices=True)[1]",
    "tg.zeros(6, dtype=tg.int64).index_put_((i,), i)", "i.new_zeros(6).copy_(i)",
]


@pytest.mark.parametrize("expr", INT_ARGS)
def test_every_integer_or_bool_argument_replays_or_diverges(expr):
    _replays_as_eager(_program(expr))


def test_repeat_interleave_counts_and_take_along_dim_and_quantile_were_unguarded():
    """On the old main these replayed the traced point's positions at every point."""
    x0, x1 = np.array([1.0, 1.0, 2.0, 3.0]), np.array([-1.0, 1.0, 2.0, 3.0])
    for f in (lambda x: x[1:].quantile((x[0] > 0).double() * 0.5 + 0.25),
              lambda x: tg.repeat_interleave((x > 0).long()).double().sum() * x.sum(),
              lambda x: x.reshape(2, 2).take_along_dim((x.reshape(2, 2) > 0).long(), 1).sum()):
        with pytest.raises(DivergenceError):
            tg.trace(f, x0).value_and_grad(x1)
        _replays_as_eager(f, [x1], x0)


# ---- a caught error decided by traced values is a branch too -----------------------------
CAUGHT = [
    "x.index_select(0, (x > 0).sum().reshape(1))", "x.gather(0, (x > 0).long() * 6)",
    "x[(x > 0).long() * 6]", "x.take((x > 0).long() * 6)", "tg.zeros(6).scatter(0, (x > 0).long() * 6, x)",
    "tg.zeros(6).index_put(((x > 0).long() * 6,), x)", "tg.zeros(6).index_add(0, (x > 0).long() * 6, x)",
    "tg.bincount((x > 0).long() - (x < -5).long()).double()",
    "x.repeat_interleave((x > 0).long() - (x < -5).long())",
    "F.one_hot((x > 0).long() * 3, 2).double()", "F.embedding((x > 0).long() * 6, x.reshape(6, 1))",
    "tg.tensor([6]) // (x > 0).long()", "tg.tensor([5, 5, 5, 5, 5, 5]) % (x > 0).long()",
]


@pytest.mark.parametrize("expr", CAUGHT)
def test_an_error_raised_on_traced_values_and_caught_is_guarded(expr):
    """f catches the op's error at the traced point (every x > 0: an index 6 of 6, a count
    of -1...) and takes another path; at a point where the op succeeds eager takes the
    first: on the old main the check ran before the guard, and replay gave the except
    branch's value silently."""
    ns = {"tg": tg, "F": F}
    exec("def f(x):\n    try:\n        return (" + expr + ").double().sum() * x.sum()\n"
         "    except (IndexError, RuntimeError):\n        return x.sum() * 3.0\n", ns)
    f = ns["f"]
    x0, x1 = np.abs(X0) + 0.1, -np.abs(X0) - 0.1
    with pytest.raises(DivergenceError):
        tg.trace(f, x0).value_and_grad(x1)
    _replays_as_eager(f, [x1], x0)


def test_a_caught_error_on_a_setitem_key_is_guarded():
    def f(x):
        y = x * 1.0
        try:
            y[(x > 0).long() * 6] = 0.0
        except (IndexError, RuntimeError):
            y = y * 3.0
        return y.sum()
    _replays_as_eager(f, [-np.abs(X0) - 0.1], np.abs(X0) + 0.1)


# ---- the accessor itself ------------------------------------------------------------------
def test_host_values_is_a_plain_read_eagerly(monkeypatch):
    """Eagerly no hook runs (the hot path costs one check), and the values are the
    tensor's own; an op's eager result does not change."""
    monkeypatch.setitem(TRACE_HOOKS, "guard_values", lambda *a: pytest.fail("guarded"))
    t = tg.tensor([3, 1, 2])
    assert host_values(t, "x").base is t._data or host_values(t, "x") is t._data
    assert host_values([1, 2], "x").tolist() == [1, 2]
    x = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert x.index_select(0, t - 1).tolist() == [3.0, 1.0, 2.0]
    assert tg.bincount(t).tolist() == [0, 1, 1, 1] and t.unique().tolist() == [1, 2, 3]


def test_no_op_guards_values_by_hand():
    """Every value read outside the tape goes through tensor.host_values: a guard_values
    call sprinkled in an op is the pattern the next op forgets."""
    root = pathlib.Path(tg.__file__).parent
    hand = [str(p.relative_to(root)) for p in root.rglob("*.py")
            if "guard_values(" in p.read_text().replace("def _guard_values(", "")]
    assert not hand, hand


# ---- graph metadata of a value f computes ---------------------------------------------------
META = [
    "y = x.detach()\nreturn x.sum() * (2.0 if y.requires_grad else 3.0)",
    "y = x.detach()\nreturn x.sum() * (2.0 if y.is_leaf else 3.0)",
    "with tg.no_grad():\n    y = x * 2.0\nreturn x.sum() * (2.0 if y.requires_grad else 3.0)",
    "with tg.no_grad():\n    y = x * 2.0\nreturn x.sum() * (2.0 if y.grad_fn is None else 3.0)",
    "with tg.set_grad_enabled(False):\n    y = x.exp()\nreturn x.sum() * (2.0 if y.requires_grad else 3.0)",
    "with tg.inference_mode():\n    y = x * 2.0\nreturn x.sum() * (2.0 if y.is_inference() else 3.0)",
    "y = x > 0\nreturn x.sum() * (2.0 if y.requires_grad else 3.0)",
    "y = x.argmax()\nreturn x.sum() * (2.0 if y.requires_grad else 3.0)",
    "return x.sum() * (2.0 if x.data.requires_grad else 3.0)",
    "y = x.detach().requires_grad_()\n(y ** 2).sum().backward()\n"
    "return (x * (y.grad if y.grad is not None else tg.zeros(4))).sum()",
]


def _f(body):
    ns = {"tg": tg}
    exec("def f(x):\n" + "\n".join("    " + line for line in body.split("\n")), ns)
    return ns["f"]


@pytest.mark.parametrize("body", META)
def test_graph_metadata_of_a_value_f_computes_is_refused_while_tracing(body):
    """Eagerly each of these is a leaf that does not require grad; while tracing it records
    (requires grad, a non-leaf): on the old main f took the other branch at the traced
    point and replay gave that branch's value and gradient at every point."""
    f = _f(body)
    eager_value_and_grad(f, X0[:4])  # (eagerly fine)
    with pytest.raises(RuntimeError, match="is not what eager gives"):
        tg.trace(f, X0[:4])


def test_inputs_and_leaves_f_makes_answer_as_eagerly():
    def f(x):
        w = tg.ones(4, requires_grad=True)
        assert x.requires_grad and x.is_leaf and x.grad_fn is None and w.is_leaf
        (w * w).sum().backward()  # (into a leaf f makes: replays)
        return (x * w.grad).sum() * (2.0 if tg.is_grad_enabled() else 3.0)
    _replays_as_eager(f, [p[:4] for p in POINTS], X0[:4])


@pytest.mark.parametrize("body", META + [
    "y = x * 2.0\nif y.requires_grad:\n    y = y + 1.0\nreturn (y ** 2).sum()"])
def test_compile_called_with_tensors_runs_such_f_eagerly(body):
    """What tracing refuses above, ``compile(f)(x)`` runs eagerly (torch.compile's graph
    break): the value and x.grad of f(x).backward() are eager's."""
    f = _f(body)
    want_x = tg.tensor(X0[:4], requires_grad=True)
    want = f(want_x)
    want.backward()
    x = tg.tensor(X0[:4], requires_grad=True)
    out = tg.compile(f)(x)
    out.backward()
    assert out.item() == want.item()
    np.testing.assert_array_equal(x.grad.numpy(), want_x.grad.numpy())


BACKWARD_INSIDE = [
    "(x ** 2).sum().backward(retain_graph=True)\nreturn (x * 1.0).sum()",
    "tg.autograd.backward((x ** 2).sum())\nreturn (x * 3.0).sum()",
    "y = tg.ones(4, requires_grad=True)\n(y * x).sum().backward()\nreturn (x * y.grad).sum()",
    "y = x * 2.0\n(y ** 2).sum().backward(inputs=[x])\nreturn (x * 1.0).sum()"]


@pytest.mark.parametrize("body", BACKWARD_INSIDE)
def test_a_backward_inside_f_into_its_input(body):
    """The trace's gradient is ``autograd.grad(f(x), x)``'s (the side effect on x.grad is not
    part of f's output); called with tensors, the compiled f runs eagerly, so the caller's
    x.grad after f(x).backward() holds both, as eager's (on the old main: 1 where eager
    gave 2x + 1)."""
    f = _f(body)
    t = tg.trace(f, X0[:4])
    for p in POINTS:
        x = tg.tensor(p[:4], requires_grad=True)
        (want,) = tg.autograd.grad(f(x), x)
        np.testing.assert_allclose(t.grad(p[:4]), want.numpy(), rtol=1e-13, atol=1e-13)
    want_x = tg.tensor(X0[:4], requires_grad=True)
    f(want_x).backward()
    x = tg.tensor(X0[:4], requires_grad=True)
    tg.compile(f)(x).backward()
    np.testing.assert_array_equal(x.grad.numpy(), want_x.grad.numpy())


# ---- crafted files ----------------------------------------------------------------------
def _npy(descr, shape, data=b""):
    h = ("{'descr': %r, 'fortran_order': False, 'shape': %r, }" % (descr, tuple(shape))).encode()
    h += b" " * (64 - (10 + len(h) + 1) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h + data


def _save_file(shape, members, descr="<f8"):
    meta = [{"kind": "tensor", "dtype": "float64", "shape": list(shape)}]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("tapegrad.json", json.dumps({"format": "tapegrad.save", "version": 1,
                                                "tensors": meta, "root": {"tensor": 0}}))
        for name, data in members:
            z.writestr(name, data)
    buf.seek(0)
    return buf


@pytest.mark.filterwarnings("ignore:Duplicate name")
@pytest.mark.parametrize("shape, members, message", [
    ((1,), [("tensors/0.npy", _npy("<f8", (1,), bytes(8))),
            ("tensors/0.npy", _npy("<f8", (1,), b"\x01" * 8))], "appears more than once"),
    ((1,), [("tensors/0.npy", _npy("<f8", (1,), bytes(8))), ("tapegrad.json", b"{}")],
     "tapegrad.json appears more than once"),
    ((0, 2**62, 2**62), [("tensors/0.npy", _npy("<f8", (0, 2**62, 2**62)))], "too large"),
    ((0, 10**30), [("tensors/0.npy", _npy("<f8", (0, 10**30)))], "too large"),
    ((1,) * 70, [("tensors/0.npy", _npy("<f8", (1,) * 70, bytes(8)))], "70 dims")])
def test_crafted_save_files_are_refused_clearly(shape, members, message):
    """A duplicate name loaded the last member silently (another reader takes the first);
    shapes NumPy cannot hold raised NumPy's own errors, naming neither file nor entry."""
    with pytest.raises(ValueError, match=f"not a valid tapegrad.save file.*{message}"):
        tg.load(_save_file(shape, members))


@pytest.mark.parametrize("name, member, message", [
    ("rows", _npy("<i8", (0, 2**62)), "trace field 'rows' declares shape .* too large"),
    ("guards", _npy("<U0", (10**9,)), "trace field 'guards' has dtype <U0 of 0 bytes"),
    ("rows", _npy("<i8", (1,) * 70, bytes(8)), "trace field 'rows' declares 70 dims")])
def test_crafted_trace_members_are_refused_clearly(tmp_path, name, member, message):
    path = tmp_path / "t.npz"
    tg.jit.save(tg.jit.trace(lambda x: (x.sin() * x).sum(), X0[:3]), path)
    with np.load(path) as z:
        arrays = {k: z[k].copy() for k in z.files if k != name}
    with zipfile.ZipFile(path, "w") as z:
        for k, a in arrays.items():
            b = io.BytesIO()
            np.save(b, a)
            z.writestr(k + ".npy", b.getvalue())
        z.writestr(name + ".npy", member)
    with pytest.raises(ValueError, match=message):
        tg.jit.load(path)
    with pytest.raises(ValueError, match=message):
        validate.read_npz(path)
