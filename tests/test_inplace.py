"""In-place ops and version counters (ops/inplace.py): values and gradients against PyTorch
and finite differences, PyTorch's errors (leaf, shape, dtype, modified-after-saved), and
nothing recorded by a call that fails."""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad.tape import current_tape


def _tg_or_torch_zeros(L, *shape):
    return L.zeros(*shape, dtype=L.float64)


# Each program maps leaves x (3,) and w (2, 3) to a scalar through in-place ops on
# non-leaves (or on constants that the op turns into non-leaves).
def _add_tensor(L, x, w):
    y = x * 2
    y.add_(w[0])
    return (y * y).sum()


def _add_alpha(L, x, w):
    y = x * 1
    y.add_(w[1], alpha=-0.5)
    return (y * y * y).sum()


def _sub_scalar_after_sin(L, x, w):
    y = x.sin()  # sin saved x, not y: modifying y is fine
    y.sub_(1.5)
    return (y * w).sum()


def _mul_tensor(L, x, w):
    y = x * 1
    y.mul_(w[1])  # x's old value is saved as self: PyTorch keeps a copy, no error
    return (y ** 2).sum()


def _div_tensor(L, x, w):
    y = x + 3
    y.div_(w[0] + 3)
    return y.sum() * y.sum()


def _iops_chain(L, x, w):
    y = x * 1
    y += 1
    y *= w[0]
    y -= x
    y /= 2
    y += 0.25
    return (y * x).sum()


def _zero_then_add(L, x, w):
    y = w * 1
    y.zero_()
    y += w * x
    return (y * y).sum()


def _fill_tensor(L, x, w):
    y = x * 1
    y.fill_(w[0, 0] * 2)
    return (y * x).sum()


def _clamp(L, x, w):
    y = x * 1
    y.clamp_(-0.5, 0.5)
    return (y * w).sum()


def _copy_broadcast(L, x, w):
    y = _tg_or_torch_zeros(L, 2, 3)
    y.copy_(x)
    return (y * w).sum()


def _copy_into_non_leaf(L, x, w):
    y = w * 3
    y.copy_(w.flip(0) * x)
    return (y * y).sum()


def _setitem_int(L, x, w):
    y = w * 1
    y[0] = x
    return (y ** 2).sum()


def _setitem_slice_scalar(L, x, w):
    y = w * 1
    y[:, 1] = 0.0
    return (y * y).sum()


def _setitem_mask(L, x, w):
    y = w * 1
    y[w > 0] = 0.5
    return (y * y * w).sum()


def _setitem_fancy(L, x, w):
    y = x * 1
    y[[0, 2]] = w[1, :2] * 2
    return (y * y).sum()


def _setitem_repeated(L, x, w):
    # the same element written twice: the last value lands, and both values get its
    # gradient, as PyTorch's index_put_ sends it (not the derivative of what was computed:
    # this one is checked against PyTorch only)
    y = x * 1
    y[[1, 1]] = w[0, 1:3]
    return (y * y).sum()


def _setitem_into_constant(L, x, w):
    y = _tg_or_torch_zeros(L, 3)
    y[1] = x[0] * x[2]
    y[2] = w[1, 1]
    return (y * y).sum() + y[1]


def _setitem_broadcast(L, x, w):
    y = w * 1
    y[:, :2] = x[:2]
    return (y * y).sum()


def _plain_then_grad(L, x, w):
    y = L.ones(3, dtype=L.float64)
    y += x
    y *= x
    return y.sum()


def _in_place_on_result_of_inplace(L, x, w):
    y = x * 1
    y.mul_(2).add_(w[1]).clamp_(min=-1.0)
    return (y * y).sum()


PROGRAMS = {f.__name__.lstrip("_"): f for f in (
    _add_tensor, _add_alpha, _sub_scalar_after_sin, _mul_tensor, _div_tensor, _iops_chain,
    _zero_then_add, _fill_tensor, _clamp, _copy_broadcast, _copy_into_non_leaf, _setitem_int,
    _setitem_slice_scalar, _setitem_mask, _setitem_fancy, _setitem_repeated,
    _setitem_into_constant, _setitem_broadcast, _plain_then_grad,
    _in_place_on_result_of_inplace)}


def _inputs(rng):
    return rng.uniform(-0.9, 0.9, 3), rng.uniform(-0.9, 0.9, (2, 3))


def _tg_grads(prog, x, w):
    xt, wt = tg.tensor(x, requires_grad=True), tg.tensor(w, requires_grad=True)
    out = prog(tg, xt, wt)
    out.backward()
    return float(out), _grad(xt), _grad(wt)


def _grad(t):
    """t.grad as an ndarray, zeros where nothing flowed (PyTorch leaves None)."""
    return np.zeros(tuple(t.shape)) if t.grad is None else np.asarray(t.grad.detach().numpy())


@pytest.mark.parametrize("name", [n for n in PROGRAMS if n != "setitem_repeated"])
def test_inplace_program_matches_finite_differences(name, rng):
    prog = PROGRAMS[name]
    x, w = _inputs(rng)
    value, gx, gw = _tg_grads(prog, x, w)

    def f(xv, wv):
        return float(prog(tg, tg.tensor(xv), tg.tensor(wv)))  # nothing requires grad

    assert f(x, w) == pytest.approx(value, rel=1e-14)
    h = 1e-6
    for g, which in ((gx, 0), (gw, 1)):
        base = (x, w)[which]
        fd = np.zeros_like(base)
        for i in np.ndindex(base.shape):
            e = np.zeros_like(base)
            e[i] = h
            args_p = [x, w]
            args_m = [x, w]
            args_p[which] = base + e
            args_m[which] = base - e
            fd[i] = (f(*args_p) - f(*args_m)) / (2 * h)
        np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_inplace_program_matches_torch(name, rng, torch):
    prog = PROGRAMS[name]
    x, w = _inputs(rng)
    value, gx, gw = _tg_grads(prog, x, w)
    xt = torch.tensor(x, requires_grad=True)
    wt = torch.tensor(w, requires_grad=True)
    out = prog(torch, xt, wt)
    out.backward()
    assert value == pytest.approx(out.item(), rel=1e-13, abs=1e-15)
    np.testing.assert_allclose(gx, _grad(xt), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(gw, _grad(wt), rtol=1e-12, atol=1e-15)


@pytest.mark.oracle
@pytest.mark.parametrize("method, args", [
    ("add_", (1.5,)), ("sub_", (0.5,)), ("mul_", (2.0,)), ("div_", (4.0,)),
    ("clamp_", (-0.1, 0.1)), ("add_", ("t",)), ("mul_", ("t",)), ("div_", ("t",)),
])
def test_grad_fn_after_inplace_matches_torch(method, args, torch):
    names = []
    for L in (tg, torch):
        a = L.tensor([0.5, -0.25, 2.0], dtype=L.float64, requires_grad=True)
        y = a * 2
        getattr(y, method)(*[a * 3 if v == "t" else v for v in args])
        names.append((y.grad_fn.name(), y.requires_grad, y.is_leaf, y._version))
    assert names[0] == names[1]


# ---- modified after being saved: PyTorch's error, raised when backward needs the value -----
def _saved_input(L, a):
    y = a * 2
    z = y * y  # saves y
    y.mul_(2)
    return z.sum()


def _saved_output(L, a):
    y = a.sigmoid()  # saves its output
    y.mul_(2)
    return y.sum()


def _saved_twice(L, a):
    y = a * 1
    z = (y @ y)  # mm-family: saves y on both sides
    y.add_(1)
    y.add_(1)
    return z


def _self_as_other(L, a):
    y = a * 3
    y.mul_(y)  # other is y itself: PyTorch saves it, then mul_ modifies it
    return y.sum()


def _leaf_stepped_no_grad(L, a):
    z = (a * a).sum()
    with L.no_grad():
        a.sub_(0.1)
    return z


def _scalar_leaf_stepped(L, a):
    s = a[0] * 1
    z = s * s
    with L.no_grad():
        s.add_(1)
    return z


def _exp_input_modified(L, a):  # exp saves its output, not its input: fine
    y = a * 1
    z = y.exp()
    y.add_(1)
    return z.sum()


def _add_saves_nothing(L, a):
    y = a * 1
    z = y + y
    y.mul_(3)
    return z.sum()


def _modified_but_not_reached(L, a):
    y = a * 1
    unused = y * y  # saves y, but the backward below never reaches it
    y.add_(1)
    del unused
    return (a * 2).sum()


SAVED = {f.__name__.lstrip("_"): (f, raises) for f, raises in (
    (_saved_input, True), (_saved_output, True), (_saved_twice, True), (_self_as_other, True),
    (_leaf_stepped_no_grad, True), (_scalar_leaf_stepped, True),
    (_exp_input_modified, False), (_add_saves_nothing, False),
    (_modified_but_not_reached, False))}


def _run_saved(L, prog):
    a = L.tensor([0.5, -0.25, 2.0], dtype=L.float64, requires_grad=True)
    try:
        prog(L, a).backward()
    except RuntimeError as e:
        return str(e)
    return a.grad.tolist()


@pytest.mark.parametrize("name", list(SAVED))
def test_modified_after_saved(name):
    prog, raises = SAVED[name]
    result = _run_saved(tg, prog)
    if raises:
        assert isinstance(result, str)
        assert result.startswith("one of the variables needed for gradient computation has "
                                 "been modified by an inplace operation: [torch.Double")
    else:
        assert isinstance(result, list)


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(SAVED))
def test_modified_after_saved_matches_torch(name, torch):
    prog, _ = SAVED[name]
    mine, theirs = _run_saved(tg, prog), _run_saved(torch, prog)
    if isinstance(theirs, str):
        assert isinstance(mine, str), mine
        assert mine.split(" Hint:")[0] == theirs.split(" Hint:")[0]  # (torch.DoubleTensor)
    else:
        assert mine == pytest.approx(theirs, rel=1e-14)


def test_error_names_the_versions():
    a = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = a * 2
    z = y * y
    y.add_(1)
    y.mul_(2)
    assert y._version == 2
    with pytest.raises(RuntimeError, match=r"\[torch.DoubleTensor \[3\]\], which is output 0 "
                       r"of Mul, is at version 2; expected version 0 instead"):
        z.sum().backward()


# ---- leaves, no_grad, versions, aliases ---------------------------------------------------
@pytest.mark.parametrize("op", [
    lambda x: x.add_(1), lambda x: x.mul_(2), lambda x: x.zero_(), lambda x: x.fill_(3.0),
    lambda x: x.clamp_(0, 1), lambda x: x.copy_(tg.ones(3)), lambda x: x.__iadd__(1),
    lambda x: x.div_(2), lambda x: x.sub_(tg.ones(3), alpha=2)])
def test_inplace_on_leaf_that_requires_grad_raises(op):
    x = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    before = (x.tolist(), x._version)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used "
                       "in an in-place operation."):
        op(x)
    assert (x.tolist(), x._version) == before


def test_setitem_on_leaf_that_requires_grad_raises():
    x = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        x[0] = 5.0


def test_no_grad_step_updates_leaf_in_place_and_keeps_it_a_leaf():
    w = tg.tensor([1.0, -2.0, 3.0], requires_grad=True)
    view = w.detach().numpy()  # shares w's storage, as in PyTorch
    (w * w).sum().backward()
    with tg.no_grad():
        w -= 0.25 * w.grad
        w[0] = 7.0
    assert w.is_leaf and w.requires_grad and w.grad_fn is None
    assert w.tolist() == [7.0, -1.0, 1.5]
    assert view.tolist() == [7.0, -1.0, 1.5]
    assert w._version == 2
    w.grad = None
    (w * w).sum().backward()  # the next step reads the new values
    assert w.grad.tolist() == [14.0, -2.0, 3.0]


def test_no_grad_update_of_scalar_leaf_resets_its_cached_slot():
    x = tg.tensor(2.0, requires_grad=True)
    y = x * x  # x's scalar slot is cached on this tape
    with tg.no_grad():
        x.add_(1.0)
    z = x * x * x
    z.backward()
    assert x.grad.item() == 27.0  # 3 x^2 at the new value 3, not at 2
    del y


def test_data_writes_through():
    p = tg.ones(3, requires_grad=True)
    p.data.add_(1)
    p.data.mul_(tg.tensor([1.0, 2.0, 3.0]))
    assert p.tolist() == [2.0, 4.0, 6.0]
    assert p.requires_grad and p.is_leaf


def test_version_counts_every_inplace_op():
    x = tg.zeros(3)
    assert x._version == 0
    x.add_(1)
    x += 1
    x[0] = 5
    x.zero_()
    assert x._version == 4


def test_no_grad_inplace_on_non_leaf_keeps_its_history():
    a = tg.tensor([1.0, 2.0], requires_grad=True)
    y = a * 3
    with tg.no_grad():
        y.mul_(2)  # values change; the gradient still flows through y's history
    assert y.tolist() == [6.0, 12.0] and y.requires_grad and not y.is_leaf
    (y * y).sum().backward()
    assert a.grad.tolist() == [36.0, 72.0]  # d/da sum(y^2) = 2 y * 3 at the new y


def test_plain_tensor_gets_history_from_an_operand():
    a = tg.tensor([1.0, 2.0], requires_grad=True)
    x = tg.zeros(2)
    x += a
    assert x.requires_grad and not x.is_leaf and x.grad_fn.name() == "AddBackward0"


def test_int_and_bool_tensors_update_in_place():
    i = tg.tensor([1, 2, 3])
    i += 2
    i *= 3
    i[1] = 0
    assert i.dtype == tg.int64 and i.tolist() == [9, 0, 15]
    i[0] = 2.7  # setitem casts the value, as PyTorch
    assert i.tolist() == [2, 0, 15]


def test_float32_stays_float32():
    a = tg.tensor([1.0, 2.0], requires_grad=True, dtype=tg.float32)
    y = a * 1
    y.add_(tg.tensor([0.1, 0.2], dtype=tg.float64))  # result float64, cast back to float32
    y[0] = 1.0 / 3.0
    assert y.dtype == tg.float32
    (y * y).sum().backward()
    assert a.grad.dtype == tg.float32
    v = np.float32(np.float32(2.0) + np.float32(0.2))  # PyTorch: float64 sum rounded to float32
    assert a.grad.tolist() == pytest.approx([0.0, 2 * float(np.float32(2.0 + 0.2))], rel=1e-7)
    assert float(y[1]) == float(v)


# ---- bad input: PyTorch's messages, nothing recorded ------------------------------------
def _tape_state():
    t = current_tape()
    t.flush()
    return (t.nrows, t.nslots, t.nvals, len(t.consts), len(t.meta), len(t.mutated or ()))


BAD = {
    "broadcast grows self": (lambda L, y: y.add_(L.ones(2, 3, dtype=L.float64)),
                             "doesn't match the broadcast shape"),
    "0-d self": (lambda L, y: L.tensor(2.0, dtype=L.float64).mul_(L.ones(3, dtype=L.float64)),
                 "output with shape [] doesn't match the broadcast shape [3]"),
    "int self, float result": (lambda L, y: L.tensor([1, 2]).add_(0.5),
                               "can't be cast to the desired output type Long"),
    "bool self, int result": (lambda L, y: L.tensor([True]).add_(1),
                              "result type Long can't be cast to the desired output type Bool"),
    "setitem basic mismatch": (lambda L, y: y.__setitem__(slice(None), L.ones(2)),
                               "must match the existing size (2) at non-singleton dimension 0"),
    "setitem advanced mismatch": (lambda L, y: y.__setitem__([0, 1, 2], L.ones(2)),
                                  "shape mismatch: value tensor of shape [2] cannot be broadcast "
                                  "to indexing result of shape [3]"),
    "setitem out of range": (lambda L, y: y.__setitem__(5, 1.0),
                             "index 5 is out of bounds for dimension 0 with size 3"),
    "copy_ mismatch": (lambda L, y: y.copy_(L.ones(2)), "must match the size"),
    "fill_ with a vector": (lambda L, y: y.fill_(L.ones(2)),
                            "fill_ only supports 0-dimension value tensor"),
    "alpha on a leaf": (lambda L, y: y.detach().requires_grad_().add_(y, alpha=2),
                        "a leaf Variable that requires grad"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_inplace_call_raises_and_records_nothing(name):
    call, phrase = BAD[name]
    a = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = a * 2
    before = (_tape_state(), y.tolist(), y._version, y._slot)
    with pytest.raises((RuntimeError, IndexError), match=None) as info:
        call(tg, y)
    assert phrase in str(info.value)
    assert (_tape_state(), y.tolist(), y._version, y._slot) == before


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(BAD))
def test_torch_raises_the_same_phrase(name, torch):
    call, phrase = BAD[name]
    a = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    with pytest.raises((RuntimeError, IndexError)) as info:
        call(torch, a * 2)
    assert phrase in str(info.value)


def test_failed_backward_check_leaves_the_graph_usable():
    a = tg.tensor([1.0, 2.0], requires_grad=True)
    y = a * 2
    z = (y * y).sum()
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.backward()
    y.sum().backward()  # the in-place result itself is fine
    assert a.grad.tolist() == [2.0, 2.0]


@pytest.mark.parametrize("name", [n for n in PROGRAMS  # (these two do not use x)
                                  if n not in ("setitem_slice_scalar", "setitem_mask")])
def test_inplace_program_replays(name, rng):
    """A traced function with in-place ops replays at new inputs to eager's value and
    gradient (the in-place ops are ordinary rows)."""
    prog = PROGRAMS[name]
    x, w = _inputs(rng)
    wt = tg.tensor(w)
    compiled = tg.compile(lambda xt: prog(tg, xt, wt))
    compiled.value_and_grad(x)  # traces at x
    x2 = x + rng.uniform(-0.05, 0.05, x.shape)
    value, grad = compiled.value_and_grad(x2)
    xt = tg.tensor(x2, requires_grad=True)
    out = prog(tg, xt, wt)
    out.backward()
    assert float(value) == pytest.approx(out.item(), rel=1e-13, abs=1e-15)
    np.testing.assert_allclose(grad, _grad(xt), rtol=1e-12, atol=1e-15)


# ---- 0-d float64 tensors take a shorter path (ops/inplace._scalar_inplace): same rules -----
def _s_chain(L, a, b):
    s = a * 1
    s += b
    s *= a
    s -= 2.0
    s /= b
    s.add_(a, alpha=2)
    s.mul_(3)
    return s


def _s_sum_terms(L, a, b):
    s = L.tensor(0.0, dtype=L.float64)
    for k in range(1, 4):
        s += a * b * k  # the term is recorded after s: the change is logged and checked
    return s


def _s_saved_output(L, a, b):
    y = a.sigmoid()
    y += b  # sigmoid saved y
    return y


def _s_saved_input(L, a, b):
    y = a * 2
    z = y * b
    y += 1  # z saved y
    return z


def _s_self_as_other(L, a, b):
    y = a * 3
    y *= y
    return y


def _s_exp_input(L, a, b):
    y = a * 1
    z = y.exp()
    y += b  # exp saved its output, not y
    return z + y


SCALAR = {f.__name__[3:]: f for f in (_s_chain, _s_sum_terms, _s_saved_output, _s_saved_input,
                                     _s_self_as_other, _s_exp_input)}


def _run_scalar(L, prog):
    a = L.tensor(0.75, dtype=L.float64, requires_grad=True)
    b = L.tensor(-1.25, dtype=L.float64, requires_grad=True)
    try:
        out = prog(L, a, b)
        out.backward()
    except RuntimeError as e:
        return str(e).split(" Hint:")[0].replace("torch.", "tapegrad.")
    return [out.item(), a.grad.item(), b.grad.item()]


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(SCALAR))
def test_scalar_inplace_matches_torch(name, torch):
    mine, theirs = _run_scalar(tg, SCALAR[name]), _run_scalar(torch, SCALAR[name])
    if isinstance(theirs, str):
        assert mine == theirs
    else:
        assert mine == pytest.approx(theirs, rel=1e-14)


def test_scalar_inplace_on_leaf_and_under_no_grad():
    a = tg.tensor(2.0, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        a += 1.0
    assert a.item() == 2.0 and a._version == 0
    y = a * a  # caches a's scalar slot
    with tg.no_grad():
        a -= 0.5
        a *= 2
    assert a.item() == 3.0 and a.is_leaf and a._version == 2
    (a * a).backward()
    assert a.grad.item() == 6.0
    with pytest.raises(RuntimeError, match="is at version 2; expected version 0"):
        y.backward()


def test_inplace_op_that_starts_a_new_tape_generation_logs_nothing_stale():
    """A scalar constant keeps its slot of a graph that died in a reference cycle; the tape
    resets only when the next op begins (Tape.begin).  The in-place op's rows are then the
    first of a new generation, and the old slot's change must not be checked against them."""
    import gc

    class Holder:
        pass

    c = tg.tensor(2.0)
    w = tg.tensor(3.0, requires_grad=True)
    h = Holder()
    h.cycle = h
    h.graph = c * w  # caches c's scalar slot; the only non-leaf lives in a cycle
    del h
    gc.collect()
    c.mul_(w)  # c * w: MUL saves c (w requires grad); a stale change of c would be flagged
    c.backward()
    assert c.item() == 6.0 and w.grad.item() == 2.0


def test_setitem_records_one_put_row():
    from tapegrad.ops.shape import PUT
    w = tg.tensor(np.linspace(0, 1, 1000), requires_grad=True)
    v = tg.tensor(2.0, requires_grad=True)
    x = w * 1.0
    tape = current_tape()
    before = tape.nrows
    x[7] = v
    assert tape.nrows == before + 1
    tape.flush()
    assert np.frombuffer(tape.rows, np.int64).reshape(-1, 5)[-1, 0] == PUT
    assert x.grad_fn.name() == "torch::autograd::CopySlices"  # (PyTorch's; class CopySlices)


def _setitem_program(L, w, v, s, repeat=False):
    x = w * 1.0
    x[1:3] = v  # a slice from a vector
    # a repeated position: the last write wins, and every value written there gets its
    # gradient (PyTorch's index_put_)
    x[[4, 4, 0] if repeat else [3, 4, 0]] = s * L.tensor([1.0, 2.0, 3.0], dtype=L.float64)
    x[5] = 7.0  # a constant
    x[0:2] = s  # a scalar broadcast over a slice, over an earlier write
    return (x * x * w).sum()


def test_setitem_first_and_second_order_match_torch(torch):
    out = {}
    for L in (tg, torch):
        w = L.tensor(np.linspace(0.1, 1, 6), dtype=L.float64, requires_grad=True)
        v = L.tensor([2.0, 3.0], dtype=L.float64, requires_grad=True)
        s = L.tensor(5.0, dtype=L.float64, requires_grad=True)
        g = L.autograd.grad(_setitem_program(L, w, v, s), [w, v, s], create_graph=True)
        h = L.autograd.grad(sum((t * t).sum() for t in g), [w, v, s])
        out[L] = [np.asarray(t.detach()) if L is tg else t.detach().numpy() for t in g + h]
    for a, b in zip(out[tg], out[torch], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_setitem_repeated_position_first_and_second_order_match_torch(torch):
    out = {}
    for L in (tg, torch):
        w = L.tensor(np.linspace(0.1, 1, 6), dtype=L.float64, requires_grad=True)
        v = L.tensor([2.0, 3.0], dtype=L.float64, requires_grad=True)
        s = L.tensor(5.0, dtype=L.float64, requires_grad=True)
        g = L.autograd.grad(_setitem_program(L, w, v, s, True), [w, v, s], create_graph=True)
        h = L.autograd.grad(sum((t * t).sum() for t in g), [w, v, s])
        out[L] = [np.asarray(t.detach()) if L is tg else t.detach().numpy() for t in g + h]
    for a, b in zip(out[tg], out[torch], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("edit", ["position past the end", "positions descending",
                                  "source past the end"])
def test_a_tampered_put_row_in_a_saved_trace_is_refused(tmp_path, edit):
    from tapegrad.ops.shape import PUT
    from tapegrad.replay import validate

    def f(x):
        y = x * 2.0
        y[[1, 3]] = x[0:2].sin()
        return (y * y).sum()

    t = tg.trace(f, np.linspace(0.1, 1, 5))
    path = tmp_path / "t.npz"
    t.save(path)
    z = dict(np.load(path))
    r = [i for i, row in enumerate(z["rows"]) if row[0] == PUT][0]
    k = int(z["rows"][r, 4])
    meta = z["meta"].copy()
    if edit == "position past the end":
        meta[k + 2] = 5
    elif edit == "positions descending":
        meta[k + 1], meta[k + 2] = meta[k + 2], meta[k + 1]
    else:
        meta[k + 3] = 2
    z["meta"] = meta
    z["digest"] = validate.digest(z)  # a consistent edit: the row layout must catch it
    np.savez(path, **z)
    with pytest.raises(ValueError, match=f"row {r}.*CopySlices|CopySlices.*row {r}"):
        tg.jit.load(path)


def _basic_keys(rng, shape, n):
    """n random basic keys (ints, slices with a step, None, one Ellipsis) valid for shape."""
    keys = []
    while len(keys) < n:
        key, d = [], 0
        while d < len(shape) and rng.random() < 0.8:
            r = rng.random()
            if r < 0.1:
                key.append(None)
            elif r < 0.2 and Ellipsis not in key:
                key.append(Ellipsis)
                d = len(shape)
            elif r < 0.6:
                key.append(int(rng.integers(-shape[d], shape[d])))
                d += 1
            else:
                key.append(slice(*(rng.choice([None, -5, 0, 1, 2, 9]) for _ in range(2)),
                                 rng.choice([None, 1, 2, 3])))
                d += 1
        keys.append(tuple(key))
    return keys


@pytest.mark.parametrize("how", ["plain", "recorded", "view"])
def test_setitem_with_a_basic_key_matches_torch(how, torch, rng):
    # the positions of a basic key come from the key itself (not an arange of the tensor),
    # and a plain tensor takes the write directly into its storage: both checked here
    for shape in [(5,), (4, 6), (3, 4, 5), (2, 1, 3, 4)]:
        for key in _basic_keys(rng, shape, 12):
            x0 = rng.standard_normal(shape)
            sel = np.shape(x0[key])
            value = rng.standard_normal(sel[-1:] if sel and rng.random() < 0.5 else ())
            out = {}
            for L in (tg, torch):
                w = L.tensor(x0, dtype=L.float64, requires_grad=how == "recorded")
                base = w * 2.0 if how == "recorded" else w.clone()
                x = base.view(-1).view(shape) if how == "view" else base
                x[key] = L.tensor(value, dtype=L.float64) if value.ndim else float(value)
                got = [base]
                if how == "recorded":
                    (base * base).sum().backward()
                    got.append(w.grad)
                out[L] = [np.asarray(t.detach()) if L is tg else t.detach().numpy()
                          for t in got]
            for a, b in zip(out[tg], out[torch], strict=True):
                np.testing.assert_array_equal(a, b, err_msg=f"{shape} {key}")


def test_setitem_errors_name_the_shapes(torch):
    for L in (tg, torch):
        x = L.zeros(3, 4)
        with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 0 with "
                                             "size 3"):
            x[3, 0] = 1.0
        with pytest.raises(RuntimeError, match="expanded size of the tensor"):
            x[0, 1:3] = L.ones(3)
