"""``out=`` on the top-level functions (tapegrad/ops/out.py), ``Tensor.type`` and indexing
by a ``range``, against PyTorch."""
import warnings

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.ops import out as out_mod

torch = pytest.importorskip("torch")


def both(fn):
    """fn(lib) for tapegrad and torch; returns (tapegrad's, torch's) result or exception."""
    res = []
    for lib in (tg, torch):
        try:
            res.append(fn(lib))
        except Exception as e:  # noqa: BLE001 (the point: the same exception)
            res.append(e)
    return res


@pytest.mark.parametrize("name,args", [
    ("matmul", ([[1., 2.], [3., 4.]], [[0.5, -1.], [2., 0.]])),
    ("mul", ([1., 2., 3.], [4., 5., 6.])), ("add", ([1., 2.], [3., 4.])),
    ("sin", ([0.1, 0.2],)), ("exp", ([0.1, 0.2],)),
    ("maximum", ([1., 5.], [3., 2.])), ("cat", None), ("stack", None),
])
@pytest.mark.parametrize("start", ["same shape", "empty", "other shape"])
def test_out_writes_the_result_into_the_given_tensor(name, args, start):
    def run(lib):
        if args is None:
            inputs = ([lib.tensor([1., 2.]), lib.tensor([3., 4.])],)
        else:
            inputs = tuple(lib.tensor(a, dtype=lib.float64) for a in args)
        expected = getattr(lib, name)(*inputs)
        shape = {"same shape": tuple(expected.shape), "empty": (0,),
                 "other shape": (7,)}[start]
        o = lib.zeros(shape, dtype=lib.float64)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = getattr(lib, name)(*inputs, out=o)
        assert r is o
        return o.tolist(), [str(x.message)[:60] for x in w]
    got, ref = both(run)
    assert got == ref


def test_out_refuses_inputs_that_require_grad_as_pytorch():
    def run(lib):
        a = lib.ones(3, requires_grad=True)
        lib.mul(a, a, out=lib.zeros(3))
    got, ref = both(run)
    assert type(got) is type(ref) is RuntimeError and str(got) == str(ref)
    with tg.no_grad():  # no recording: allowed, as in PyTorch
        a = tg.ones(3, requires_grad=True)
        o = tg.zeros(3)
        tg.mul(a, a, out=o)
        assert o.tolist() == [1., 1., 1.] and not o.requires_grad


def test_out_casts_within_a_kind_and_refuses_across_kinds():
    def run(lib, dtype):
        o = lib.zeros(2, dtype=dtype)
        lib.mul(lib.tensor([1.5, 2.]), lib.tensor([2., 2.]), out=o)
        return o.tolist()
    assert run(tg, tg.float32) == run(torch, torch.float32)
    got, ref = both(lambda lib: run(lib, lib.int64))
    assert isinstance(got, RuntimeError) and isinstance(ref, RuntimeError)
    assert "can't be cast to the desired output type Long" in str(got)
    with pytest.raises(TypeError, match="argument 'out' must be Tensor"):
        tg.mul(tg.ones(2), tg.ones(2), out=np.zeros(2))


def test_methods_and_operators_take_no_out_wrapper():
    """The hot path: x.mul and x * y are the op function itself."""
    assert tg.Tensor.mul is out_mod.with_out.__globals__["Tensor"].mul
    assert tg.mul is not tg.Tensor.mul and tg.mul.__wrapped__ is tg.Tensor.mul


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "bool"])
def test_type_returns_pytorch_names_and_casts(dtype):
    got, ref = both(lambda lib: lib.zeros(2, dtype=getattr(lib, dtype)).type())
    assert got == ref
    got, ref = both(lambda lib: str(lib.ones(2).type(getattr(lib, dtype)).dtype))
    assert got.rpartition(".")[2] == ref.rpartition(".")[2]
    ref_name = torch.zeros(1, dtype=getattr(torch, dtype)).type()
    got, ref = both(lambda lib: lib.ones(2).type(ref_name).tolist())
    assert got == ref
    got, ref = both(lambda lib: lib.ones(2).type("torch.Banana"))
    assert type(got) is type(ref) is ValueError and str(got) == str(ref)


def test_indexing_by_a_range_as_pytorch():
    x = np.arange(12.).reshape(4, 3)
    t = [0, 2, 1, 0]
    got, ref = both(lambda lib: lib.tensor(x)[range(4), lib.tensor(t)].tolist())
    assert got == ref
    got, ref = both(lambda lib: lib.tensor(x)[range(1, 4, 2)].tolist())
    assert got == ref
    xs = tg.tensor(x, requires_grad=True)
    (-xs[range(4), tg.tensor(t)].mean()).backward()  # the tutorial's nll
    expected = np.zeros_like(x)
    expected[range(4), t] = -0.25
    np.testing.assert_array_equal(xs.grad.numpy(), expected)
