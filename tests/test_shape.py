"""Shapes and indexing against PyTorch: what the spec rows cannot say (tuple outputs of
split/chunk/unbind, node names, many index forms, 0-d tensors, PyTorch's error messages,
the tape left unchanged by a bad call, and masks computed inside tapegrad.trace).
"""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad.tape import current_tape

torch = pytest.importorskip("torch")


def env(L):
    """The same inputs in tapegrad or torch: leaves x (2, 3), y (2, 2), w (2, 3, 4), s (0-d),
    a constant z (3,) and an int index i (2, 4)."""
    f64 = L.float64
    return {
        "x": L.tensor(np.arange(6.0).reshape(2, 3) * 0.3 - 0.7, dtype=f64, requires_grad=True),
        "y": L.tensor(np.linspace(-1.0, 1.0, 4).reshape(2, 2), dtype=f64, requires_grad=True),
        "w": L.tensor(np.sin(np.arange(24.0)).reshape(2, 3, 4), dtype=f64, requires_grad=True),
        "s": L.tensor(1.5, dtype=f64, requires_grad=True),
        "z": L.tensor([0.5, -1.0, 2.0], dtype=f64),
        "i": L.tensor([[2, 0, 0, 1], [1, 1, 2, 0]]),
    }


T = torch.tensor  # noqa: E731 (shorthand inside the tables: L.tensor is either library's)

# ---- results: values, shapes, dtypes, node names and gradients equal PyTorch's -------------
RESULTS = {
    "broadcast_to": lambda L, e: e["x"].broadcast_to((4, 2, 3)),
    "broadcast_to fn 0-d": lambda L, e: L.broadcast_to(e["s"], (3,)),
    "broadcast_to same": lambda L, e: e["x"].broadcast_to((2, 3)),
    "expand_as": lambda L, e: e["x"][:1].expand_as(e["x"]),
    "expand 0-d to 0-d": lambda L, e: e["s"].expand(()),
    "expand -1": lambda L, e: e["x"].expand(3, -1, -1),
    "expand 0-d": lambda L, e: e["s"].expand(2, 3),
    "cat dim 1": lambda L, e: L.cat([e["x"], e["y"]], 1),
    "cat with a constant": lambda L, e: L.cat([e["x"], e["z"][None], e["x"]]),
    "cat one tensor": lambda L, e: L.cat([e["x"]]),
    "concat -1": lambda L, e: L.concat((e["x"], e["x"] * 2), -1),
    "concatenate": lambda L, e: L.concatenate([e["w"], e["w"][:1]], 0),
    "cat skips 1-d empty": lambda L, e: L.cat([e["x"], L.zeros(0, dtype=L.float64)]),
    "cat int and float": lambda L, e: L.cat([e["x"], L.ones(1, 3, dtype=L.int64)]),
    "cat of ints": lambda L, e: L.cat([e["i"], e["i"]], 1),
    "stack dim 1": lambda L, e: L.stack([e["x"], e["x"] * 2], 1),
    "stack 0-d": lambda L, e: L.stack([e["s"], e["s"] * 3, e["s"]]),
    "stack -1 with a constant": lambda L, e: L.stack([e["x"], e["z"].expand(2, 3)], -1),
    "split int": lambda L, e: e["w"].split(3, -1),
    "split function": lambda L, e: L.split(e["x"], 1),
    "split larger than the dim": lambda L, e: e["w"].split(10, 0),
    "split sizes": lambda L, e: e["w"].split([1, 2], 1),
    "split sizes fn": lambda L, e: L.split(e["w"], [3, 1], dim=-1),
    "chunk": lambda L, e: e["w"].chunk(3, 1),
    "chunk uneven": lambda L, e: e["x"].chunk(2, 1),
    "chunk fewer pieces": lambda L, e: e["w"].chunk(3, -1),
    "unbind": lambda L, e: e["w"].unbind(1),
    "unbind fn": lambda L, e: L.unbind(e["x"], -1),
    "split then cat": lambda L, e: L.cat(e["w"].split(1, 1)[::-1], 1),
    "flip two dims": lambda L, e: e["w"].flip(0, 2),
    "flip fn tuple": lambda L, e: L.flip(e["w"], (1,)),
    "flip dims=": lambda L, e: L.flip(e["w"], dims=[-1]),
    "flip 0-d": lambda L, e: e["s"].flip(0),
    "flip nothing": lambda L, e: e["x"].flip(()),
    "repeat": lambda L, e: e["x"].repeat(2, 1, 2),
    "repeat 0-d": lambda L, e: e["s"].repeat(3),
    "repeat ones": lambda L, e: e["x"].repeat(1, 1),
    "repeat tuple": lambda L, e: e["w"].repeat((1, 2, 1)),
    "tile fewer dims": lambda L, e: L.tile(e["x"], (2,)),
    "tile more dims": lambda L, e: e["w"].tile(2, 1, 1, 1),
    "tile 0-d": lambda L, e: e["s"].tile(2),
    "gather": lambda L, e: e["x"].gather(1, e["i"][:, :3]),
    "gather more picks": lambda L, e: e["x"].gather(1, e["i"]),
    "gather dim 0": lambda L, e: L.gather(e["x"], 0, L.tensor([[1, 0, 1], [1, 1, 1]])),
    "gather smaller index": lambda L, e: e["w"].gather(0, L.tensor([[[1, 0, 1, 1]]])),
    "gather int32": lambda L, e: e["x"].gather(1, L.tensor([[0], [2]], dtype=L.int32)),
    "gather 0-d": lambda L, e: e["s"].gather(0, L.tensor(0)),
    "index_select": lambda L, e: e["w"].index_select(1, L.tensor([2, 0, 2])),
    "index_select fn": lambda L, e: L.index_select(e["x"], -1, L.tensor([1])),
    "index_select 0-d index": lambda L, e: e["x"].index_select(0, L.tensor(1)),
    "index_select 0-d input": lambda L, e: e["s"].index_select(0, L.tensor([0])),
    "index_select int32": lambda L, e: e["x"].index_select(1, L.tensor([2], dtype=L.int32)),
    "masked_fill": lambda L, e: e["x"].masked_fill(e["x"] > 0, 1.0),
    "masked_fill fn inf": lambda L, e: L.masked_fill(e["x"], e["x"] < 0, float("inf")),
    "masked_fill broadcast mask": lambda L, e: e["x"].masked_fill(
        L.tensor([True, False, True]), -3.0),
    "masked_fill broadcast input": lambda L, e: e["x"][0].masked_fill(
        L.tensor([[True, False, True], [False, False, True]]), 2.0),
    "masked_fill 0-d value": lambda L, e: e["x"].masked_fill(
        L.tensor([False, True, False]), L.tensor(2.0)),
    "masked_fill constant": lambda L, e: e["z"].masked_fill(L.tensor([True, False, True]), 0.0),
    "masked_fill int": lambda L, e: e["i"].masked_fill(e["i"] > 0, 2.7),
    "roll": lambda L, e: e["w"].roll(1, 2),
    "roll two dims": lambda L, e: e["w"].roll((1, -1), (0, 2)),
    "roll flat": lambda L, e: e["x"].roll(4),
    "roll fn": lambda L, e: L.roll(e["x"], -1, 0),
    "roll 0-d": lambda L, e: e["s"].roll(1),
    "narrow": lambda L, e: e["w"].narrow(2, 1, 2),
    "narrow negative start": lambda L, e: e["x"].narrow(1, -2, 2),
    "narrow fn": lambda L, e: L.narrow(e["w"], 0, 1, 1),
    "select": lambda L, e: e["w"].select(1, -1),
    "select fn": lambda L, e: L.select(e["x"], 0, 1),
    "movedim": lambda L, e: e["w"].movedim(0, -1),
    "movedim tuples": lambda L, e: e["w"].movedim((0, 1), (2, 0)),
    "moveaxis": lambda L, e: L.moveaxis(e["w"], -1, 0),
    "movedim same": lambda L, e: e["x"].movedim(0, 0),
    "t": lambda L, e: e["x"].t(),
    "t 1-d": lambda L, e: e["x"][0].t(),
    "t fn": lambda L, e: L.t(e["y"]),
    "T": lambda L, e: e["x"].T,
    "mT": lambda L, e: e["w"].mT,
    "swapaxes": lambda L, e: e["w"].swapaxes(0, 2),
    "swapdims fn": lambda L, e: L.swapdims(e["w"], 1, -1),
    "transpose": lambda L, e: e["w"].transpose(-1, 0),
    "transpose 0-d": lambda L, e: e["s"].transpose(0, -1),
    "permute": lambda L, e: e["w"].permute(2, 0, 1),
    "permute negative": lambda L, e: e["w"].permute(-1, 0, -2),
    "reshape -1": lambda L, e: e["w"].reshape(4, -1),
    "view": lambda L, e: e["w"].view(-1),
    "reshape 0-d": lambda L, e: e["s"].reshape(1, 1),
    "reshape to 0-d": lambda L, e: e["x"][:1, :1].reshape(()),
    "flatten start": lambda L, e: e["w"].flatten(1),
    "flatten range": lambda L, e: e["w"].flatten(0, 1),
    "flatten 0-d": lambda L, e: e["s"].flatten(),
    "flatten no-op": lambda L, e: e["x"].flatten(1, 1),
    "squeeze dim": lambda L, e: e["x"][None].squeeze(0),
    "squeeze dims": lambda L, e: e["x"][:, None].squeeze((0, 1)),
    "squeeze all": lambda L, e: e["x"][:, None].squeeze(),
    "squeeze not 1": lambda L, e: e["x"].squeeze(0),
    "squeeze 0-d": lambda L, e: e["s"].squeeze(0),
    "unsqueeze 0-d": lambda L, e: e["s"].unsqueeze(-1),
    "unsqueeze -2": lambda L, e: e["w"].unsqueeze(-2),
    "float32 cat": lambda L, e: L.cat([e["x"].float(), e["x"].float()]),
    "float32 with float64": lambda L, e: L.stack([e["x"].float(), e["x"]]),
}


def _flat(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _compare(t_out, g_out, t_env, g_env, rtol=1e-13):
    t_outs, g_outs = _flat(t_out), _flat(g_out)
    assert len(g_outs) == len(t_outs)
    for a, b in zip(t_outs, g_outs):
        assert tuple(b.shape) == tuple(a.shape)
        assert str(b.dtype).split(".")[-1] == str(a.dtype).split(".")[-1]
        np.testing.assert_allclose(np.asarray(b.detach(), np.float64),
                                   a.detach().double().numpy(), rtol=1e-14)
        assert b.requires_grad == a.requires_grad
        want = a.grad_fn.name() if a.grad_fn is not None else None
        got = b.grad_fn.name() if b.grad_fn is not None else None
        assert got == want
    # gradient of sum_k <u_k, out_k> for every leaf the outputs depend on
    rng = np.random.default_rng(0)
    us = [rng.standard_normal(tuple(a.shape)) for a in t_outs]
    pairs = [(a, b, u) for a, b, u in zip(t_outs, g_outs, us) if a.requires_grad]
    if not pairs:
        return
    t_loss = sum((a.double() * torch.tensor(u)).sum() for a, _, u in pairs)
    g_loss = sum(((b.double() if b.dtype != tg.float64 else b) * tg.tensor(u)).sum()
                 for _, b, u in pairs)
    t_loss.backward()
    g_loss.backward()
    for k in t_env:
        if t_env[k].requires_grad:
            want = t_env[k].grad
            got = g_env[k].grad
            assert (got is None) == (want is None), k
            if want is not None:
                np.testing.assert_allclose(np.asarray(got), want.numpy(), rtol=rtol,
                                           atol=1e-15)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", list(RESULTS))
def test_result_matches_torch(name):
    t_env, g_env = env(torch), env(tg)
    rtol = 1e-6 if name.startswith("float32") else 1e-13  # PyTorch's float32 backward
    _compare(RESULTS[name](torch, t_env), RESULTS[name](tg, g_env), t_env, g_env, rtol)


def test_flatten_no_op_returns_the_tensor_itself():
    x = tg.ones(2, 3, requires_grad=True)
    assert x.flatten(1, 1) is x
    assert x[0].flatten() is not x


def test_masked_fill_value_that_requires_grad():
    """A 0-d value that requires grad gets its gradient (PyTorch's MaskedFillBackward1; here
    the composite masked_fill(x, m, 0) + value * m, so the node is AddBackward0)."""
    got, want = [], []
    for L, out in ((tg, got), (torch, want)):
        e = env(L)
        y = e["x"].masked_fill(e["x"] > 0, e["s"])
        (y * L.tensor(np.arange(6.0).reshape(2, 3))).sum().backward()
        out += [np.asarray(y.detach()), np.asarray(e["x"].grad), float(e["s"].grad)]
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-14)


def test_cat_of_many_operands_reaches_all():
    xs = [tg.tensor(np.full((1, 2), float(k)), requires_grad=True) for k in range(5)]
    y = tg.cat(xs + xs[:2])
    (y * tg.arange(14.0).reshape(7, 2)).sum().backward()
    for k, x in enumerate(xs):
        want = np.array([[2 * k, 2 * k + 1]]) + (np.array([[10 + 2 * k, 11 + 2 * k]])
                                                  if k < 2 else 0)
        np.testing.assert_array_equal(np.asarray(x.grad), want)


# ---- indexing: many key forms against PyTorch ---------------------------------------------
def _keys(L):
    a = np.sin(np.arange(60.0)).reshape(3, 4, 5)
    E = Ellipsis
    return [
        0, -1, (0, 1), (slice(None), 1), (0, slice(1, None)), (slice(1, None), 0), slice(None),
        E, (E, 1), (None, 0), (0, None), None, (slice(None), None), (slice(None, None, 2),),
        (slice(None, None, 3), slice(1, 4, 2)), (slice(-2, None),), (slice(-100, 100),),
        (slice(0, 100),), (slice(None, 3),), (E, None), (1, E, 2), (None, E, None), (0, 0, 0),
        (slice(None), slice(None), slice(None)), (slice(0, 3), 0, slice(None)), (),
        (slice(None), slice(1, 2), 0), [0, 2, 0], [[0, 1], [2, 2]], [-1, -3],
        L.tensor([0, 0, 2]), (slice(None), L.tensor([1, 1, 3])),
        (L.tensor([0, 1]), L.tensor([2, 3])), (L.tensor([0, 1]), slice(None), L.tensor([2, 3])),
        (0, L.tensor([1, 2])), (L.tensor([[0, 1], [2, 2]]),), L.tensor(a[..., 0] > 0),
        (L.tensor(a[:, :, 0] > 0),), (slice(None), L.tensor(a[0] > 0)), L.tensor(1),
        (L.tensor(1), L.tensor([0, 2])), (True,), (True, 0), (0, True),
        (L.tensor([1, 0]), None), (slice(1, None), L.tensor([0, 1])),
        (L.tensor([[True, False, True, False]] * 3),), (E, L.tensor([4, 0])),
        (L.tensor([0, 2]), E, L.tensor([1, 1])), (slice(None, None, 2), [1, 0], 3),
    ]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("n", range(len(_keys(tg))))
def test_index_matches_torch(n):
    a = np.sin(np.arange(60.0)).reshape(3, 4, 5)
    tx = torch.tensor(a, requires_grad=True)
    gx = tg.tensor(a, requires_grad=True)
    t_env, g_env = {"a": tx}, {"a": gx}
    _compare(tx[_keys(torch)[n]], gx[_keys(tg)[n]], t_env, g_env)


@pytest.mark.parametrize("key", [None, Ellipsis, (), (None, Ellipsis), True])
def test_index_0d_matches_torch(key):
    t_env, g_env = env(torch), env(tg)
    _compare(t_env["s"][key], g_env["s"][key], t_env, g_env)


@pytest.mark.parametrize("fn", [
    pytest.param(lambda L, e: e["w"][5:], id="slice past the end"),
    pytest.param(lambda L, e: e["w"][:, 2:1], id="empty slice"),
    pytest.param(lambda L, e: e["w"][L.tensor([], dtype=L.int64)], id="empty index"),
    pytest.param(lambda L, e: e["w"][[]], id="empty list"),
    pytest.param(lambda L, e: e["w"][False], id="False"),
    pytest.param(lambda L, e: e["w"].split([0, 3], 1)[0], id="empty piece"),
    pytest.param(lambda L, e: e["w"].narrow(2, 4, 0), id="narrow to nothing"),
    pytest.param(lambda L, e: e["x"][0][3:], id="1-d empty"),
    pytest.param(lambda L, e: L.cat([e["w"][:, :0], e["w"]], 1), id="cat an empty block"),
    pytest.param(lambda L, e: e["w"][:0].repeat(2, 1, 1), id="repeat empty"),
    pytest.param(lambda L, e: e["w"][:, :0].gather(0, L.zeros(1, 0, 4, dtype=L.int64)),
                 id="gather empty"),
])
def test_empty_results(fn):
    t_env, g_env = env(torch), env(tg)
    _compare(fn(torch, t_env), fn(tg, g_env), t_env, g_env)


# ---- bad input: PyTorch's exception type and words; nothing recorded ----------------------
# name: (call, phrase); phrase None means PyTorch's whole message must appear in tapegrad's
ERRORS = {
    "cat: sizes": (lambda L, e: L.cat([e["x"], e["y"]]), None),
    "cat: sizes in dim 1": (lambda L, e: L.cat([e["x"], L.ones(3, 3)], 1), None),
    "cat: ndim": (lambda L, e: L.cat([e["x"], e["z"]]), None),
    "cat: 0-d": (lambda L, e: L.cat([e["s"], e["s"]]), None),
    "cat: empty list": (lambda L, e: L.cat([]), "expected a non-empty list of Tensors"),
    "cat: dim out of range": (lambda L, e: L.cat([e["x"], e["x"]], 2), None),
    "cat: a tensor": (lambda L, e: L.cat(e["x"]), None),
    "cat: a list element": (lambda L, e: L.cat([e["x"], [1.0]]), None),
    "stack: sizes": (lambda L, e: L.stack([e["x"], e["y"]]), None),
    "stack: empty": (lambda L, e: L.stack([]), None),
    "stack: dim out of range": (lambda L, e: L.stack([e["x"], e["x"]], 3), None),
    "split: 0": (lambda L, e: e["x"].split(0), None),
    "split: negative": (lambda L, e: e["x"].split(-1), None),
    "split: sizes sum": (lambda L, e: e["x"].split([1, 3], 1), None),
    "split: negative size": (lambda L, e: e["x"].split([4, -1], 1), None),
    "split: 0-d": (lambda L, e: e["s"].split(1), None),
    "chunk: 0": (lambda L, e: e["x"].chunk(0), None),
    "chunk: 0-d": (lambda L, e: e["s"].chunk(1), None),
    "unbind: 0-d": (lambda L, e: e["s"].unbind(), None),
    "flip: repeated dim": (lambda L, e: e["x"].flip(0, -2), None),
    "flip: dim out of range": (lambda L, e: e["x"].flip(2), None),
    "flip: no dims": (lambda L, e: e["x"].flip(), None),
    "repeat: too few sizes": (lambda L, e: e["x"].repeat(2), None),
    "repeat: negative": (lambda L, e: e["x"].repeat(-1, 1), None),
    "tile: negative": (lambda L, e: e["x"].tile(-1), None),
    "gather: ndim": (lambda L, e: e["x"].gather(1, L.tensor([0, 1])), None),
    "gather: index too large": (lambda L, e: e["x"].gather(1, L.tensor([[0], [1], [2]])), None),
    "gather: out of bounds": (lambda L, e: e["x"].gather(1, L.tensor([[0], [5]])), None),
    "gather: negative index": (lambda L, e: e["x"].gather(1, L.tensor([[0], [-1]])), None),
    "gather: float index": (lambda L, e: e["x"].gather(1, L.tensor([[0.0], [1.0]])), None),
    "gather: dim out of range": (lambda L, e: e["x"].gather(2, L.tensor([[0], [1]])), None),
    "index_select: 2-d index": (lambda L, e: e["x"].index_select(1, L.tensor([[0]])), None),
    "index_select: out of bounds": (lambda L, e: e["x"].index_select(1, L.tensor([0, 5])),
                                    "INDICES element is out of DATA bounds, id=5 axis_dim=3"),
    "index_select: negative": (lambda L, e: e["x"].index_select(1, L.tensor([0, -1])),
                               "INDICES element is out of DATA bounds, id=-1 axis_dim=3"),
    "index_select: float index": (lambda L, e: e["x"].index_select(1, L.tensor([0.0])), None),
    "index_select: 0-d input": (lambda L, e: e["s"].index_select(0, L.tensor([0, 0])), None),
    "masked_fill: int mask": (lambda L, e: e["x"].masked_fill(L.tensor([1, 0, 1]), 1.0),
                              "masked_fill_ only supports boolean masks, but got mask with dtype"),
    "masked_fill: mask shape": (
        lambda L, e: e["x"].masked_fill(L.ones(4, dtype=L.bool), 1.0), None),
    "masked_fill: 1-d value": (
        lambda L, e: e["x"].masked_fill(e["x"] > 0, L.ones(2)), None),
    "roll: no shifts": (lambda L, e: e["x"].roll(()), None),
    "roll: shifts and dims": (lambda L, e: e["x"].roll((1, 2), (0,)), None),
    "roll: dim out of range": (lambda L, e: e["x"].roll(1, 2), None),
    "narrow: past the end": (lambda L, e: e["x"].narrow(1, 2, 2), None),
    "narrow: start out of range": (lambda L, e: e["x"].narrow(1, 4, 0), None),
    "narrow: negative length": (lambda L, e: e["x"].narrow(1, 0, -1), None),
    "narrow: 0-d": (lambda L, e: e["s"].narrow(0, 0, 1), None),
    "select: out of range": (lambda L, e: e["x"].select(1, 3), None),
    "select: negative out of range": (lambda L, e: e["x"].select(0, -3), None),
    "select: 0-d": (lambda L, e: e["s"].select(0, 0), None),
    "movedim: repeated source": (lambda L, e: e["x"].movedim((0, 0), (0, 1)), None),
    "movedim: repeated destination": (lambda L, e: e["x"].movedim((0, 1), (0, 0)), None),
    "movedim: lengths": (lambda L, e: e["x"].movedim((0, 1), (0,)), None),
    "movedim: dim out of range": (lambda L, e: e["x"].movedim(3, 0), None),
    "broadcast_to: clash": (lambda L, e: e["x"].broadcast_to((3, 3)), None),
    "broadcast_to: too few sizes": (
        lambda L, e: e["x"].broadcast_to((3,)), "the number of sizes provided (1) must be "
        "greater or equal to the number of dimensions in the tensor (2)"),
    "expand: -1 in a new dim": (lambda L, e: e["x"].expand(-1, 2, 3), None),
    "expand: negative": (lambda L, e: e["x"].expand(2, -2), None),
    "expand: negative new dim": (lambda L, e: e["x"].expand(-2, 2, 3), ""),  # PyTorch: numel:
    # integer multiplication overflow
    "index: float tensor": (lambda L, e: e["x"][L.tensor([0.0, 1.0])], None),
    "index: out of bounds list": (lambda L, e: e["x"][L.tensor([0, 5])], None),
    "index: out of bounds int": (lambda L, e: e["x"][5], None),
    "index: out of bounds in dim 1": (lambda L, e: e["x"][0, -4], None),
    "index: out of bounds after ellipsis": (lambda L, e: e["w"][:, ..., 4], None),
    # (PyTorch names dimension 1 for w[..., 4]: tapegrad says 2)
    "index: out of bounds after a lone ellipsis": (
        lambda L, e: e["w"][..., 4], "index 4 is out of bounds for dimension"),
    "index: too many": (lambda L, e: e["x"][0, 0, 0], None),
    "index: mask shape": (lambda L, e: e["x"][L.tensor([True, False, True])], None),
    "index: mask shape in dim 1": (lambda L, e: e["w"][:, L.tensor([True, False])], None),
    "index: 2-d mask shape": (lambda L, e: e["w"][L.ones(2, 4, dtype=L.bool)], None),
    "index: step 0": (lambda L, e: e["x"][::0], None),
    "index: negative step": (lambda L, e: e["x"][::-1], None),
    "index: a float": (lambda L, e: e["x"][1.0], None),
    "index: int of a 0-d tensor": (lambda L, e: e["s"][0], None),
    "squeeze: dim out of range": (lambda L, e: e["x"].squeeze(2), None),
    "flatten: start after end": (lambda L, e: e["x"].flatten(1, 0), None),
    "permute: repeated dim": (lambda L, e: e["x"].permute(0, 0), "duplicate dims are not allowed"),
    "permute: too few dims": (lambda L, e: e["x"].permute(0), None),
    "mT: 1-d": (lambda L, e: e["z"].requires_grad_().mT, None),
    "t: 3-d": (lambda L, e: e["w"].t(), None),
    "reshape: two -1": (lambda L, e: e["x"].reshape(-1, -1), None),
    "reshape: -2": (lambda L, e: e["x"].reshape(-2, 3), None),
    "reshape: size": (lambda L, e: e["x"].reshape(4, 2), None),
    "reshape: -1 with 0": (lambda L, e: L.zeros(2, 0).reshape(0, -1), None),
}


def _tape_state(tape):
    return (tape.nrows, tape.nslots, tape.nvals, len(tape.consts), len(tape.meta),
            tuple(tape.rbuf))


def _raise(L, call):
    e = env(L)
    with pytest.raises(Exception) as info:
        call(L, e)
    return info.type, str(info.value)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", list(ERRORS))
def test_bad_input_raises_torchs_error_and_records_nothing(name):
    call, phrase = ERRORS[name]
    t_type, t_msg = _raise(torch, call)
    e = env(tg)
    tape = current_tape()
    anchor = e["x"] * 1.0  # holds the tape's generation through the failed call
    before = _tape_state(tape)
    with pytest.raises(t_type) as info:
        call(tg, e)
    assert _tape_state(tape) == before
    del anchor
    message = str(info.value)
    if phrase is None:
        assert t_msg in message
    else:
        assert phrase in message and phrase in t_msg


# ---- replay: masks computed from traced values -----------------------------------------
def test_traced_mask_index_is_guarded():
    """x[x > 0] inside trace: replay is right where the mask is the recorded one and flags
    (here: retraces) the points where it is not."""
    def f(x):
        return (x[x > 0] ** 2).sum()

    x0 = np.array([1.0, -2.0, 3.0])
    traced = tg.trace(f, x0)
    assert len(traced.guards) == 1
    v, g = traced.value_and_grad(np.array([2.0, -1.0, 0.5]))
    assert v == pytest.approx(4.25)
    np.testing.assert_allclose(g, [4.0, 0.0, 1.0])
    X = np.array([[2.0, -1.0, 0.5], [2.0, 1.0, -0.5]])
    V, G = tg.compile(f).value_and_grad_batch(X)
    np.testing.assert_allclose(V, [4.25, 5.0])
    np.testing.assert_allclose(G, [[4.0, 0.0, 1.0], [4.0, 2.0, 0.0]])
    with pytest.raises(tg.DivergenceError):
        traced.value_and_grad_batch(X, on_divergence="raise")


@pytest.mark.parametrize("f", [
    lambda x: x[(x[0] > 0).long()] * 2,
    lambda x: (x.gather(0, (x > 0).long()) * x).sum(),
    lambda x: x.index_select(0, (x[1:2] < x[2:]).long()).sum(),
    lambda x: x[(x > 0).long()].sum(),
], ids=["0-d int", "gather", "index_select", "long mask"])
def test_traced_int_index_is_guarded(f):
    """An integer index computed from traced values is guarded like a mask: replay equals
    eager at every point, retracing where the index differs from the recorded one."""
    x0 = np.array([1.0, -3.0, 2.0])
    assert tg.trace(f, x0).guards
    X = np.array([[1.0, -3.0, 2.0], [5.0, 0.5, -1.0], [-1.0, 4.0, 0.5]])
    V, G = tg.compile(f).value_and_grad_batch(X)
    for x, v, g in zip(X, V, G):
        t = tg.tensor(x, requires_grad=True)
        y = f(t)
        y.backward()
        assert v == float(y)
        np.testing.assert_array_equal(g, np.asarray(t.grad))


def test_traced_mask_in_masked_fill_replays():
    """masked_fill reads its mask from the tape, so a traced comparison needs no guard."""
    def f(x):
        return (x.masked_fill(x > 0.5, 2.0) * x).sum()

    traced = tg.trace(f, np.array([1.0, 0.0, 0.7]))
    assert not traced.guards
    for x in (np.array([0.2, 0.9, -1.0]), np.array([1.0, 0.0, 0.7])):
        v, g = traced.value_and_grad(x)
        m = x > 0.5
        assert v == pytest.approx(np.sum(np.where(m, 2.0, x) * x))
        np.testing.assert_allclose(g, np.where(m, 2.0, 2 * x))


def test_cat_and_stack_replay_in_batches():
    def f(x):
        a, b = x.split([2, 1])
        return (tg.cat([b, a]) * tg.stack([x, x.flip(0)]).sum(0) ** 2).sum()

    X = np.random.default_rng(0).normal(size=(40, 3))
    V, G = tg.compile(f).value_and_grad_batch(X)
    for x, v, g in zip(X, V, G):
        t = tg.tensor(x, requires_grad=True)
        y = f(t)
        y.backward()
        assert v == pytest.approx(float(y), rel=1e-13)
        np.testing.assert_allclose(g, np.asarray(t.grad), rtol=1e-13)


def test_traced_casts():
    """Casts of traced values stay traced (bool and int sources, or float to bool); float to
    int has no replay rule, so tracing it raises a clear error instead of baking values in."""
    def f(x):
        return x.masked_fill((x > 0).long().bool(), 0.0).sum() + x[(x < 0).int()].sum()

    assert tg.trace(f, np.array([1.0, -2.0])).guards
    X = np.array([[-1.0, 3.0], [2.0, 0.5], [1.0, -2.0]])
    V, G = tg.compile(f).value_and_grad_batch(X)
    for x, v, g in zip(X, V, G):
        t = tg.tensor(x, requires_grad=True)
        y = f(t)
        y.backward()
        assert v == float(y)
        np.testing.assert_array_equal(g, np.asarray(t.grad))
    with pytest.raises(RuntimeError, match="a cast to int64 of a traced tensor"):
        tg.trace(lambda x: x[x.long()].sum(), np.array([1.0, 0.0]))
