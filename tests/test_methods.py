"""Spellings PyTorch scripts use (tapegrad/methods.py): Tensor.new_*, type_as, contiguous,
stride, element_size, the fills as methods, ``in``, the small dtypes, the constants and
global switches, compared with PyTorch."""
import math

import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")


def same(fn):
    got, ref = fn(tg), fn(torch)
    assert got == ref, (got, ref)


def _dt(d):
    return str(d).rpartition(".")[2]


@pytest.mark.parametrize("method,args", [
    ("new_zeros", ((2, 3),)), ("new_ones", (2, 3)), ("new_full", ((2,), 7.0)),
    ("new_tensor", ([1, 2, 3],)), ("new_empty", ((0,),)),
])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_new_tensors_take_self_dtype(method, args, dtype):
    def run(lib):
        r = getattr(lib.ones(2, dtype=getattr(lib, dtype)), method)(*args)
        return _dt(r.dtype), list(r.shape), r.tolist() if method != "new_empty" else None, \
            r.requires_grad
    same(run)
    same(lambda lib: _dt(lib.ones(2).new_zeros(3, dtype=lib.float32).dtype))
    assert tg.ones(2).new_zeros(3, requires_grad=True).requires_grad


def test_layout_questions():
    for shape in [(), (4,), (2, 3), (2, 3, 4)]:
        same(lambda lib: lib.zeros(shape).stride())
        same(lambda lib: lib.zeros(shape).is_contiguous())
        same(lambda lib: lib.zeros(shape).ndimension())
    same(lambda lib: lib.zeros(2, 3).stride(1))
    x = tg.ones(2, 3).T
    assert x.contiguous().tolist() == x.tolist()
    for dt in ("float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8"):
        same(lambda lib: lib.zeros(2, dtype=getattr(lib, dt)).element_size())


def test_type_as_and_small_casts():
    same(lambda lib: _dt(lib.ones(2).type_as(lib.ones(1, dtype=lib.int32)).dtype))
    for m in ("half", "byte", "char", "short"):
        same(lambda lib: (_dt(getattr(lib.tensor([1.5, 2.0]), m)().dtype),
                          getattr(lib.tensor([1.5, 2.0]), m)().tolist()))


def test_fills_as_methods():
    tg.manual_seed(0)
    w = tg.empty(200, 5).uniform_(-0.25, 0.5)
    v = w.numpy()
    assert v.min() >= -0.25 and v.max() < 0.5 and v.std() > 0.1
    n = tg.empty(4000).normal_(2.0, 0.5).numpy()
    assert abs(n.mean() - 2.0) < 0.05 and abs(n.std() - 0.5) < 0.05
    p = tg.nn.Parameter(tg.zeros(3))
    p.data.uniform_(-1, 1)  # the classic reset_parameters idiom
    assert p.requires_grad and not np.all(p.detach().numpy() == 0)


def test_contains():
    same(lambda lib: (2.0 in lib.tensor([1., 2.]), 5 in lib.tensor([1., 2.]),
                      lib.tensor(1.) in lib.tensor([1., 2.])))
    with pytest.raises(RuntimeError, match="only supports Tensor or scalar"):
        "a" in tg.tensor([1.])


def test_constants_dtypes_and_switches():
    assert (tg.pi, tg.e, tg.inf) == (torch.pi, torch.e, torch.inf) == (math.pi, math.e,
                                                                       math.inf)
    assert math.isnan(tg.nan) and tg.newaxis is None
    assert isinstance(tg.float16, tg.dtype) and isinstance(tg.ones(1).dtype, tg.dtype)
    same(lambda lib: lib.typename(lib.ones(2, dtype=lib.float32)))
    same(lambda lib: lib.is_nonzero(lib.tensor([3.])))
    for bad in ([1., 2.], []):
        with pytest.raises(RuntimeError) as a:
            tg.is_nonzero(tg.tensor(bad))
        with pytest.raises(RuntimeError) as b:
            torch.is_nonzero(torch.tensor(bad))
        assert str(a.value) == str(b.value)
    x = tg.ones(2, requires_grad=True)
    assert not tg.detach(x * 2).requires_grad
    tg.use_deterministic_algorithms(True)
    assert tg.are_deterministic_algorithms_enabled()
    tg.use_deterministic_algorithms(False)
    tg.set_float32_matmul_precision("high")
    assert tg.get_float32_matmul_precision() == "high"
    tg.set_float32_matmul_precision("highest")
    tg.set_anomaly_enabled(True)
    try:
        assert tg.is_anomaly_enabled()
    finally:
        tg.set_anomaly_enabled(False)
    assert not tg.is_anomaly_enabled()


@pytest.mark.parametrize("name", ["sum", "mean", "amax", "amin", "max", "min", "std", "var",
                                  "prod", "logsumexp", "all", "any", "argmax", "argmin",
                                  "median", "nansum", "nanmean"])
def test_keepdims_is_keepdim(name):
    """NumPy's spelling, which PyTorch's reductions take too."""
    def run(lib):
        x = lib.tensor([[1., 5., 2.], [4., 3., 6.]], dtype=lib.float64)
        if name in ("all", "any"):
            x = x > 2
        r = getattr(x, name)(1, keepdims=True)
        r = r[0] if isinstance(r, tuple) else r
        return list(r.shape), np.round(np.asarray(r.tolist(), float), 12).tolist()
    same(run)  # (std and var: the last ulp is the summation order's)


def test_format_of_a_0d_tensor_is_its_number():
    same(lambda lib: (format(lib.tensor(2.5), "+.2f"), f"{lib.tensor(3)}",
                      f"{lib.tensor(2.0, dtype=lib.float64):>8.3f}", f"{lib.tensor([1.5])}"))
    for lib in (tg, torch):
        with pytest.raises(TypeError, match="unsupported format string"):
            format(lib.tensor([2.5]), ".2f")
