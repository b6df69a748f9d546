"""Hostile inputs, round 14.  Holes found (each failed on main): load's ``pickle_module=``
was ignored (torch refuses it with ``weights_only=True``, unpickles with it otherwise, and an
explicit one turns the default ``weights_only`` off); an f computing in float32 was refused
by the trace's self-check as "please report this as a tapegrad bug", or, where float32
rounding was exact at the traced point, replayed without it elsewhere (silently another
function); a comparison row's kind outside 0..5 loaded and meant "ne" interpreted, another
comparison fused; a guard row could read a slot written after it (its flag depended on the
batch's other points); a zip of 300,000 empty members took 320 MB and 28 s to refuse; a
JSON node tagged "ndarray" loaded a tensor entry as a Tensor.  Shown safe: a trace whose
``in_shapes`` (or ``out_shape``) give a slot another shape of its size is the trace of f of
a reshape (rows read slots as their C-order elements only)."""
import io
import json
import os
import pathlib
import pickle
import subprocess
import sys
import types
import warnings
import zipfile

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.replay import validate
from tapegrad.tensor import EagerOnlyError


class _Payload:
    def __reduce__(self):
        return (sorted, ([3, 1, 2],))  # (harmless: what it returns shows it ran)


def _saved(obj):
    buf = io.BytesIO()
    tg.save(obj, buf)
    buf.seek(0)
    return buf


# ---- pickle_module ------------------------------------------------------------------------
@pytest.mark.parametrize("obj", [{"w": [1.0]}, _Payload()], ids=["json", "pickle"])
def test_a_pickle_module_with_weights_only_is_refused_in_torchs_words(obj):
    with pytest.raises(RuntimeError, match="Can not safely load weights when explicit "
                                           "pickle_module is specified"):
        tg.load(_saved(obj), pickle_module=pickle, weights_only=True)  # (main: ignored)


def test_an_explicit_pickle_module_is_used_and_turns_the_default_weights_only_off():
    seen = []

    class Unpickler(pickle.Unpickler):
        def find_class(self, module, name):
            seen.append((module, name))
            return super().find_class(module, name)

    module = types.SimpleNamespace(Unpickler=Unpickler)
    obj = {"t": tg.ones(2, requires_grad=True), "p": _Payload()}
    got = tg.load(_saved(obj), pickle_module=module)  # (torch: weights_only=False then)
    assert got["p"] == [1, 2, 3] and ("builtins", "sorted") in seen
    assert got["t"].requires_grad and got["t"].tolist() == [1.0, 1.0]
    seen.clear()
    assert tg.load(_saved(obj), pickle_module=module, weights_only=False)["p"] == [1, 2, 3]
    assert seen  # (main: pickle's own Unpickler, the module ignored)


def test_without_a_pickle_module_the_default_still_never_unpickles():
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        tg.load(_saved(_Payload()))
    assert tg.load(_saved(_Payload()), weights_only=False) == [1, 2, 3]


def test_pickle_load_args_under_weights_only_warn_as_torchs_do():
    with pytest.warns(UserWarning, match=r"pickle_load_args only works if `weights_only=False`"):
        assert tg.load(_saved([1]), encoding="latin1") == [1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tg.load(_saved([1]), weights_only=False, encoding="latin1") == [1]


# ---- float32 inside a traced f ------------------------------------------------------------
def _rounds_in_float32(x):
    v = x * 1.1
    m = (v > 0).float()  # float32, and the in-place product rounds to float32
    m.mul_(v)
    return (m * 2).sum() + (x * x).sum()


X = np.array([0.3, -0.2, 0.7, 1.3])


def test_f_rounding_in_float32_is_refused_naming_float32_not_as_a_bug():
    with pytest.raises(EagerOnlyError, match=r"f computes in float32.*replay runs in "
                                             r"float64") as e:
        tg.trace(_rounds_in_float32, X)  # (main: "please report this as a tapegrad bug")
    assert "please report" not in str(e.value)


def test_compile_runs_an_f_rounding_in_float32_eagerly_when_given_tensors():
    c = tg.compile(_rounds_in_float32)
    xt = tg.tensor(X, requires_grad=True)
    y = c(xt)
    y.backward()
    xe = tg.tensor(X, requires_grad=True)
    ye = _rounds_in_float32(xe)
    ye.backward()
    assert y.item() == ye.item() and np.array_equal(xt.grad.numpy(), xe.grad.numpy())
    with pytest.raises(EagerOnlyError, match="f computes in float32"):
        c(X)  # (arrays: replay only, and it cannot round)


@pytest.mark.parametrize("f", [
    lambda x: ((x > 5).float().mul_(x * 1.0) * 2).sum() + (x * x).sum(),  # in place
    lambda x: (x.float().double() * x).sum(),  # a cast of float64 values
    lambda x: (((x > 0).float() * 0.1).double() * x).sum(),  # float32 arithmetic
], ids=["inplace", "cast", "arithmetic"])
def test_f_rounding_in_float32_is_refused_even_where_the_traced_point_is_exact(f):
    """At x = (0.25, 0.5) no rounding happens (zeros, halves: exact in float32), so the
    self-check passed and, on main, replay at (5.1, 6.3) gave 88.49999999999999 for the
    in-place case where f gives 88.49999923706054: silently another function."""
    with pytest.raises(EagerOnlyError, match="f computes in float32"):
        tg.trace(f, np.array([0.25, 0.5]))


@pytest.mark.parametrize("f", [
    lambda x: ((x > 0).float() * x).sum(),
    lambda x: ((x > 0).float()[1:] * x[1:]).sum(),
    lambda x: (tg.cat([(x > 0).float(), (x < 1).float()]) * tg.cat([x, x])).sum(),
    lambda x: ((x > 0).float().reshape(2, 1).expand(2, 2) * x).sum(),
], ids=["mask", "view", "cat", "expand"])
def test_float32_values_copied_exactly_from_bools_still_trace(f):
    t = tg.trace(f, np.array([0.25, 0.5]))
    for y in ([5.1, 6.3], [-0.3, 0.7]):
        assert t.value(np.array(y)) == f(tg.tensor(y)).item()


def test_a_float32_mask_that_is_exact_still_traces():
    def f(x):
        return ((x > 0).float() * x).sum()  # 0/1 in float32, the product float64
    t = tg.trace(f, X)
    Y = np.random.default_rng(0).standard_normal((5, 4))
    for y in Y:
        assert t.value(y) == f(tg.tensor(y)).item()



def _branchy(x):
    if x[0] > 0:
        return (x * x).sum()
    return (x * 3).sum()


@pytest.mark.parametrize("make", [lambda a: pickle.loads(pickle.dumps(a)),  # (a dask worker's)
                                  lambda a: a.astype(">f8")], ids=["unpickled", "big-endian"])
def test_points_of_any_float64_dtype_object_retrace(make):
    """Points whose float64 dtype object is not NumPy's float64 singleton (unpickled, as on a
    dask worker, or big-endian) are float64: a retrace at one is no float32 arithmetic (it
    was refused so, and a dask worker's batch failed)."""
    X = np.abs(np.random.default_rng(7).normal(size=(20, 3))) + 0.1
    X[[6, 15], 0] *= -1
    Y = make(X)
    assert Y.dtype is not np.dtype(np.float64)
    f = tg.compile(_branchy)
    f.value_and_grad_batch(X[:5])
    V, G = f.value_and_grad_batch(Y)  # retraces at row 6
    V1, G1 = tg.compile(_branchy).value_and_grad_batch(X)
    assert np.array_equal(V, V1) and np.array_equal(G, G1)

# ---- in_shapes: another shape of the slot's size ------------------------------------------
def _mat(x):
    return (x @ x.t()).sin().sum() + x[1].exp().sum() + x.sum(0).prod()


def _trace_arrays(t):
    buf = io.BytesIO()
    t.save(buf)
    buf.seek(0)
    with np.load(buf) as z:
        return {k: z[k].copy() for k in z.files}


def test_in_shapes_of_another_shape_of_the_slots_size_is_the_trace_of_f_of_a_reshape():
    """Rows read an input slot as its C-order elements only; the shape in ``in_shapes`` is
    used where arguments come in (checked, then flattened) and where gradients go out
    (reshaped).  So a file giving a (2, 3) input the shape (3, 2) or (6,) replays exactly
    ``f(y.reshape(2, 3))``, a function tapegrad traces itself: no value is wrong for the
    trace the file describes, and memory stays inside the slot (its size is checked)."""
    x0 = np.linspace(-0.8, 1.1, 6).reshape(2, 3)
    a = _trace_arrays(tg.trace(_mat, x0))
    rng = np.random.default_rng(1)
    for shape in [(3, 2), (6,), (1, 6, 1)]:
        a["in_shapes"] = np.array([list(shape) + [-1] * (8 - len(shape))], np.int64)
        a["digest"] = validate.digest(a)
        buf = io.BytesIO()
        np.savez(buf, **a)
        buf.seek(0)
        u = tg.jit.load(buf)
        ref = tg.trace(lambda y: _mat(y.reshape(2, 3)), x0.reshape(shape))
        assert u.in_shapes == [shape]
        for _ in range(3):
            y = (x0 + 0.1 * rng.standard_normal(x0.shape)).reshape(shape)
            v, g = u.value_and_grad(y)
            rv, rg = ref.value_and_grad(y)
            assert v == rv and g.shape == shape and np.array_equal(g, rg)
        Y = (x0 + 0.1 * rng.standard_normal((4, *x0.shape))).reshape(4, *shape)
        for got, want in zip(u.value_and_grad_batch(Y), ref.value_and_grad_batch(Y),
                             strict=True):
            assert np.array_equal(got, want)
        with pytest.raises(ValueError):
            u.value(x0.reshape(2, 3) if shape != (2, 3) else x0.reshape(6))


def test_in_shapes_of_another_size_is_still_refused():
    x0 = np.linspace(-0.8, 1.1, 6).reshape(2, 3)
    a = _trace_arrays(tg.trace(_mat, x0))
    a["in_shapes"] = np.array([[2, 4, -1, -1, -1, -1, -1, -1]], np.int64)
    a["digest"] = validate.digest(a)
    buf = io.BytesIO()
    np.savez(buf, **a)
    buf.seek(0)
    with pytest.raises(ValueError, match="in_shapes"):
        tg.jit.load(buf)


# ---- tapegrad.save's JSON: a node's tag and its entry's kind -------------------------------
@pytest.mark.parametrize("tag, kind", [("ndarray", "tensor"), ("tensor", "ndarray"),
                                       ("npscalar", "tensor"), ("tensor", "scalar")])
def test_a_node_naming_an_entry_of_another_kind_is_refused(tag, kind):
    """save writes {"tensor": i} for a tensor entry, {"ndarray": i} for an array's and
    {"npscalar": i} for a NumPy scalar's; a file mixing them had the entry's kind win
    silently (main: an "ndarray" node loaded as a Tensor, and the reverse)."""
    meta = [{"kind": kind, "dtype": "float64", "shape": [1]}]
    header = {"format": "tapegrad.save", "version": 1, "tensors": meta, "root": {tag: 0}}
    npy = io.BytesIO()
    np.save(npy, np.ones(1))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("tapegrad.json", json.dumps(header))
        z.writestr("tensors/0.npy", npy.getvalue())
    buf.seek(0)
    with pytest.raises(ValueError, match=f"of kind {kind!r}, not"):
        tg.load(buf)


def test_arrays_scalars_and_tensors_still_load_as_saved():
    obj = {"t": tg.ones(2), "a": np.arange(3), "s": np.float32(2.5), "again": None}
    obj["again"] = obj["t"]
    got = tg.load(_saved(obj))
    assert isinstance(got["t"], tg.Tensor) and got["again"] is got["t"]
    assert type(got["a"]) is np.ndarray and got["a"].tolist() == [0, 1, 2]
    assert type(got["s"]) is np.float32 and got["s"] == 2.5


# ---- a comparison's kind ----------------------------------------------------------------------
def _compares(x):
    return (x * (x > 0.5)).sum() + (x[:2] * (x[:2] < x[2:])).sum() * 0.5


def _loaded(a):
    a["digest"] = validate.digest(a)
    buf = io.BytesIO()
    np.savez(buf, **a)
    buf.seek(0)
    return tg.jit.load(buf)


@pytest.mark.parametrize("opcode", [27, 28], ids=["CMP", "CMP_C"])
@pytest.mark.parametrize("kind", [-2, -1, 6, 2**40])
def test_a_comparison_of_an_unknown_kind_is_refused(opcode, kind):
    """The interpreter's compare() read any kind but 0..4 as "ne", the fused tier looked it
    up in its table: -2 was "ne" interpreted and "eq" fused (one file, two functions; on
    main such a file loaded wherever "ne" agreed with the recorded comparison at the
    traced point, as here), 6 an IndexError in the compile thread."""
    a = _trace_arrays(tg.trace(_compares, np.array([0.6, 0.9, 0.7, 1.2])))
    r = int(np.nonzero(a["rows"][:, 0] == opcode)[0][0])
    if opcode == 27:
        a["rows"][r, 4] = kind
    else:
        a["meta"][a["rows"][r, 4]] = kind
    a.pop("grad0")
    with pytest.raises(ValueError, match=f"comparison kind {kind} is not one of"):
        _loaded(a)


def test_comparisons_of_every_kind_still_load():
    def f(x):
        y = x[:2]
        z = x[2:]
        return sum(((x * (getattr(x, op)(0.8))).sum() + (y * getattr(y, op)(z)).sum()
                    for op in ("lt", "le", "gt", "ge", "eq", "ne")), tg.zeros(()))
    x = np.array([0.6, 0.9, 0.7, 1.2])
    u = _loaded(_trace_arrays(tg.trace(f, x)))
    assert u.value(x + 0.05) == f(tg.tensor(x + 0.05)).item()


# ---- a zip directory of many entries ------------------------------------------------------------
def _many_members(n):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for i in range(n):
            z.writestr(zipfile.ZipInfo(f"{i:x}"), b"")
    buf.seek(0)
    return buf


def test_a_directory_of_many_entries_is_refused_before_zipfile_parses_it():
    """zipfile builds a ZipInfo (~1 kB) per directory entry (46 bytes and up) before any
    member can be checked: on main a 25 MB file of 300,000 empty members took 320 MB and
    28 s (parsed by both loaders) to be refused as no tapegrad file.  The directory's size
    now counts toward max_bytes; a trace's is bounded outright (it has 14 members)."""
    buf = _many_members(30000)  # (a directory of ~1.4 MB)
    with pytest.raises(ValueError, match=r"directory is \d+ bytes.*max_bytes=4194304"):
        tg.load(buf, max_bytes=4 << 20)
    buf.seek(0)
    with pytest.raises(ValueError, match=r"not a tapegrad trace: the archive's directory"):
        tg.jit.load(buf)


def test_small_directories_still_load_with_a_small_max_bytes():
    buf = _saved({"w": tg.ones(3)})
    assert tg.load(buf, max_bytes=1 << 12)["w"].tolist() == [1.0, 1.0, 1.0]


def test_a_trace_loaders_refusal_names_a_few_members_not_all():
    buf = _many_members(1000)  # (a directory under the trace's bound)
    with pytest.raises(ValueError, match="and 980 more") as e:
        tg.jit.load(buf)
    assert len(str(e.value)) < 2000  # (main: every name, 9 kB here)


def test_out_shape_of_another_shape_of_the_slots_size_is_the_trace_of_a_reshaped_output():
    def f(x):
        return (x.reshape(2, 3) @ x.reshape(3, 2)).sin().reshape(2, 2) * x[:2].sum()
    x0 = np.linspace(-0.8, 1.1, 6)
    a = _trace_arrays(tg.trace(f, x0))
    a["out_shape"] = np.array([4], np.int64)
    u = _loaded(a)
    ref = tg.trace(lambda x: f(x).reshape(4), x0)
    X = x0 + 0.1 * np.random.default_rng(2).standard_normal((3, 6))
    assert np.array_equal(u.jacobian_batch(X), ref.jacobian_batch(X))
    assert u.jacobian_batch(X).shape == (3, 4, 6)
    a["out_shape"] = np.array([5], np.int64)
    with pytest.raises(ValueError, match="out_slot"):
        _loaded(a)


# ---- the fused tier on loaded, mutated traces -------------------------------------------------
@pytest.mark.slow
def test_fused_kernels_of_loaded_mutated_traces_match_the_interpreter():
    """tests/fuzz_fused_loaded.py in a subprocess (a crash is counted, not fatal): every
    mutated trace that loads compiles to a fused kernel giving the interpreter's results
    bit for bit, or stays interpreted (it found the comparison kinds above)."""
    script = pathlib.Path(__file__).with_name("fuzz_fused_loaded.py")
    proc = subprocess.run([sys.executable, str(script), "--limit", "8", "--seed", "0"],
                          capture_output=True, text=True, timeout=1800,
                          env=dict(os.environ, TAPEGRAD_BACKGROUND="0"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    stats = json.loads(proc.stdout.strip().splitlines()[-1])
    assert stats["failures"] == [], "\n".join(stats["failures"][:10])
    assert stats["loaded"] > 0 and stats["fused"] > 0


# ---- a guard reading a slot a later row writes ---------------------------------------------------
def _guarded(x):
    y = x[0] * 1.0
    return (x * x).sum() * 2.0 if y > 0 else x.sum()


def test_a_guard_reading_a_slot_written_after_it_is_refused():
    """Rows with an output had to read older slots; a guard (no output) could read any:
    on main, a guard reading the output slot loaded, and a point's divergence flag then
    depended on the points before it in its batch (the slot held the last point's value:
    [x, -x, x] flagged all three, reversed none), and its fused kernel failed to compile
    (a name used before its definition, "please report")."""
    x6 = np.linspace(0.3, 1.4, 6)
    a = _trace_arrays(tg.trace(_guarded, x6))
    r = int(np.nonzero(a["rows"][:, 1] == -1)[0][0])
    a["rows"][r, 2] = a["rows"][-1, 1]
    a.pop("grad0")
    with pytest.raises(ValueError, match=f"row {r} \\(a guard\\) reads slot"):
        _loaded(a)


def test_guards_reading_older_slots_still_load():
    x6 = np.linspace(0.3, 1.4, 6)
    u = _loaded(_trace_arrays(tg.trace(_guarded, x6)))
    X = np.stack([x6, -x6, x6])
    assert u.run(X, grad=False)[2].tolist() == [0, 1, 0]
    assert u.run(X[::-1].copy(), grad=False)[2].tolist() == [0, 1, 0]
