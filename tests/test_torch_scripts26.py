"""Differences from PyTorch found by the scripts s615 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- jit.trace / jit.trace_module of a model: a callable model, as PyTorch's ---------------
def _model(L):
    net = L.nn.Sequential(L.nn.Linear(3, 2), L.nn.Tanh())
    with L.no_grad():
        net[0].weight.copy_(L.tensor([[1.0, -1.0, 0.5], [0.2, 0.3, -0.4]]))
        net[0].bias.copy_(L.tensor([0.1, -0.2]))
    return net


@pytest.mark.parametrize("how", [
    lambda L, m, x: L.jit.trace(m, x), lambda L, m, x: L.jit.trace(m, (x,)),
    lambda L, m, x: L.jit.trace(m, example_inputs=x, check_trace=False),
    lambda L, m, x: L.jit.trace_module(m, {"forward": x}),
])
def test_traced_model_runs_as_pytorchs(how, torch_float64):
    def run(L):
        m = _model(L)
        x = L.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]], requires_grad=True)
        traced = how(L, m, x.detach())
        out = traced(x)
        out.pow(2).sum().backward()
        return [v for t in (out, x.grad, m[0].weight.grad) for v in t.flatten().tolist()]
    assert run(tg) == pytest.approx(run(torch_float64), rel=1e-12)


def test_trace_module_refuses_a_function_in_pytorchs_words(torch_float64):
    for L in (tg, torch_float64):
        with pytest.raises(AttributeError, match="expected torch.nn.Module as the first argument"):
            L.jit.trace_module(lambda x: x, {"forward": L.ones(1)})


# ---- out= a tuple for the functions with several results ----------------------------------
@pytest.mark.parametrize("call", [
    lambda L, x, out: L.sort(x, descending=True, out=out),
    lambda L, x, out: L.max(x.reshape(2, 3), dim=1, out=out),
    lambda L, x, out: L.topk(x, 2, out=out),
    lambda L, x, out: L.cummax(x, 0, out=out),
    lambda L, x, out: L.kthvalue(x, 2, out=[out[0], out[1]]),
    lambda L, x, out: L.median(x.reshape(3, 2), dim=0, out=out),
])
def test_out_tuple_receives_each_result_as_pytorch(call, torch_float64):
    def run(L):
        x = L.tensor([3.0, 1.0, 4.0, 1.5, 5.0, 9.0])
        out = (L.empty(0), L.empty(0, dtype=L.long))
        r = call(L, x, out)
        return repr(r), out[0].tolist(), out[1].tolist(), r[0] is out[0], r[1] is out[1]
    assert run(tg) == run(torch_float64)


def test_out_tuple_refused_with_grad_or_for_one_result(torch_float64):
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError, match="out=... arguments don't support"):
            L.sort(L.ones(2, requires_grad=True), out=(L.empty(0), L.empty(0, dtype=L.long)))
        with pytest.raises(TypeError, match="argument 'out' must be Tensor, not tuple"):
            L.sum(L.ones(2), 0, out=(L.empty(0), L.empty(0)))


# ---- the factories take out=, in out's dtype -----------------------------------------------
@pytest.mark.parametrize("call", [
    lambda L, o: L.arange(5, out=o), lambda L, o: L.arange(0.5, 4.7, 0.9, out=o),
    lambda L, o: L.zeros(2, 3, out=o), lambda L, o: L.ones((4,), out=o),
    lambda L, o: L.full((2,), 7, out=o), lambda L, o: L.eye(3, out=o),
    lambda L, o: L.linspace(0, 4, 5, out=o), lambda L, o: L.logspace(0, 2, 3, out=o),
    lambda L, o: (L.empty(3, out=o) is o, o.shape), lambda L, o: (L.rand(2, 2, out=o) is o, o.shape),
    lambda L, o: (L.randn(4, out=o) is o, o.shape), lambda L, o: o.sort()[0].tolist() if
    L.randperm(4, out=o) is o else None,
])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32"])
def test_factory_out_as_pytorch(call, dtype, torch_float64):
    def run(L):
        o = L.empty(0, dtype=getattr(L, dtype))
        try:
            r = call(L, o)
        except Exception as e:  # (the type and the words, where PyTorch refuses)
            return type(e).__name__, str(e)
        return (repr(r), repr(o)) if isinstance(r, L.Tensor) else (r, str(o.dtype))
    assert run(tg) == run(torch_float64)


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8", "bool"])
@pytest.mark.parametrize("name", ["rand", "randn"])
def test_random_floats_refuse_an_integer_dtype_as_pytorch(name, dtype, torch_float64):
    errors = []
    for L in (tg, torch_float64):
        with pytest.raises(NotImplementedError) as info:
            getattr(L, name)(2, dtype=getattr(L, dtype))
        errors.append(str(info.value))
    assert errors[0] == errors[1]


def test_factory_out_refuses_another_dtype(torch_float64):
    errors = []
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            L.zeros(2, dtype=L.int32, out=L.empty(2))
        errors.append(str(info.value))
    assert errors[0] == errors[1]


# ---- arange in an integer dtype: PyTorch's count and values --------------------------------
@pytest.mark.parametrize("args", [(5.5,), (0.5, 5.5), (-1.5, 2), (-2.7, 3.9, 1.5), (5, 0.5, -1.2),
                                  (10, 2.5, -2.5), (2.9,), (1.5,), (0, 3, 0.5), (7,)])
@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "int16", "bool"])
def test_integer_arange_as_pytorch(args, dtype, torch_float64):
    def run(L):
        try:
            return L.arange(*args, dtype=getattr(L, dtype)).tolist()
        except Exception as e:  # (the type and the words, where PyTorch refuses)
            return type(e).__name__, str(e)
    assert run(tg) == run(torch_float64)


# ---- linalg.vecdot of complex vectors: the first conjugated, with gradients ---------------
@pytest.mark.parametrize("make", [
    lambda L: (L.tensor([1j, 2.0, 1 - 1j]), L.tensor([1j, 1.0, 0.5j])),
    lambda L: (L.tensor([[1.0, 2.0], [3.0, -1.0]]).to(L.complex128), L.tensor([2 + 1j, -1j])),
    lambda L: (L.tensor([[1 + 2j, 0.5]]), L.tensor([[3.0, 1.0], [0.0, 2.0j]])),
])
def test_complex_vecdot_as_pytorch(make, torch_float64):
    def run(L):
        x, y = make(L)
        return L.view_as_real(L.linalg.vecdot(x, y).reshape(-1)).flatten().tolist()
    assert run(tg) == pytest.approx(run(torch_float64), rel=1e-12)


@pytest.mark.parametrize("dts", [("float64", "complex128"), ("complex128", "float64"),
                                 ("float32", "float64"), ("complex64", "complex128")])
def test_vecdot_refuses_mixed_dtypes_in_pytorchs_words(dts, torch_float64):
    errors = []
    for L in (tg, torch_float64):
        x, y = (L.ones(2, dtype=getattr(L, d)) for d in dts)
        with pytest.raises(RuntimeError) as info:
            L.linalg.vecdot(x, y)
        errors.append(str(info.value))
    assert errors[0] == errors[1]


# ---- reductions of empty tensors: PyTorch's results, or its error types and words ---------
EMPTY = [
    lambda L: L.ones(2, 0).mode(1), lambda L: L.ones(0, 2).mode(0), lambda L: L.ones(0).mode(),
    lambda L: L.ones(2, 0).kthvalue(1, 1), lambda L: L.ones(3, 2).kthvalue(3, 1),
    lambda L: L.ones(0, 3).median(0), lambda L: L.ones(3, 0).median(1),
    lambda L: L.ones(0, 3).nanmedian(0), lambda L: L.tensor([]).median(),
    lambda L: L.tensor([]).nanmedian(), lambda L: L.tensor([], dtype=L.long).median(),
    lambda L: L.tensor([]).argmax(), lambda L: L.tensor([]).argmin(keepdim=True),
    lambda L: L.ones(0, 3).argmax(0), lambda L: L.tensor([]).max(),
    lambda L: L.tensor([]).aminmax(), lambda L: L.ones(0, 3).aminmax(dim=0),
    lambda L: L.ones(3, 0).aminmax(dim=-1),
]


def _outcome(call, L):
    """``call(L)``'s repr, or the type and words of what it raised."""
    try:
        return repr(call(L))
    except Exception as e:
        return type(e).__name__, str(e)


@pytest.mark.parametrize("call", EMPTY)
def test_empty_reductions_as_pytorch(call, torch_float64):
    assert _outcome(call, tg) == _outcome(call, torch_float64)


def test_median_of_nothing_is_recorded_as_pytorchs(torch_float64):
    def run(L):
        x = L.tensor([], requires_grad=True)
        m = x.median()
        m.backward()
        return repr(m), type(m.grad_fn).__name__, x.grad.shape
    assert run(tg) == run(torch_float64)


# ---- is_shared: False, as PyTorch's for a tensor never moved to shared memory --------------
@pytest.mark.parametrize("make", [lambda L: L.ones(2, 3), lambda L: L.ones(2, 3)[:, 1],
                                  lambda L: L.nn.Parameter(L.ones(2)), lambda L: L.tensor(1.5)])
def test_is_shared_as_pytorch(make, torch_float64):
    assert make(tg).is_shared() is make(torch_float64).is_shared() is False


# ---- softmax of integers names PyTorch's kernel for the dim --------------------------------
@pytest.mark.parametrize("call", [
    lambda L: L.ones(2, 2, dtype=L.int32).softmax(0), lambda L: L.ones(2, 2, dtype=L.int32).softmax(1),
    lambda L: L.ones(2, 3, 4, dtype=L.long).log_softmax(1), lambda L: L.ones(3, dtype=L.long).softmax(0),
    lambda L: L.ones(2, 3, dtype=L.long).log_softmax(-1), lambda L: L.tensor(1).softmax(0),
    lambda L: L.tensor(2).log_softmax(0), lambda L: L.nn.functional.softmax(L.tensor(3), 0),
])
def test_integer_softmax_refused_in_pytorchs_words(call, torch_float64):
    errors = []
    for L in (tg, torch_float64):
        with pytest.raises(NotImplementedError) as info:
            call(L)
        errors.append(str(info.value))
    assert errors[0] == errors[1]


# ---- a norm's dtype=: PyTorch's checks, for linalg.vector_norm, linalg.norm, Tensor.norm -----
@pytest.mark.parametrize("call", [
    lambda L: L.ones(2).norm(dtype=L.float32), lambda L: L.norm(L.ones(2), dtype=L.float32),
    lambda L: L.linalg.vector_norm(L.ones(2), dtype=L.float32),
    lambda L: L.linalg.vector_norm(L.ones(2), dtype=L.complex128),
    lambda L: L.linalg.vector_norm(L.ones(2, dtype=L.complex128), dtype=L.float64),
    lambda L: L.linalg.vector_norm(L.ones(2, dtype=L.complex64), dtype=L.complex128),
    lambda L: L.linalg.vector_norm(L.ones(2, dtype=L.long), dtype=L.float64),
    lambda L: L.linalg.norm(L.ones(2), dtype=L.float32),
    lambda L: L.linalg.vector_norm(L.tensor([3.0, 4.0], dtype=L.float32), dtype=L.float64),
    lambda L: L.tensor([3.0, 4.0], dtype=L.float16).norm(dtype=L.float32),
])
def test_norm_dtype_as_pytorch(call, torch_float64):
    def run(L):
        try:
            r = call(L)
            return repr(r)
        except Exception as e:
            return type(e).__name__, str(e)
    assert run(tg) == run(torch_float64)


# ---- add/sub's alpha: PyTorch's refusals of one the result's dtype cannot hold -------------
ALPHAS = [
    lambda L: L.add(L.tensor([1]), L.tensor([2]), alpha=1.0),
    lambda L: L.add(L.tensor([1]), 2, alpha=0.5), lambda L: L.add(L.tensor([1]), 2.0, alpha=0.5),
    lambda L: L.sub(L.tensor([1]), L.tensor([2]), alpha=0.5),
    lambda L: L.add(L.tensor([1.0]), L.tensor([2]), alpha=True),
    lambda L: L.add(L.tensor([True]), L.tensor([True]), alpha=True),
    lambda L: L.add(L.tensor([1]), L.tensor([2]), alpha=True),
    lambda L: L.add(L.tensor([1.0]), 2, alpha=1j),
    lambda L: L.tensor([1]).add_(L.tensor([2]), alpha=0.5),
    lambda L: L.tensor([1]).sub_(1, alpha=2.0), lambda L: L.tensor([1.0]).add_(1, alpha=1.0),
    lambda L: L.tensor([True]).add(L.tensor([True]), alpha=1.5),
    lambda L: L.tensor([1.0]).add(L.tensor([2.0]), alpha=0.5),
    lambda L: L.tensor([1], dtype=L.uint8).sub(L.tensor([1], dtype=L.uint8), alpha=0.5),
]


@pytest.mark.parametrize("call", ALPHAS)
def test_alpha_checked_as_pytorch(call, torch_float64):
    assert _outcome(call, tg) == _outcome(call, torch_float64)


# ---- permute's refusal of a repeated dim opens with PyTorch's whole sentence ---------------
@pytest.mark.parametrize("dims", [(0, 0), (1, -1), (0, 1, 1)])
def test_permute_duplicate_dims_in_pytorchs_words(dims, torch_float64):
    errors = []
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            L.ones(*([2] * len(dims))).permute(*dims)
        errors.append(str(info.value))
    assert errors[0].startswith(errors[1]), errors
