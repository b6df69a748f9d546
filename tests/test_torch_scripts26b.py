"""Differences from PyTorch found by the scripts s728 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- isclose/allclose of shapes that do not broadcast: PyTorch's RuntimeError and words ----
@pytest.mark.parametrize("name", ["allclose", "isclose"])
@pytest.mark.parametrize("shapes", [((2, 5), (2, 5, 5)), ((3,), (4,)), ((2, 3), (3, 2))])
def test_close_refuses_unbroadcastable_shapes_in_pytorchs_words(name, shapes, torch_float64):
    errors = []
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            getattr(L, name)(L.ones(*shapes[0]), L.ones(*shapes[1]))
        errors.append(str(info.value))
    assert errors[0].startswith(errors[1])


# ---- class-index targets: PyTorch's checks in its order (batch, shape, dtype) --------------
def _targets():
    cases = [((2, 3), [0, 1], dt) for dt in ("int8", "int16", "int32", "uint8", "int64", "bool")]
    cases += [((3,), 1, dt) for dt in ("int32", "uint8", "int64")]
    cases += [((2, 3, 2), [[0, 1], [2, 0]], dt) for dt in ("int32", "uint8", "int64")]
    cases += [((2, 3), [0, 1, 2], "int32"), ((2, 3), [[0, 1], [1, 0]], "int64"),
              ((2, 3), 0, "int64"), ((3,), [0, 1, 2, 0], "int64"), ((3,), [0, 1, 2, 0], "int32"),
              ((3,), [[1]], "int64"), ((2, 3, 2), [0, 1], "int64"), ((2, 3, 2), [[0, 1]] * 3, "int32"),
              ((2, 3, 2), [[0, 1, 2]] * 2, "uint8")]
    return cases


@pytest.mark.parametrize("loss", ["cross_entropy", "nll_loss"])
@pytest.mark.parametrize("shape, target, dtype", _targets())
def test_class_targets_checked_as_pytorch(loss, shape, target, dtype, torch_float64):
    def run(L):
        try:
            x = L.arange(float(L.Size(shape).numel())).reshape(shape) / 10
            return round(getattr(L.nn.functional, loss)(x, L.tensor(target).to(getattr(L, dtype))).item(), 12)
        except Exception as e:  # (the type and PyTorch's words, where PyTorch refuses)
            return type(e).__name__, str(e)[:len(str(e).split(" (")[0]) if "(" not in str(e)[:40] else 60]
    ours, theirs = run(tg), run(torch_float64)
    if isinstance(theirs, tuple):
        assert ours[0] == theirs[0] and ours[1].startswith(theirs[1][:50]), (ours, theirs)
    else:
        assert ours == pytest.approx(theirs, rel=1e-12)


@pytest.mark.parametrize("tshape", [(1, 3), (2, 4), (3, 3), (2, 3, 1), (2,), (3,), (6,), (2, 1), ()])
def test_float_target_of_another_shape_refused_as_pytorch(tshape, torch_float64):
    errors = []
    for L in (tg, torch_float64):
        with pytest.raises((RuntimeError, ValueError)) as info:
            L.nn.functional.cross_entropy(L.ones(2, 3), L.ones(tshape))
        errors.append((type(info.value).__name__, str(info.value)))
    assert errors[0][0] == errors[1][0] and errors[0][1].startswith(errors[1][1])


# ---- index_copy / index_add / scatter_add refuse another dtype, as PyTorch ------------------
@pytest.mark.parametrize("call", [
    lambda L, s: L.zeros(2, 2).index_copy(0, L.tensor([1, 0]), s),
    lambda L, s: L.zeros(2, 2).index_copy_(0, L.tensor([1, 0]), s),
    lambda L, s: L.zeros(2, 2).index_add(0, L.tensor([1, 0]), s),
    lambda L, s: L.zeros(2, 2).index_add_(0, L.tensor([1, 0]), s, alpha=2),
    lambda L, s: L.zeros(2, 2).scatter_add(0, L.tensor([[1, 0], [0, 1]]), s),
    lambda L, s: L.zeros(2, 2).scatter_add_(0, L.tensor([[1, 0], [0, 1]]), s),
])
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_index_writes_refuse_another_dtype_as_pytorch(call, dtype, torch_float64):
    errors = []
    for L in (tg, torch_float64):
        with pytest.raises(RuntimeError) as info:
            call(L, L.ones(2, 2, dtype=getattr(L, dtype)))
        errors.append(str(info.value))
    assert errors[0] == errors[1]
