"""Short scripts in the style of PyTorch's docs, tutorials and Stack Overflow answers
(tests/torch_scripts/), each run twice: under PyTorch and with only its import lines
changed to tapegrad; what they print must agree.  PyTorch runs them with float64 as its
default dtype (tapegrad's), and they print nothing drawn at random but shapes and dtypes.
Below them, the gaps those scripts found, each against PyTorch."""
import contextlib
import functools
import io
import pathlib
import re
import traceback
import warnings

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn as tnn

HERE = pathlib.Path(__file__).resolve().parent / "torch_scripts"
SCRIPTS = sorted(p.stem for p in HERE.glob("*.py"))
IMPORTS = [  # "only the import changed" (as tests/test_tutorials.py swaps them)
    (r"^import torch$", "import tapegrad as torch"),
    (r"^import torch\.(\S+) as (\w+)$", r"import tapegrad.\1 as \2"),
    (r"^from torch(\.\S+)? import ", r"from tapegrad\1 import "),
]


def _printed(source, path):
    """What ``source`` prints; an exception it raises ends the printout with its type."""
    out = io.StringIO()  # (print bound to it too: see tests/test_tutorials.py's run)
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(source, str(path), "exec"),
                 {"__name__": "__main__", "print": functools.partial(print, file=out)})
        except Exception as e:  # (compared as printed: PyTorch's run raises nothing)
            print("RAISED", type(e).__name__, traceback.format_exc(limit=-3))
    return out.getvalue()


@pytest.mark.oracle
@pytest.mark.parametrize("name", SCRIPTS)
def test_script_prints_as_under_pytorch(name, torch_float64):
    path = HERE / f"{name}.py"
    source = path.read_text()
    ours = source
    for pattern, repl in IMPORTS:
        ours = re.sub(pattern, repl, ours, flags=re.M)
    assert "import torch" not in ours and "from torch" not in ours
    theirs = _printed(source, path)
    assert "RAISED" not in theirs, theirs
    got = _printed(ours, path)
    assert got == theirs or _same_to_printed_digits(got, theirs), (got, theirs)


_NUMBER = re.compile(r"-?\d+\.?\d*(?:e[-+]?\d+)?")


def _same_to_printed_digits(got, want):
    """The same printout but for numbers one unit apart in their last printed digit (or
    one printed as ``9.`` where the other reads ``9.0000``).  PyTorch's own last bits
    depend on the machine's vector kernels (its AVX-512 and AVX2 reductions and SVDs
    round differently), so a value at a rounding boundary prints either way."""
    a, b = _NUMBER.split(got), _NUMBER.split(want)
    if [" ".join(t.split()) for t in a] != [" ".join(t.split()) for t in b]:
        return False
    for x, y in zip(_NUMBER.findall(got), _NUMBER.findall(want), strict=True):
        unit = min(10.0 ** -len(t.split(".")[1].split("e")[0]) if "." in t else 1.0
                   for t in (x, y))
        scale = 10.0 ** int(re.search(r"e([-+]?\d+)", x).group(1)) if "e" in x else 1.0
        if abs(float(x) - float(y)) > 1.5 * unit * scale:
            return False
    return True


# ---- the gaps the scripts found -------------------------------------------------------
def _parameter_holders(L):
    one = L.nn.ParameterDict({"w": L.nn.Parameter(L.ones(2, dtype=L.float64))})
    lst = L.nn.ParameterList([L.nn.Parameter(L.ones(2, 3, dtype=L.float32)),
                              L.nn.Parameter(L.ones(4, dtype=L.float64))])
    two = L.nn.ParameterDict({"a": L.nn.Parameter(L.ones(2, dtype=L.float32)),
                              "b": L.ones((), dtype=L.float64)})
    holder = L.nn.Module()
    holder.lst, holder.two, holder.one = lst, two, one
    return [one, lst, two, holder, L.nn.ParameterList(), L.nn.ParameterDict()]


def test_parameter_list_and_dict_print_as_pytorch(torch):
    """ParameterList names the dtype, ParameterDict the tensor type; Module's layout
    (one line inline, more indented under the name)."""
    for ours, theirs in zip(_parameter_holders(tg), _parameter_holders(torch), strict=True):
        assert repr(ours) == repr(theirs)
        assert ours.extra_repr() == theirs.extra_repr()


def test_return_types_print_under_pytorchs_name(torch):
    r = tg.tensor([[1.0, 3.0], [2.0, 0.0]]).max(dim=1)
    assert repr(r).startswith("torch.return_types.max(\nvalues=tensor([3., 2.]),")
    assert type(r).__module__ == "tapegrad.return_types"  # (its home stays tapegrad's)


LISTS = [  # lists holding NumPy scalars, arrays or tensors: their dtypes decide
    lambda L: [np.float32(1.5)], lambda L: [np.float32(1.0), 2.0], lambda L: [1, np.float32(2)],
    lambda L: [np.int32(1), np.int32(7)], lambda L: [[np.float32(1)], [np.float32(2)]],
    lambda L: [np.ones(2, np.float32)] * 2, lambda L: [np.int64(2), 1.5],
    lambda L: [L.tensor(1.5, dtype=L.float32), L.tensor(2.0, dtype=L.float32)],
    lambda L: [np.float16(1)], lambda L: [np.bool_(True), np.bool_(False)],
    lambda L: [np.uint8(3), np.uint8(250)], lambda L: [[1, 2], [np.int16(3), True]],
    lambda L: [np.float64(0.1)], lambda L: [1.0, 2.0], lambda L: [1, 2], lambda L: [True]]


@pytest.mark.parametrize("default", ["float64", "float32"])
@pytest.mark.parametrize("make", LISTS)
def test_tensor_of_a_list_of_numpy_scalars_keeps_their_dtype(make, default, torch):
    old = tg.get_default_dtype(), torch.get_default_dtype()
    tg.set_default_dtype(getattr(tg, default))
    torch.set_default_dtype(getattr(torch, default))
    try:
        with warnings.catch_warnings():  # (PyTorch's about a list of ndarrays)
            warnings.simplefilter("ignore", UserWarning)
            theirs = torch.tensor(make(torch))
        for fn in (tg.tensor, tg.as_tensor):
            ours = fn(make(tg))
            assert str(ours.dtype) == str(theirs.dtype)
            assert ours.tolist() == theirs.tolist()
    finally:
        tg.set_default_dtype(old[0])
        torch.set_default_dtype(old[1])


WRAPS = [  # a Python int beyond an integer tensor's dtype is cast into it, wrapping
    lambda L, u: u + 1000, lambda L, u: 1000 + u, lambda L, u: u * 300, lambda L, u: u - 300,
    lambda L, u: 300 - u, lambda L, u: u + (-1), lambda L, u: u.add(1000, alpha=2),
    lambda L, u: L.add(u, 1000), lambda L, u: u.sub(1000), lambda L, u: u + 2 ** 40,
    lambda L, u: u // 1000, lambda L, u: u % 1000, lambda L, u: u == 1000,
    lambda L, u: u < 1000, lambda L, u: u > -1, lambda L, u: u.ne(1000),
    lambda L, u: u & 1000, lambda L, u: u | 256, lambda L, u: 257 ^ u,
    lambda L, u: L.bitwise_and(u, 1000), lambda L, u: 1000 << u.clamp(max=2),
    lambda L, u: u.add_(1000), lambda L, u: u.mul_(300), lambda L, u: u.sub_(300),
    lambda L, u: u.to(L.int8) * 1000, lambda L, u: u.to(L.int16) * 70000,
    lambda L, u: u.to(L.int32) + 2 ** 31, lambda L, u: u.long() + (2 ** 63 - 1),
    lambda L, u: u + 1000.0, lambda L, u: u + True]


@pytest.mark.parametrize("fn", WRAPS)
def test_integer_tensor_by_an_out_of_range_int_wraps_as_pytorch(fn, torch):
    values = [250, 232, 5]
    ours = fn(tg, tg.tensor(values, dtype=tg.uint8))
    theirs = fn(torch, torch.tensor(values, dtype=torch.uint8))
    assert ours.tolist() == theirs.tolist()
    assert str(ours.dtype).replace("float64", "float32") == str(theirs.dtype)  # (u + 1000.0)


def test_an_int_beyond_64_bits_is_still_refused():
    with pytest.raises(OverflowError):
        tg.tensor([1], dtype=tg.uint8) + 2 ** 64


CONVERSIONS = [lambda L: float(L.ones(3)), lambda L: int(L.ones(2, dtype=L.int64)),
               lambda L: complex(L.ones(2)), lambda L: float(L.ones(0)),
               lambda L: range(10)[L.tensor([1, 2])], lambda L: [1, 2][L.tensor(1.0)]]


@pytest.mark.parametrize("call", CONVERSIONS)
def test_python_number_of_many_elements_raises_as_pytorch(call, raises_as_torch):
    raises_as_torch(call)  # float()/int() ValueError; as an index TypeError


@pytest.mark.parametrize("call", [lambda L: float(L.tensor([[2.5]])),
                                  lambda L: int(L.tensor([7])), lambda L: complex(L.tensor(2.0)),
                                  lambda L: [1, 2, 3][L.tensor([2])]])
def test_python_number_of_one_element(call, torch):
    assert call(tg) == call(torch)


DETS = [[[4.0, 1.0], [1.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]],
        [[2.0, 0.0, 0.0], [0.0, 0.0, 3.0], [0.0, 5.0, 0.0]], [[1.0, 2.0], [2.0, 4.0]],
        [[[3.0, 1.0], [1.0, 2.0]], [[0.5, 0.25], [4.0, 8.0]]], np.zeros((2, 0, 0))]


@pytest.mark.parametrize("a", DETS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_det_is_the_lu_product_as_pytorch(a, dtype, torch_float64):
    torch = torch_float64
    """Exact where PyTorch's is (NumPy's det, through logarithms, gave 11.000000000000002
    for the first, and it printed as tensor(11.0000))."""
    a = np.asarray(a, dtype)
    for fn in (lambda L, x: L.det(x), lambda L, x: L.linalg.det(x)):
        ours, theirs = fn(tg, tg.tensor(a)), fn(torch, torch.tensor(a))
        if dtype == "float64":
            assert np.array_equal(ours.numpy(), theirs.numpy()) and str(ours) == str(theirs)
        else:  # (float32 LU: the BLAS's roundings differ in the last bit)
            assert ours.dtype == tg.float32
            np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_det_gradient_against_pytorch_and_differences(rng, torch_vjp, fd_dot):
    a = rng.standard_normal((3, 4, 4))
    u = rng.standard_normal(3)
    x = tg.tensor(a, requires_grad=True)
    (g,) = tg.autograd.grad(tg.linalg.det(x), x, grad_outputs=tg.tensor(u))
    value, (want,) = torch_vjp(lambda t: __import__("torch").linalg.det(t), [a], u)
    np.testing.assert_allclose(tg.linalg.det(tg.tensor(a)).numpy(), value, rtol=1e-13)
    np.testing.assert_allclose(g.numpy(), want, rtol=1e-10, atol=1e-12)
    v = rng.standard_normal(a.shape)
    assert np.isclose(np.vdot(g.numpy(), v), fd_dot(tg.linalg.det, [a], 0, v, u), rtol=1e-6)


LOSSES = [  # (call, PyTorch's node name): what print(loss) shows
    (lambda F, x, t: F.mse_loss(x, t), "MseLossBackward0"),
    (lambda F, x, t: F.mse_loss(x, t, reduction="none"), "MseLossBackward0"),
    (lambda F, x, t: F.binary_cross_entropy(x.sigmoid(), t), "BinaryCrossEntropyBackward0"),
    (lambda F, x, t: F.binary_cross_entropy_with_logits(x, t, reduction="sum"),
     "BinaryCrossEntropyWithLogitsBackward0"),
    (lambda F, x, t: F.smooth_l1_loss(x, t), "SmoothL1LossBackward0"),
    (lambda F, x, t: F.smooth_l1_loss(x, t, beta=0.0), "MeanBackward0"),
    (lambda F, x, t: F.huber_loss(x, t, delta=0.5), "HuberLossBackward0")]


@pytest.mark.parametrize("call, node", LOSSES)
def test_loss_nodes_print_as_pytorchs(call, node, torch_float64):
    torch = torch_float64
    a = np.array([[0.3, -1.2, 2.0], [0.7, 0.1, -0.4]])
    t = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.5]])
    x, xt = tg.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    ours, theirs = call(tg.nn.functional, x, tg.tensor(t)), call(torch.nn.functional, xt,
                                                               torch.tensor(t))
    assert ours.grad_fn.name() == theirs.grad_fn.name() == node
    assert str(ours) == str(theirs)
    u = np.linspace(0.5, 1.5, ours.numel()).reshape(ours.shape)
    (g,) = tg.autograd.grad(ours, x, tg.tensor(u))
    (gt,) = torch.autograd.grad(theirs, xt, torch.tensor(u))
    np.testing.assert_allclose(g.numpy(), gt.numpy(), rtol=1e-12, atol=1e-14)
    with tg.no_grad():
        assert call(tg.nn.functional, x, tg.tensor(t)).grad_fn is None


@pytest.mark.parametrize("primal_requires_grad", [False, True])
def test_unpack_dual_primal_records_only_when_pytorchs_does(primal_requires_grad, torch):
    """The primal of a computed dual: a plain tensor when no primal requires grad (tapegrad
    records dual arithmetic to carry the tangents; PyTorch's primal has no grad_fn)."""
    got = []
    for L in (tg, torch):
        fw = L.autograd.forward_ad
        p = L.tensor([1.0, 2.0], dtype=L.float64, requires_grad=primal_requires_grad)
        with fw.dual_level():
            d = fw.make_dual(p, L.tensor([1.0, 0.5], dtype=L.float64))
            primal, tangent = fw.unpack_dual(d.sin() * d)
            got.append((primal.requires_grad, primal.grad_fn is None, primal.tolist(),
                        tangent.tolist()))
    assert got[0][:2] == got[1][:2]
    np.testing.assert_allclose(got[0][2:], got[1][2:], rtol=1e-14)


PYTHON_LOOPS = [
    lambda L: L.tensor([1.0, 2.0]).apply_(lambda v: v * 2),
    lambda L: L.tensor([1, 2]).apply_(lambda v: v + 0.7),  # (cast back: truncated)
    lambda L: L.arange(6.0).view(2, 3).t().apply_(lambda v: v + 1),
    lambda L: L.tensor([True, False]).apply_(lambda v: not v),
    lambda L: L.ones(2, 2).map_(L.tensor([1.0, 2.0]), lambda p, q: p * q),
    lambda L: L.empty(0).apply_(float)]


@pytest.mark.parametrize("call", PYTHON_LOOPS)
def test_apply_and_map_as_pytorch(call, torch_float64):
    torch = torch_float64
    ours, theirs = call(tg), call(torch)
    assert ours.tolist() == theirs.tolist() and str(ours.dtype) == str(theirs.dtype)


def test_apply_writes_through_a_row_and_refuses_grad(raises_as_torch):
    for L in (tg, __import__("torch")):
        base = L.zeros(2, 3)
        assert base[0].apply_(lambda v: 5).sum().item() == 15 and base.sum().item() == 15
    raises_as_torch(lambda L: L.ones(2, requires_grad=True).apply_(abs))
    raises_as_torch(lambda L: L.ones(2).map_(L.ones(2, requires_grad=True), max))


NUMPY_NAMES = [  # PyTorch's argument parser takes axis= for dim= and keepdims= for keepdim=
    lambda L, x: x.sum(axis=0), lambda L, x: L.sum(x, axis=1, keepdims=True),
    lambda L, x: x.mean(axis=-1, keepdims=True), lambda L, x: L.max(x, axis=1).values,
    lambda L, x: x.min(axis=0).indices, lambda L, x: x.std(axis=0),
    lambda L, x: x.argmax(axis=1), lambda L, x: L.cat([x, x], axis=1),
    lambda L, x: L.stack([x, x], axis=0), lambda L, x: x.cumsum(axis=1),
    lambda L, x: x.amax(axis=1, keepdims=True), lambda L, x: (x > 2).any(axis=0),
    lambda L, x: x.unsqueeze(axis=0), lambda L, x: L.logsumexp(x, axis=1),
    lambda L, x: x.sort(axis=1, descending=True).values, lambda L, x: x.norm(dim=1),
    lambda L, x: x.softmax(axis=1), lambda L, x: L.log_softmax(x, axis=0),
    lambda L, x: L.softmax(x, dim=1)]


@pytest.mark.parametrize("call", NUMPY_NAMES)
def test_numpy_axis_and_keepdims_names(call, torch_float64):
    torch = torch_float64
    a = np.array([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]])
    ours, theirs = call(tg, tg.tensor(a)), call(torch, torch.tensor(a))
    assert tuple(ours.shape) == tuple(theirs.shape) and str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(ours.numpy().astype(float), theirs.numpy().astype(float),
                               rtol=1e-15, atol=0)


def test_numpy_axis_keeps_the_gradient_and_refuses_both_names():
    x = tg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (x.sum(axis=1, keepdims=True) ** 2).sum().backward()
    assert x.grad.tolist() == [[6.0, 6.0], [14.0, 14.0]]
    with pytest.raises(TypeError, match="multiple values for argument 'dim'"):
        x.sum(axis=0, dim=1)


LINALG_NODES = [lambda L, A, b: L.linalg.inv(A), lambda L, A, b: L.inverse(A),
                lambda L, A, b: L.det(A), lambda L, A, b: L.linalg.slogdet(A)[1],
                lambda L, A, b: L.linalg.solve(A, b),
                lambda L, A, b: L.linalg.solve_triangular(A, b, upper=True),
                lambda L, A, b: L.linalg.cholesky(A), lambda L, A, b: L.linalg.eigh(A)[0],
                lambda L, A, b: L.linalg.svd(A)[1], lambda L, A, b: L.linalg.qr(A)[1],
                lambda L, A, b: L.linalg.pinv(A), lambda L, A, b: L.linalg.lstsq(A, b).solution,
                lambda L, A, b: L.linalg.lu_factor(A)[0]]


@pytest.mark.parametrize("call", LINALG_NODES)
def test_linalg_nodes_have_pytorchs_names(call, torch):
    names = []
    for L in (tg, torch):
        A = (L.eye(3, dtype=L.float64) * 2 + 0.1).requires_grad_()
        names.append(call(L, A, L.ones(3, 1, dtype=L.float64)).grad_fn.name())
    assert names[0] == names[1]
