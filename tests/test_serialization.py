"""tapegrad.save / tapegrad.load (torch.save / torch.load with weights_only=True: nothing is
unpickled), the trace loader under tapegrad.jit and tapegrad.load, the matrix trace
tapegrad.trace(A), and tapegrad.compile called with tensors."""
import io
import json
import math
import pickle
import zipfile

import numpy as np
import pytest

import tapegrad as tg


def _round_trip(obj, to="bytes", tmp_path=None, **kw):
    if to == "path":
        path = tmp_path / "obj.pt"
        tg.save(obj, path)
        return tg.load(path, **kw)
    buf = io.BytesIO()
    tg.save(obj, buf)
    buf.seek(0)
    return tg.load(buf, **kw)


def _same(a, b):
    """Equal values and types, tensors by dtype, shape, values, requires_grad and leafness."""
    if isinstance(a, tg.Tensor):
        return (isinstance(b, tg.Tensor) and type(a) is type(b) and a.dtype == b.dtype
                and a.shape == b.shape and a.requires_grad == b.requires_grad and b.is_leaf
                and np.array_equal(np.asarray(a.detach()), np.asarray(b.detach()),
                                   equal_nan=True))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


OBJECTS = {
    "float64_grad": lambda: tg.tensor([[1.5, -2.0], [0.0, 3.25]], requires_grad=True),
    "float32": lambda: tg.tensor([1.0, 2.0, np.inf, np.nan], dtype=tg.float32),
    "float32_grad_0d": lambda: tg.tensor(np.float32(2.5), requires_grad=True),
    "float64_0d": lambda: tg.tensor(0.125),
    "int64": lambda: tg.arange(6).reshape(2, 3),
    "int32_bool": lambda: [tg.tensor([1, 2], dtype=tg.int32), tg.tensor([True, False])],
    "empty": lambda: tg.zeros(0, 3),
    "parameter": lambda: tg.nn.Parameter(tg.ones(2)),
    "state_dict": lambda: tg.nn.Sequential(tg.nn.Linear(3, 4), tg.nn.Tanh(),
                                           tg.nn.Linear(4, 1)).state_dict(),
    "nested": lambda: {"a": [1, 2.5, "s", None, True, (3, (4.0,), [])], 7: {"x": -1},
                       (1, "k"): None, 2.5: "f", None: [float("inf"), float("-inf"),
                                                        float("nan")], "": {}},
    "numbers": lambda: [0, -1, 2 ** 70, 1e-300, -0.0, 1.0, "ünï", ""],
    "size_and_numpy": lambda: (tg.Size([2, 3]), np.arange(4.0), np.int64(5), tg.float32),
    "scalar": lambda: 3.5,
    "none": lambda: None,
}


@pytest.mark.parametrize("to", ["bytes", "path"])
@pytest.mark.parametrize("name", list(OBJECTS))
def test_round_trip_keeps_values_types_dtypes_and_requires_grad(name, to, tmp_path):
    obj = OBJECTS[name]()
    back = _round_trip(obj, to, tmp_path)
    assert _same(obj, back)


def test_a_loaded_tensor_is_a_leaf_that_can_backward():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3  # a non-leaf saves as its values
    bx, by = _round_trip([x, y])
    assert bx.is_leaf and bx.requires_grad and bx.grad is None
    assert by.is_leaf and by.requires_grad and by.tolist() == [3.0, 6.0]
    (bx * bx).sum().backward()
    assert bx.grad.tolist() == [2.0, 4.0] and x.grad is None


@pytest.mark.oracle
def test_requires_grad_and_leafness_after_load_match_torch(torch, tmp_path):
    def run(L):
        x = L.tensor(np.array([1.0, 2.0]), requires_grad=True)
        buf = io.BytesIO()
        L.save({"x": x, "y": x * 2, "z": x.detach()}, buf)
        buf.seek(0)
        back = L.load(buf, weights_only=True)
        return {k: (v.requires_grad, v.is_leaf, str(v.dtype).split(".")[-1])
                for k, v in back.items()}
    assert run(tg) == run(torch)


def test_one_tensor_saved_twice_loads_as_one_object():
    t = tg.ones(3)
    a, b, c = _round_trip([t, {"again": t}, tg.ones(3)])
    assert a is b["again"] and a is not c


def test_module_and_optimizer_state_dicts_restore_training_exactly():
    def make():
        tg.manual_seed(0)
        net = tg.nn.Sequential(tg.nn.Linear(3, 5), tg.nn.Tanh(), tg.nn.Linear(5, 1))
        return net, tg.optim.Adam(net.parameters(), lr=0.01, amsgrad=True)
    x = tg.tensor(np.linspace(-1, 1, 12).reshape(4, 3))

    def train(net, opt, steps):
        for _ in range(steps):
            opt.zero_grad()
            (net(x) ** 2).sum().backward()
            opt.step()
    net, opt = make()
    train(net, opt, 3)
    buf = io.BytesIO()
    tg.save({"model": net.state_dict(), "optim": opt.state_dict(), "epoch": 3}, buf)
    train(net, opt, 2)
    buf.seek(0)
    ckpt = tg.load(buf)
    net2 = tg.nn.Sequential(tg.nn.Linear(3, 5), tg.nn.Tanh(), tg.nn.Linear(5, 1))
    net2.load_state_dict(ckpt["model"])
    opt2 = tg.optim.Adam(net2.parameters(), lr=1.0)
    opt2.load_state_dict(ckpt["optim"])
    assert ckpt["epoch"] == 3 and opt2.param_groups[0]["lr"] == 0.01
    train(net2, opt2, 2)
    for a, b in zip(net.parameters(), net2.parameters(), strict=True):
        np.testing.assert_array_equal(np.asarray(a.detach()), np.asarray(b.detach()))


class _Custom:
    def __init__(self, t):
        self.t = t
        self.note = "custom"


_RAN = []


def _record(what):
    _RAN.append(what)


class _Payload:
    """Unpickling this runs code: what weights_only=True must never do."""

    def __reduce__(self):
        return (_record, ("unpickled",))


def test_other_objects_need_weights_only_false():
    obj = {"c": _Custom(tg.tensor([1.0, 2.0], requires_grad=True)), "net": tg.nn.Linear(2, 1)}
    buf = io.BytesIO()
    tg.save(obj, buf)
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="(?s)Weights only load failed.*"
                       "`weights_only` set to `False` will likely succeed"):
        tg.load(buf)
    buf.seek(0)
    back = tg.load(buf, weights_only=False)
    assert back["c"].note == "custom" and back["c"].t.requires_grad and back["c"].t.is_leaf
    assert back["c"].t.tolist() == [1.0, 2.0]
    x = tg.ones(3, 2)
    assert back["net"](x).tolist() == obj["net"](x).tolist()
    # the tensors are still plain .npy members, not pickled
    buf.seek(0)
    with zipfile.ZipFile(buf) as z:
        assert sorted(z.namelist()) == ["data.pkl", "tapegrad.json", "tensors/0.npy",
                                        "tensors/1.npy", "tensors/2.npy"]


def test_weights_only_never_unpickles():
    buf = io.BytesIO()
    tg.save([_Payload()], buf)
    assert _RAN == []  # (saving does not run it either)
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        tg.load(buf)
    assert _RAN == []
    buf.seek(0)
    tg.load(buf, weights_only=False)
    assert _RAN == ["unpickled"]
    _RAN.clear()


# ---- damaged and crafted files ----------------------------------------------------------
def _saved_members(obj=None):
    buf = io.BytesIO()
    tg.save({"w": tg.tensor([1.0, 2.0])} if obj is None else obj, buf)
    buf.seek(0)
    with zipfile.ZipFile(buf) as z:
        return {n: z.read(n) for n in z.namelist()}


def _file(members):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for n, data in members.items():
            z.writestr(n, data)
    buf.seek(0)
    return buf


def _npy(a):
    buf = io.BytesIO()
    np.lib.format.write_array(buf, a, allow_pickle=True)
    return buf.getvalue()


def _with_json(obj=None, **changes):
    m = _saved_members(obj)
    header = json.loads(m["tapegrad.json"])
    header.update(changes)
    m["tapegrad.json"] = json.dumps(header)
    return m


@pytest.mark.parametrize("members, phrase", [
    ({"tapegrad.json": b"{not json"}, "tapegrad.json is not readable JSON"),
    ({"tapegrad.json": b"[1, 2]"}, "does not name the 'tapegrad.save' format"),
    (_with_json(version=99), "format version 99; this tapegrad reads version 1"),
    (_with_json(root={"tensor": 5}), "tensor index 5 is out of range"),
    (_with_json(root={"eval": "os.system('x')"}), "unknown node 'eval'"),
    (_with_json(root={"dict": [[{"tensor": 0}, 1]]}), "a dict key of type Tensor"),
    (_with_json(tensors=[{"kind": "tensor", "dtype": "object", "shape": [2]}]),
     "entry 0 of 'tensors' is malformed"),
    (_with_json(tensors=[{"kind": "tensor", "dtype": "float32", "shape": [2]}]),
     "member tensors/0.npy holds float64 \\(2,\\), the structure says float32 \\(2,\\)"),
    (_with_json({"w": tg.arange(2)}, tensors=[{"kind": "tensor", "dtype": "int64",
                                               "shape": [2], "requires_grad": True}]),
     "int64 cannot require grad"),
    ({**_saved_members(), "tensors/0.npy": _npy(np.array([None, "x"], dtype=object))},
     "holds object"),
    ({**_saved_members(), "tensors/0.npy": _npy(np.ones(2))[:-8]},
     "holds fewer bytes of values than float64 \\(2,\\) needs \\(16\\)"),
    ({**_saved_members(), "tensors/0.npy": _npy(np.ones(2)) + b"12345678"},
     "holds more bytes of values"),
    ({**_saved_members(), "tensors/0.npy": _npy(np.ones(2))[:100]}, "is not a .npy array|"
     "has 100 bytes, too few"),
    ({k: v for k, v in _saved_members().items() if k != "tensors/0.npy"},
     "member tensors/0.npy is missing"),
    ({**_saved_members(), "tensors/0.npy": b"\x93NUMPY garbage"}, "is not a .npy array"),
], ids=["json", "format", "version", "index", "node", "key", "dtype", "dtype_mismatch",
        "int_grad", "object_array", "short", "long", "cut_header", "missing", "not_npy"])
def test_crafted_files_raise_value_errors_naming_the_field(members, phrase):
    with pytest.raises(ValueError, match=phrase):
        tg.load(_file(members))


def test_files_that_are_not_saves_raise_clear_errors(tmp_path):
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"this is not a checkpoint")
    with pytest.raises(ValueError, match="neither a tapegrad.save file nor a tapegrad trace "
                                         "\\(not a zip archive"):
        tg.load(junk)
    buf = io.BytesIO()
    tg.save(OBJECTS["state_dict"](), buf)
    raw = buf.getvalue()
    for n in (10, len(raw) // 2, len(raw) - 10):
        with pytest.raises(ValueError, match="load: "):
            tg.load(io.BytesIO(raw[:n]))
    other = tmp_path / "other.npz"
    np.savez(other, weights=np.ones(3))
    with pytest.raises(ValueError, match="neither a tapegrad.save file .* nor a valid "
                                         "tapegrad trace: .*not a tapegrad trace"):
        tg.load(other)
    with pytest.raises(FileNotFoundError):
        tg.load(tmp_path / "missing.pt")
    with pytest.raises(TypeError, match="f must be a path or a readable, seekable binary file"):
        tg.load(42)
    with pytest.raises(TypeError, match="f must be a path or a writable binary file object"):
        tg.save(tg.ones(1), 42)
    with pytest.raises(RuntimeError, match="map_location='cuda:0': tapegrad runs on the CPU"):
        tg.load(io.BytesIO(raw), map_location="cuda:0")
    assert _same(tg.load(io.BytesIO(raw), map_location="cpu"), tg.load(io.BytesIO(raw)))


def test_max_bytes_bounds_what_compressed_members_may_expand_to():
    members = _saved_members({"w": tg.zeros(1 << 16)})
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in members.items():
            z.writestr(n, data)
    assert len(buf.getvalue()) < 4000  # 512 KiB of zeros
    buf.seek(0)
    with pytest.raises(ValueError, match="compressed members expand to more than "
                                         "max_bytes=100000 bytes"):
        tg.load(buf, max_bytes=100_000)
    buf.seek(0)
    assert tg.load(buf)["w"].shape == (1 << 16,)  # (the default bound: 1 GiB)


# ---- traces: tapegrad.jit and tapegrad.load ----------------------------------------------
def _rosen(x):
    return ((1 - x[:-1]) ** 2 + 100 * (x[1:] - x[:-1] ** 2) ** 2).sum()


def test_traces_save_and_load_through_jit_and_load(tmp_path):
    X0 = np.array([0.5, -1.0, 2.0])
    traced = tg.jit.trace(_rosen, X0)
    assert isinstance(traced, tg.Traced) and isinstance(tg.trace(_rosen, X0), tg.Traced)
    path = tmp_path / "rosen.npz"
    tg.jit.save(traced, path)
    X1 = X0 + 0.3
    for back in (tg.jit.load(path), tg.load(path), tg.load(io.BytesIO(path.read_bytes()))):
        assert isinstance(back, tg.Traced)
        np.testing.assert_array_equal(back.grad(X1), traced.grad(X1))
    with pytest.raises(TypeError, match="jit.save: expected a Traced tape"):
        tg.jit.save(tg.ones(2), path)


# ---- the matrix trace ---------------------------------------------------------------------
@pytest.mark.oracle
@pytest.mark.parametrize("shape, dtype", [((3, 3), "float64"), ((2, 4), "float64"),
                                          ((4, 2), "float32"), ((0, 0), "float64"),
                                          ((3, 3), "int64")])
def test_matrix_trace_matches_torch(shape, dtype, torch):
    a = (np.arange(math.prod(shape)).reshape(shape) * 1.5 - 2).astype(dtype)
    mine, theirs = tg.trace(tg.tensor(a)), torch.trace(torch.tensor(a))
    assert mine.dtype == tg.tensor(theirs.numpy()).dtype
    assert mine.item() == theirs.item() and tg.tensor(a).trace().item() == theirs.item()
    if dtype == "float64":
        x, tx = tg.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
        tg.trace(x).backward()
        torch.trace(tx).backward()
        np.testing.assert_array_equal(np.asarray(x.grad), tx.grad.numpy())


def test_matrix_trace_gradcheck():
    x = tg.tensor(np.random.default_rng(0).standard_normal((3, 4)), requires_grad=True)
    assert tg.autograd.gradcheck(lambda a: tg.trace(a * a), (x,))


@pytest.mark.oracle
@pytest.mark.parametrize("shape", [(3,), (2, 2, 2), ()])
def test_matrix_trace_errors_match_torch(shape, torch):
    with pytest.raises(RuntimeError) as theirs:
        torch.trace(torch.zeros(shape))
    with pytest.raises(RuntimeError) as mine:
        tg.trace(tg.zeros(shape))
    assert str(mine.value) == str(theirs.value)


def test_trace_refuses_what_is_neither_a_tensor_nor_a_function():
    with pytest.raises(TypeError, match="must be Tensor .* or a function .*, not list"):
        tg.trace([[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(TypeError, match="takes 1 positional argument"):
        tg.trace(tg.eye(2), 1)


# ---- compile called with tensors ----------------------------------------------------------
def test_compile_of_a_module_or_function_returns_tensors_with_gradients():
    tg.manual_seed(0)
    net = tg.nn.Sequential(tg.nn.Linear(3, 4), tg.nn.Tanh(), tg.nn.Linear(4, 2))
    x = tg.randn(5, 3)
    compiled = tg.compile(net, mode="reduce-overhead", fullgraph=True)  # torch's options
    y = compiled(x)
    assert isinstance(y, tg.Tensor) and y.tolist() == net(x).tolist()
    y.sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    w = tg.tensor([1.0, 2.0], requires_grad=True)
    f = tg.compile(lambda a: (a * a).sum())
    out = f(w)
    assert isinstance(out, tg.Tensor) and out.item() == 5.0
    out.backward()
    assert w.grad.tolist() == [2.0, 4.0]
    assert f(np.array([1.0, 2.0])) == 5.0 and not isinstance(f(np.ones(2)), tg.Tensor)
