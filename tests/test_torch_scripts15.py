"""The gaps scripts s82-s100 (tests/torch_scripts/, run by test_torch_scripts13.py) and the
last round found, each against PyTorch: mode's index among ties (std::sort's order past 16
values), the dtype checks of the products (mm, mv, dot, bmm, matmul, linear, inner,
tensordot) and binary_cross_entropy in PyTorch's words per kernel, with float32 meeting
float64 promoted only while float64 is tapegrad's default, and default_collate keeping a
field of strings the tuple it came in."""
import collections

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.utils.data import default_collate

pytestmark = pytest.mark.oracle


@pytest.fixture
def float32_default(torch):
    """PyTorch's default float dtype in both libraries (restored after)."""
    old_t, old_g = torch.get_default_dtype(), tg.get_default_dtype()
    torch.set_default_dtype(torch.float32)
    tg.set_default_dtype(tg.float32)
    try:
        yield torch
    finally:
        torch.set_default_dtype(old_t)
        tg.set_default_dtype(old_g)


def _outcome(f, L):
    try:
        r = f(L)
    except RuntimeError as e:
        return "RuntimeError", str(e)
    return str(r.dtype), np.asarray(r.detach()).tolist()


# ---- mode: the index PyTorch gives among ties ------------------------------------------------
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "uint8", "bool"])
def test_mode_index_among_ties_matches_torch(torch, dtype):
    """PyTorch's mode std::sorts (value, index) pairs by value and takes the pair ending the
    longest run: rows longer than 16 put ties in introsort's order, not the last
    occurrence's (which tapegrad gave: indices differed in about half of such rows)."""
    rng = np.random.default_rng(7)
    for _ in range(40):
        ndim = int(rng.integers(1, 4))  # (within std_sort.MAX_WORK values)
        shape = tuple(int(s) for s in rng.integers(1, {1: 200, 2: 60, 3: 20}[ndim],
                                                      size=ndim))
        a = rng.integers(0, int(rng.integers(2, 6)), size=shape).astype(dtype)
        d = int(rng.integers(-len(shape), len(shape)))
        want, got = torch.tensor(a).mode(d), tg.tensor(a).mode(d)
        np.testing.assert_array_equal(np.asarray(got.indices), want.indices.numpy())
        np.testing.assert_array_equal(np.asarray(got.values), want.values.numpy())


def test_mode_long_rows_tie_broken_not_by_last_occurrence(torch):
    """A row (0, 1) * 20: the last 0 is at 38, PyTorch's std::sort leaves another there."""
    a = np.tile([0.0, 1.0], 20)
    want = torch.tensor(a).mode(0).indices.item()
    assert tg.tensor(a).mode(0).indices.item() == want
    assert want != 38  # (the old answer: this row tells the two rules apart)


# ---- products: the dtype check of PyTorch's kernel, in its words ------------------------------
_SHAPES = [((2, 3), (3, 2)), ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 2, 3), (3, 2)),
           ((2, 2, 3), (3,)), ((3,), (2, 3, 2)), ((2, 3), (2, 3, 2)), ((2, 2, 3), (2, 3, 2)),
           ((2, 2, 3), (1, 3, 2))]
_PAIRS = [("float64", "float32"), ("float32", "float64"), ("float64", "int64"),
          ("int64", "float64"), ("float32", "int32"), ("int16", "float32"),
          ("float32", "float16"), ("uint8", "int8")]
_PRODUCTS = {
    "mm": lambda L, A, B: L.mm(L.ones(2, 3, dtype=A), L.ones(3, 2, dtype=B)),
    "mv": lambda L, A, B: L.mv(L.ones(2, 3, dtype=A), L.ones(3, dtype=B)),
    "dot": lambda L, A, B: L.dot(L.ones(3, dtype=A), L.ones(3, dtype=B)),
    "bmm": lambda L, A, B: L.bmm(L.ones(1, 2, 3, dtype=A), L.ones(1, 3, 2, dtype=B)),
    "inner": lambda L, A, B: L.inner(L.ones(2, 3, dtype=A), L.ones(3, dtype=B)),
    "tensordot": lambda L, A, B: L.tensordot(L.ones(2, 3, dtype=A), L.ones(3, 2, dtype=B), 1),
    "outer": lambda L, A, B: L.outer(L.ones(3, dtype=A), L.ones(2, dtype=B)),
    "linear": lambda L, A, B: L.nn.functional.linear(L.ones(2, 3, dtype=A),
                                                     L.ones(4, 3, dtype=B)),
    "linear3d": lambda L, A, B: L.nn.functional.linear(L.ones(2, 2, 3, dtype=A),
                                                       L.ones(4, 3, dtype=B)),
    "linear_bias": lambda L, A, B: L.nn.functional.linear(
        L.ones(2, 3, dtype=A), L.ones(4, 3, dtype=B), L.ones(4, dtype=B)),
    "linear_bias_other": lambda L, A, B: L.nn.functional.linear(
        L.ones(3, dtype=B), L.ones(4, 3, dtype=B), L.ones(4, dtype=A)),
    "linear_all_other": lambda L, A, B: L.nn.functional.linear(
        L.ones(2, 3, dtype=A), L.ones(4, 3, dtype=B), L.ones(4, dtype=A)),
}
_PRODUCTS.update({f"matmul{sa}{sb}": (lambda sa, sb: lambda L, A, B: L.matmul(
    L.ones(sa, dtype=A), L.ones(sb, dtype=B)))(sa, sb) for sa, sb in _SHAPES})


@pytest.mark.parametrize("pair", _PAIRS, ids="-".join)
@pytest.mark.parametrize("op", sorted(_PRODUCTS))
def test_product_dtype_mismatch_as_torch_with_float32_default(float32_default, op, pair):
    """With PyTorch's default (float32) nothing stands in for it: every mix is refused as
    PyTorch refuses it, in its kernel's words (mm: C type names; addmv; dot; bmm's scalar
    type; addmm's self / mat1), except outer, a product that promotes."""
    torch = float32_default
    f = _PRODUCTS[op]
    a, b = pair
    assert _outcome(lambda L: f(L, getattr(L, a), getattr(L, b)), tg) == \
        _outcome(lambda L: f(L, getattr(L, a), getattr(L, b)), torch)


@pytest.mark.parametrize("pair", [p for p in _PAIRS if "float64" not in p or
                                  {"float32", "float64"} != set(p)], ids="-".join)
@pytest.mark.parametrize("op", sorted(_PRODUCTS))
def test_product_dtype_mismatch_as_torch_with_float64_default(torch_float64, op, pair):
    """The same refusals while float64 is the default, for every mix but float32 with
    float64."""
    torch = torch_float64
    f = _PRODUCTS[op]
    a, b = pair
    assert _outcome(lambda L: f(L, getattr(L, a), getattr(L, b)), tg) == \
        _outcome(lambda L: f(L, getattr(L, a), getattr(L, b)), torch)


@pytest.mark.parametrize("op", sorted(_PRODUCTS))
def test_float32_meeting_default_float64_promotes(torch, op):
    """float32 data meeting float64 (tapegrad's default, standing for PyTorch's float32)
    promotes (README): the float64 product of the same values, as PyTorch computes it when
    both are float64."""
    f = _PRODUCTS[op]
    for a, b in (("float32", "float64"), ("float64", "float32")):
        got = f(tg, getattr(tg, a), getattr(tg, b))
        want = f(torch, torch.float64, torch.float64)
        assert got.dtype == tg.float64
        np.testing.assert_array_equal(np.asarray(got), want.numpy())


_RECORDED = {
    "matmul": lambda L, a: a @ L.ones(3, 2, dtype=L.int64),
    "bmm": lambda L, a: L.bmm(a, L.ones(1, 3, 2, dtype=L.int32)),
    "linear": lambda L, a: L.nn.functional.linear(a, L.ones(4, 3), L.ones(4, dtype=L.int64)),
    "inner": lambda L, a: L.inner(a, L.ones(3, dtype=L.int64)),
}


@pytest.mark.parametrize("op", sorted(_RECORDED))
def test_product_dtype_refusal_records_nothing(torch_float64, raises_as_torch, op):
    """A refused product of an operand that requires grad leaves the tape as it was."""
    torch = torch_float64
    shape = (1, 2, 3) if op == "bmm" else (2, 3)
    made = {L: L.ones(shape, dtype=L.float64, requires_grad=True) * 2 for L in (tg, torch)}  # (recorded before the call whose rows are counted)
    raises_as_torch(lambda L: _RECORDED[op](L, made[L]), torch)


# ---- binary cross entropy: one dtype, PyTorch's words ------------------------------------
_BCE = [("float32", "float64", None), ("float64", "float32", None),
        ("float32", "float32", "float64"), ("float64", "float64", "float32"),
        ("float32", "float64", "float64"), ("float32", "int64", None)]


@pytest.mark.parametrize("case", _BCE, ids=lambda c: "-".join(map(str, c)))
@pytest.mark.parametrize("logits", [False, True])
def test_bce_dtypes_as_torch_with_float32_default(float32_default, case, logits):
    """binary_cross_entropy refuses a target of another dtype ('Found dtype Double but
    expected Float') and casts its weight to the input's; with logits, the result takes the
    target's float dtype (PyTorch's kernel works in place on 1 - target) and an integer
    target is refused."""
    torch = float32_default
    a, b, w = case

    def f(L):
        F = L.nn.functional
        x = L.full((3,), 0.3, dtype=getattr(L, a))
        t = L.tensor([1, 0, 1], dtype=getattr(L, b))
        weight = None if w is None else L.full((3,), 2.0, dtype=getattr(L, w))
        fn = F.binary_cross_entropy_with_logits if logits else F.binary_cross_entropy
        return fn(x, t, weight=weight)
    got, want = _outcome(f, tg), _outcome(f, torch)
    assert got[0] == want[0]
    if got[0] == "RuntimeError":
        assert got == want
    else:
        np.testing.assert_allclose(got[1], want[1], rtol=1e-6)


def test_bce_float32_input_default_float64_target_casts_the_target(torch):
    """While float64 is the default a float64 target stands for PyTorch's float32 one: cast
    to the input's dtype, the loss float32, its gradient float32."""
    x = tg.full((3,), 0.3, dtype=tg.float32, requires_grad=True)
    loss = tg.nn.functional.binary_cross_entropy(x, tg.tensor([1.0, 0.0, 1.0]))
    loss.backward()
    tx = torch.full((3,), 0.3, dtype=torch.float32, requires_grad=True)
    want = torch.nn.functional.binary_cross_entropy(tx, torch.tensor([1.0, 0.0, 1.0],
                                                                     dtype=torch.float32))
    want.backward()
    assert loss.dtype == tg.float32 and x.grad.dtype == tg.float32
    np.testing.assert_allclose(float(loss), want.item(), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(x.grad), tx.grad.numpy(), rtol=1e-6)


# ---- default_collate: a field of strings stays the tuple zip made ----------------------------
P = collections.namedtuple("P", "a b")


@pytest.mark.parametrize("batch", [
    [(1, "x"), (2, "y")], [["a", 1], ["b", 2]], [P("u", 1), P("v", 2)],
    [{"s": "p", "n": (3, "q")}, {"s": "r", "n": (4, "t")}], ["x", "y"], [(b"a",), (b"b",)],
    [((1, "m"),), ((2, "n"),)]], ids=range(7))
def test_default_collate_string_fields_as_torch(torch, batch):
    from torch.utils.data import default_collate as torch_collate
    assert repr(default_collate(batch)) == repr(torch_collate(batch))


# ---- load_state_dict: what fits is copied before the errors are raised -----------------------
def _net(L):
    L.manual_seed(0)
    net = L.nn.Sequential(L.nn.Linear(2, 3), L.nn.BatchNorm1d(3), L.nn.Linear(3, 1))
    with L.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(L.full(p.shape, float(i)))
    return net


_LOADS = {
    "size": (lambda L: {"0.weight": L.ones(3, 3), "0.bias": L.full((3,), 7.0),
                        "1.running_mean": L.full((3,), 2.0)}, False),
    "size_strict": (lambda L: {"0.weight": L.ones(3, 3), "2.bias": L.full((1,), 5.0)}, True),
    "unexpected_strict": (lambda L: {**_net(L).state_dict(), "2.bias": L.full((1,), 9.0),
                                     "extra": L.ones(1)}, True),
    "missing_unexpected_size": (lambda L: {"0.bias": L.ones(4), "2.weight": L.ones(1, 3),
                                           "x.y": L.ones(1)}, True),
}


@pytest.mark.parametrize("case", sorted(_LOADS))
def test_load_state_dict_copies_what_fits_then_raises_as_torch(torch_float64, case):
    """PyTorch copies every entry whose shape fits, then raises the missing and unexpected
    keys (when strict) and the size mismatches in one error; tapegrad raised before
    copying anything."""
    torch = torch_float64
    make, strict = _LOADS[case]
    results = []
    for L in (tg, torch):
        net = _net(L)
        with pytest.raises(RuntimeError) as info:
            net.load_state_dict(make(L), strict=strict)
        results.append((str(info.value), {k: np.asarray(v.detach()).tolist()
                                          for k, v in net.state_dict().items()}))
    assert results[0] == results[1]
