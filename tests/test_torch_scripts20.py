"""Differences from PyTorch found by the scripts s280-s319 (tests/torch_scripts/), each
against PyTorch: an int beside index tensors selects first (x[0, :, i] is x[0][:, i]), the
index errors' wording, embedding_bag's one node, autograd.functional's strict mode, and
result_type with a Python complex number."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- x[0, :, i]: PyTorch applies ints (and slices, Nones) before the index tensors ---------
def _keys(L):
    i, j = L.tensor([2, 0]), L.tensor([[0], [1]])
    m3, m4 = L.tensor([True, False, True]), L.tensor([True, False, True, True])
    return [
        (0, slice(None), i),              # NumPy: i's dim first, (2, 3, 5); PyTorch (3, 2, 5)
        (slice(None), 1, slice(None), L.tensor([0, 4, 4])),
        (L.tensor([1, 0]), slice(None), 0),  # (the same under both rules)
        (0, Ellipsis, L.tensor([1, 2])),
        (j, 2, L.tensor([1, 3]), slice(1, 3)),
        (None, 1, slice(None), m4),
        (1, None, i, 0, L.tensor([[4], [1]])),
        (L.tensor([True, False]), 0, slice(None), L.tensor([1, 2])),
        (0, L.tensor([[True, False, True, False]] * 3)),
        (1, True, slice(None), L.tensor([1])),
        (-1, m3, slice(1, None), -2),
        (slice(None, None, 2), 0, i, L.tensor(3)),  # (a 0-d tensor selects like an int)
    ]


def test_ints_beside_index_tensors_select_first_as_pytorchs(torch_float64):
    x = np.arange(2 * 3 * 4 * 5, dtype=np.float64).reshape(2, 3, 4, 5)
    for k, kt in zip(_keys(tg), _keys(torch_float64), strict=True):
        # read
        a, at = tg.tensor(x, requires_grad=True), torch_float64.tensor(x, requires_grad=True)
        y, yt = a[k], at[kt]
        assert tuple(y.shape) == tuple(yt.shape), k
        np.testing.assert_array_equal(np.asarray(y.detach()), yt.detach().numpy())
        assert type(y.grad_fn).__name__ == type(yt.grad_fn).__name__ == "IndexBackward0"
        # its gradient: each read position's weight lands where it was read
        w = np.arange(1.0, yt.numel() + 1).reshape(tuple(yt.shape))
        (y * tg.tensor(w)).sum().backward()
        (yt * torch_float64.tensor(w)).sum().backward()
        np.testing.assert_array_equal(np.asarray(a.grad), at.grad.numpy())
        # write: the same positions, in the same order
        b, bt = tg.tensor(x), torch_float64.tensor(x)
        b[k] = tg.tensor(-w)
        bt[kt] = torch_float64.tensor(-w)
        np.testing.assert_array_equal(np.asarray(b), bt.numpy())


def test_int_select_first_gradient_matches_finite_differences():
    x = tg.tensor(np.linspace(-1.0, 1.0, 24).reshape(2, 3, 4), requires_grad=True)
    i = tg.tensor([3, 0, 3])

    def f(t):
        return (t[1, :, i] ** 2 * tg.tensor([[1.0, 2.0, 3.0]])).sum()

    f(x).backward()
    eps, fd = 1e-6, np.zeros((2, 3, 4))
    base = np.asarray(x.detach())
    for pos in np.ndindex(2, 3, 4):
        e = np.zeros((2, 3, 4))
        e[pos] = eps
        fd[pos] = (f(tg.tensor(base + e)).item() - f(tg.tensor(base - e)).item()) / (2 * eps)
    np.testing.assert_allclose(np.asarray(x.grad), fd, atol=1e-8)
    assert np.count_nonzero(fd[0]) == 0 and np.count_nonzero(fd[1][:, [1, 2]]) == 0


@pytest.mark.parametrize("key", [
    lambda L: (L.tensor([0, 1]), L.tensor([0, 1, 2])),
    lambda L: (L.tensor([0, 1]), 0, L.tensor([1, 2, 3])),
    lambda L: (L.tensor([0, 1]), 0, L.tensor([True, False, True])),  # (a mask after an int)
    lambda L: (None, slice(1, None), L.tensor([True, False]), 1),
    lambda L: (0, None, L.tensor([[True] * 4] * 2)),
    lambda L: (Ellipsis, L.tensor([True]), 0),
    lambda L: (0, L.tensor([True, False]), slice(1, None)),
    lambda L: (L.tensor([True, False, True]),),
])
def test_index_errors_say_what_pytorchs_say(key, raises_as_torch):
    """NumPy's "indexing arrays could not be broadcast" said as PyTorch says it; a mask's
    mismatch is against the tensor with the ints, slices and Nones applied."""
    def read(L):
        return L.zeros(2, 3, 4)[key(L)]

    def write(L):
        L.zeros(2, 3, 4)[key(L)] = 1.0

    raises_as_torch(read)
    raises_as_torch(write)


# ---- embedding_bag: one EmbeddingBagBackward0 node, whatever the mode ----------------------
def _bag_cases(L):
    w = L.tensor(np.arange(15.0).reshape(5, 3) / 7, requires_grad=True)
    p = L.tensor([0.5, 2.0, 1.0, -1.0], requires_grad=True)
    idx, offs = L.tensor([0, 4, 2, 2]), L.tensor([0, 2, 2])
    F = L.nn.functional
    return [(F.embedding_bag(idx, w, offs, mode=m), (w,)) for m in ("sum", "mean", "max")] + [
        (F.embedding_bag(idx, w, offs, mode="sum", per_sample_weights=p), (w, p)),
        (F.embedding_bag(idx, w.detach(), offs, mode="sum", per_sample_weights=p), (p,)),
        (F.embedding_bag(idx.view(2, 2), w, mode="mean", padding_idx=2), (w,)),
        (L.nn.EmbeddingBag.from_pretrained(w, freeze=False, mode="sum")(idx.view(1, 4)), (w,))]


def _edges(y):
    return [None if f is None else type(f).__name__ for f, _ in y.grad_fn.next_functions]


def test_embedding_bag_is_one_node_as_pytorchs(torch_float64):
    for (y, xs), (yt, xts) in zip(_bag_cases(tg), _bag_cases(torch_float64), strict=True):
        assert type(y.grad_fn).__name__ == type(yt.grad_fn).__name__ == "EmbeddingBagBackward0"
        assert _edges(y) == _edges(yt)
        np.testing.assert_allclose(np.asarray(y.detach()), yt.detach().numpy(), atol=1e-12)
        g = np.cos(np.arange(y.numel())).reshape(tuple(y.shape))
        for (lib, out, ins) in ((tg, y, xs), (torch_float64, yt, xts)):
            out.backward(lib.tensor(g))
        for x, xt in zip(xs, xts, strict=True):
            np.testing.assert_allclose(np.asarray(x.grad), xt.grad.numpy(), atol=1e-12)


# ---- torch.autograd.functional's strict mode: PyTorch's checks and messages ----------------
def _strict_calls(L):
    F = L.autograd.functional
    x, v = L.ones(3, dtype=L.float64), L.ones(3, dtype=L.float64)
    const = lambda a: L.ones(2, dtype=L.float64)  # noqa: E731
    cube = lambda a, b: (a ** 3).sum()  # noqa: E731 (b unused)
    return [
        lambda: F.jacobian(const, x, strict=True),
        lambda: F.jacobian(lambda a: a.detach() * 2, x, strict=True),
        lambda: F.jacobian(lambda a, b: a * 2, (x, x), strict=True),
        lambda: F.jacobian(lambda a: a * 2, x, strict=True, vectorize=True),
        lambda: F.jacobian(lambda a: a * 2, x, strict=True, vectorize=True,
                           strategy="forward-mode"),
        lambda: F.vjp(const, x, L.ones(2, dtype=L.float64), strict=True),
        lambda: F.vjp(lambda a, b: (a * 2).sum(), (x, x), strict=True),
        lambda: F.jvp(const, x, v, strict=True),
        lambda: F.hessian(lambda a: a.sum(), x, strict=True),
        lambda: F.hessian(lambda a: L.ones((), dtype=L.float64), x, strict=True),
        lambda: F.hessian(cube, (x, x), strict=True),
        lambda: F.hvp(lambda a: a.sum(), x, v, strict=True),
        lambda: F.vhp(lambda a: a.sum(), x, v, strict=True),
        lambda: F.hvp(cube, (x, x), (v, v), strict=True),
        lambda: F.vhp(cube, (x, x), (v, v), strict=True),
    ]


@pytest.mark.parametrize("k", range(15))
def test_functional_strict_mode_raises_as_pytorch(k, torch_float64):
    """(The user's function has run and recorded its ops when the check fails, as in
    PyTorch: raises_as_torch's unchanged tape does not apply.)"""
    errors = []
    for lib in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            _strict_calls(lib)[k]()
        errors.append(str(info.value))
    assert errors[0] == errors[1]


def test_functional_strict_mode_passes_what_depends_on_the_inputs(torch_float64):
    for L in (tg, torch_float64):
        F = L.autograd.functional
        x, v = L.tensor([0.5, -1.0, 2.0]), L.tensor([1.0, 0.5, -1.0])
        f = lambda a: (a ** 3).sum()  # noqa: E731
        j = F.jacobian(lambda a: a.sin(), x, strict=True)
        h = F.hessian(f, x, strict=True)
        _, hv = F.hvp(f, x, v, strict=True)
        _, jv = F.jvp(lambda a: a.exp(), x, v, strict=True)
        np.testing.assert_allclose(np.asarray(j), np.diag(np.cos([0.5, -1.0, 2.0])))
        np.testing.assert_allclose(np.asarray(h), np.diag([3.0, -6.0, 12.0]))
        np.testing.assert_allclose(np.asarray(hv), [3.0, -3.0, -12.0])
        np.testing.assert_allclose(np.asarray(jv), np.exp([0.5, -1.0, 2.0]) * [1.0, 0.5, -1.0])


# ---- result_type and promote_types with complex operands -----------------------------------
_NAMES = ["bool", "uint8", "int8", "int32", "int64", "float16", "float32", "float64",
          "complex64", "complex128"]


def _promotions(L):
    """promote_types of every pair; result_type of every pair of tensors (dimensioned or
    zero-dim) and of a tensor with a Python number, either way round."""
    make = [lambda d: L.ones(2, dtype=getattr(L, d)), lambda d: L.tensor(1, dtype=getattr(L, d))]
    out = [str(L.promote_types(getattr(L, a), getattr(L, b))) for a in _NAMES for b in _NAMES]
    for a in _NAMES:
        for b in _NAMES + [True, 2, 2.5, 1j]:
            if a == "float16" and ("complex" in str(b) or b == 1j) or \
                    b == "float16" and "complex" in a:
                continue  # (PyTorch's complex32: NumPy has none)
            for fa in make:
                for fb in make:
                    other = fb(b) if isinstance(b, str) else b
                    out += [str(L.result_type(fa(a), other)), str(L.result_type(other, fa(a)))]
    return out


def test_promotion_with_complex_as_pytorchs(torch_float64):
    """A float and a complex give the complex of the wider float (complex64 and float64:
    complex128); a complex number or zero-dim tensor with a dimensioned float tensor gives
    the complex of the tensor's width (float32 and 1j: complex64)."""
    ours, theirs = _promotions(tg), _promotions(torch_float64)
    assert ours == theirs
    assert str(tg.promote_types(tg.complex64, tg.float64)) == "torch.complex128"
    assert str(tg.result_type(tg.ones(2, dtype=tg.float32), 1j)) == "torch.complex64"
    assert str(tg.result_type(tg.ones(2, dtype=tg.int32), 1j)) == "torch.complex128"
    with pytest.raises(TypeError, match="must be a Tensor or a Number, not str"):
        tg.result_type(tg.ones(2), "x")


# ---- an instantiated autograd.Function: PyTorch's warning, then its legacy error -------------
def _instance(L):
    class Twice(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with pytest.warns(DeprecationWarning) as record:
        f = Twice()
    return Twice, f, str(record[0].message)


def test_instantiated_function_warns_and_raises_as_pytorchs(torch_float64):
    (cls, f, said), (tcls, tf, tsaid) = _instance(tg), _instance(torch_float64)
    assert said.replace(tcls.__qualname__, "") == tsaid.replace(tcls.__qualname__, "")
    assert "should not be instantiated" in said
    errors = []
    for lib, obj in ((tg, f), (torch_float64, tf)):
        with pytest.raises(RuntimeError) as info:
            obj(lib.ones(2, requires_grad=True))
        errors.append(str(info.value))
    assert errors[0] == errors[1] and errors[0].startswith("Legacy autograd function")
    x = tg.tensor([1.0, -2.0], requires_grad=True)  # (the class itself still applies)
    cls.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


# ---- linalg's error class under PyTorch's name ---------------------------------------------
def test_linalg_error_is_named_as_pytorchs(torch_float64):
    import pickle
    names = []
    for L in (tg, torch_float64):
        with pytest.raises(L.linalg.LinAlgError) as info:
            L.linalg.inv(L.zeros(2, 2))
        names.append((type(info.value).__name__, str(info.value)))
        assert isinstance(info.value, RuntimeError)
    assert names[0] == names[1] and names[0][0] == "_LinAlgError"
    with pytest.raises(tg.linalg.LinAlgError) as info:
        tg.linalg.cholesky(-tg.eye(2))
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is tg.linalg.LinAlgError and str(again) == str(info.value)


# ---- tensordot: an int ``dims`` counts a's dims from the end, as PyTorch's messages say ------
def _tensordot_calls(L):
    a = L.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    b = L.tensor(np.linspace(-1, 1, 12).reshape(3, 2, 2), requires_grad=True)
    return a, b, [
        lambda: L.tensordot(a, a, dims=1),
        lambda: L.tensordot(a, b, dims=2),
        lambda: L.tensordot(a, a.T, dims=([0], [0])),
        lambda: L.tensordot(L.ones(2, 3, 4), L.ones(3, 5, 4), dims=([1, -1], [0, -2])),
    ]


def test_tensordot_errors_and_values_as_pytorchs(torch_float64):
    (a, b, calls), (at, bt, tcalls) = _tensordot_calls(tg), _tensordot_calls(torch_float64)
    for call, tcall in zip(calls, tcalls, strict=True):
        with pytest.raises(RuntimeError) as got:
            call()
        with pytest.raises(RuntimeError) as want:
            tcall()
        assert str(got.value) == str(want.value)
    for L, x, y in ((tg, a, b), (torch_float64, at, bt)):  # (the values and grads unchanged)
        (L.tensordot(x, y, dims=1) ** 2).sum().backward()
    np.testing.assert_allclose(np.asarray(a.grad), at.grad.numpy())
    np.testing.assert_allclose(np.asarray(b.grad), bt.grad.numpy())


# ---- a NumPy ufunc of tensors gives a tensor (bools as uint8), as PyTorch's __array_wrap__ --
def _ufuncs(L):
    x = L.tensor([0.5, -2.0, 3.0])
    return [np.exp(x), np.greater(x, 0), np.add(L.tensor([1, 2]), L.tensor([3, 4])),
            np.sqrt(L.tensor(4.0)), np.exp(L.tensor([1.0], dtype=L.float32)),
            np.maximum(x, 1), np.add(np.ones(3), x)]


def test_numpy_ufuncs_of_tensors_give_tensors_as_pytorchs(torch_float64):
    for y, yt in zip(_ufuncs(tg), _ufuncs(torch_float64), strict=True):
        assert isinstance(y, tg.Tensor) and not y.requires_grad
        assert repr(y) == repr(yt)
    x = tg.tensor([1.0, 2.0])
    y = np.negative(x)
    y[0] = 7.0  # (a new tensor: x keeps its values)
    assert x.tolist() == [1.0, 2.0] and y.tolist() == [7.0, -2.0]
