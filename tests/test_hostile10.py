"""Hostile inputs, round 10: crafted zip archives for both loaders (compression methods,
damaged streams, sizes the directory lies about, pickles under weights_only), every
operand field of every row of a saved trace at and past its bounds, and programs whose
replay could silently differ from a fresh eager run (hooks, private generators, closure
tensors rebound or written behind the tape's back).  The row fuzz over every opcode of a
corpus runs under the ``slow`` marker (tests/fuzz_trace_rows.py, in a subprocess; .ci/run
runs it again with NUMBA_DISABLE_JIT=1, where NumPy checks every index)."""
import io
import json
import os
import pathlib
import pickle
import struct
import subprocess
import sys
import zipfile

import numpy as np
import pytest
from conftest import eager_value_and_grad
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.replay import validate

ROWS = pathlib.Path(__file__).with_name("fuzz_trace_rows.py")


def _f(x):
    y = (x * x).sum() + x[1:].sin().sum()
    return y * 2.0 if x[0] > 0 else y


X0 = np.array([0.5, -1.0, 2.0])


def _members(path):
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def _rezip(path, members, method):
    with zipfile.ZipFile(path, "w") as w:
        for n, d in members.items():
            w.writestr(n, d, compress_type=method)
    return path


def _damage(path, member, at=12, n=8, byte=b"\xff"):
    """Overwrite n bytes of member's data, ``at`` bytes in (its local header skipped)."""
    b = bytearray(path.read_bytes())
    i = b.find(b"PK\x03\x04" + b"\x00" * 0)
    while i >= 0:
        nl, xl = struct.unpack("<HH", b[i + 26:i + 30])
        if bytes(b[i + 30:i + 30 + nl]).decode() == member:
            j = i + 30 + nl + xl + at
            b[j:j + n] = byte * n
            break
        i = b.find(b"PK\x03\x04", i + 4)
    path.write_bytes(bytes(b))
    return path


def _patch_directory(path, member, **fields):
    """Rewrite member's central-directory entry: method, csize, usize (32-bit fields)."""
    b = bytearray(path.read_bytes())
    at = {"method": (10, "<H"), "csize": (20, "<I"), "usize": (24, "<I")}
    i = b.find(b"PK\x01\x02")
    while i >= 0:
        nl = struct.unpack("<H", b[i + 28:i + 30])[0]
        if bytes(b[i + 46:i + 46 + nl]).decode() == member:
            for k, v in fields.items():
                struct.pack_into(at[k][1], b, i + at[k][0], v)
        i = b.find(b"PK\x01\x02", i + 4)
    path.write_bytes(bytes(b))
    return path


# ---- archives ------------------------------------------------------------------------------
@pytest.mark.parametrize("method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_bzip2_and_lzma_members_are_refused_by_both_loaders(tmp_path, method):
    """A damaged bzip2 stream raised OSError, an LZMA one LZMAError, from both loaders."""
    tg.jit.save(tg.jit.trace(_f, X0), tmp_path / "t.npz")
    tg.save({"w": tg.ones(100)}, tmp_path / "s.pt")
    for src, name, load in ((tmp_path / "t.npz", "rows.npy", tg.jit.load),
                            (tmp_path / "t.npz", "rows.npy", tg.load),
                            (tmp_path / "s.pt", "tensors/0.npy", tg.load)):
        bad = _damage(_rezip(tmp_path / "m.zip", _members(src), method), name, at=20)
        with pytest.raises(ValueError, match=f"compression method {method}; tapegrad reads "
                                             "stored or deflated members only"):
            load(bad)


def test_an_unknown_compression_method_is_a_value_error(tmp_path):
    tg.save({"w": tg.ones(3)}, tmp_path / "s.pt")
    bad = _patch_directory(tmp_path / "s.pt", "tensors/0.npy", method=99)
    with pytest.raises(ValueError, match="compression method 99"):
        tg.load(bad)


def test_a_damaged_deflate_stream_in_a_save_file_is_a_value_error(tmp_path):
    """zlib.error escaped tapegrad.load (the trace loader caught it already)."""
    tg.save({"w": tg.arange(1000.0)}, tmp_path / "s.pt")
    bad = _damage(_rezip(tmp_path / "d.pt", _members(tmp_path / "s.pt"), zipfile.ZIP_DEFLATED),
                  "tensors/0.npy", at=5)
    with pytest.raises(ValueError, match="damaged or truncated"):
        tg.load(bad)


def _huge_tensor_file(path, n):
    """A tapegrad.save file declaring one float64 tensor of n elements, holding 64 bytes."""
    head = {"format": "tapegrad.save", "version": 1, "root": {"tensor": 0},
            "tensors": [{"kind": "tensor", "requires_grad": False, "parameter": False,
                         "dtype": "float64", "shape": [n]}]}
    npy = io.BytesIO()
    np.lib.format.write_array_header_1_0(npy, {"descr": "<f8", "fortran_order": False,
                                               "shape": (n,)})
    with zipfile.ZipFile(path, "w") as w:
        w.writestr("tapegrad.json", json.dumps(head))
        w.writestr("tensors/0.npy", npy.getvalue() + bytes(64))
    return len(npy.getvalue())


def test_a_stored_member_larger_than_the_archive_is_refused_before_reading(tmp_path):
    """The directory may claim gigabytes for a member of 64 bytes: the reader asked for them
    (an allocation of the claimed size) and died on EOFError."""
    p = tmp_path / "big.pt"
    head = _huge_tensor_file(p, 1 << 28)
    _patch_directory(p, "tensors/0.npy", csize=head + (1 << 31), usize=head + (1 << 31))
    with pytest.raises(ValueError, match="declares .* bytes, more than the archive holds"):
        tg.load(p)
    t = tmp_path / "t.npz"
    tg.jit.save(tg.jit.trace(_f, X0), t)
    members = _members(t)
    npy = io.BytesIO()
    np.lib.format.write_array_header_1_0(npy, {"descr": "<f8", "fortran_order": False,
                                               "shape": (1 << 28,)})
    members["vals0.npy"] = npy.getvalue() + bytes(64)
    q = _rezip(tmp_path / "q.npz", members, zipfile.ZIP_STORED)
    size = len(npy.getvalue()) + (1 << 31)
    _patch_directory(q, "vals0.npy", csize=size, usize=size)
    with pytest.raises(ValueError, match="declares .* bytes, more than the archive holds"):
        tg.jit.load(q)


def test_a_truncated_stored_member_is_a_value_error(tmp_path):
    tg.save({"w": tg.arange(100.0)}, tmp_path / "s.pt")
    raw = (tmp_path / "s.pt").read_bytes()
    cut = tmp_path / "cut.pt"
    for n in (len(raw) // 3, len(raw) // 2, len(raw) - 40):
        cut.write_bytes(raw[:n])
        with pytest.raises(ValueError):
            tg.load(cut)


class _Boom:
    def __reduce__(self):
        return (os.system, ("echo pwned > /dev/null",))


@pytest.mark.parametrize("payload", [
    pickle.dumps(_Boom()), pickle.dumps(eval), b"cos\nsystem\n(S'true'\ntR.",
    b"c__builtin__\neval\n(S'1+1'\ntR.", b"csubprocess\ncall\n((S'true'\nltR."])
def test_pickles_under_weights_only_are_refused_without_running(tmp_path, payload):
    head = {"format": "tapegrad.save", "version": 1, "root": None, "pickle": "data.pkl",
            "tensors": []}
    p = tmp_path / "evil.pt"
    with zipfile.ZipFile(p, "w") as w:
        w.writestr("tapegrad.json", json.dumps(head))
        w.writestr("data.pkl", payload)
    with pytest.raises(RuntimeError, match="Weights only load failed"):  # also UnpicklingError
        tg.load(p)
    with pytest.raises(pickle.UnpicklingError):
        tg.load(p)


def test_a_raw_pickle_is_not_a_trace_nor_a_save_file(tmp_path):
    p = tmp_path / "raw.pkl"
    p.write_bytes(pickle.dumps(_Boom()))
    for load in (tg.load, tg.jit.load):
        with pytest.raises(ValueError):
            load(p)


@pytest.mark.parametrize("meta", [
    {"dtype": "float64", "shape": [2**62, 2**62]}, {"dtype": "float64", "shape": [-1]},
    {"dtype": "object", "shape": [1]}, {"dtype": "float64", "shape": [True]},
    {"dtype": "float64", "shape": [1] * 70}, {"dtype": "<U3", "shape": [1]}])
def test_declared_shapes_and_dtypes_are_checked(tmp_path, meta):
    head = {"format": "tapegrad.save", "version": 1, "root": {"tensor": 0},
            "tensors": [dict(kind="tensor", requires_grad=False, parameter=False, **meta)]}
    p = tmp_path / "s.pt"
    with zipfile.ZipFile(p, "w") as w:
        w.writestr("tapegrad.json", json.dumps(head))
        w.writestr("tensors/0.npy", b"\x93NUMPY\x01\x00" + bytes(64))
    with pytest.raises(ValueError):
        tg.load(p)


def test_a_trace_declaring_another_format_is_refused(tmp_path):
    path = tmp_path / "t.npz"
    tg.jit.save(tg.jit.trace(_f, X0), path)
    with np.load(path) as z:
        a = {k: z[k].copy() for k in z.files}
    a["format"] = np.int64(3)
    a["digest"] = validate.digest(a)
    np.savez(path, **a)
    with pytest.raises(ValueError, match="'format' is 3"):
        tg.jit.load(path)


# ---- rows at their bounds ------------------------------------------------------------------
def _all_bounds(a):
    nslots, nmeta, nc = len(a["offs"]) - 1, len(a["meta"]), len(a["consts"])
    for r in range(len(a["rows"])):
        for c in (1, 2, 3, 4):
            for v in {nslots, nslots + 1, -1, -2, 2**62, -2**63, nmeta, nc, 2,
                      int(a["rows"][r, c]) + 1}:
                if v != a["rows"][r, c]:
                    yield r, c, v


def test_every_operand_field_at_and_past_its_bounds_loads_exactly_or_raises(tmp_path):
    """Every row, every column, slot/meta/const counts and past them, with the checksum
    recomputed and the gradient dropped: ValueError, or a trace that replays as the original
    (an edit of a field its op never reads, as the aux of a plain add, loads: it changes
    nothing)."""
    t = tg.jit.trace(_f, X0)
    path = tmp_path / "t.npz"
    t.save(path)
    with np.load(path) as z:
        base = {k: z[k].copy() for k in z.files}
    want = t.value_and_grad(X0 + 0.1)
    loaded = 0
    for r, c, v in _all_bounds(base):
        a = {k: x.copy() for k, x in base.items() if k != "grad0"}
        a["rows"][r, c] = v
        a["digest"] = validate.digest(a)
        np.savez(path, **a)
        try:
            u = tg.jit.load(path)
        except ValueError:
            continue
        loaded += 1
        v1, g1 = u.value_and_grad(X0 + 0.1)
        assert v1 == want[0] and np.array_equal(g1, want[1]), (r, c, v)
    assert loaded < len(list(_all_bounds(base))) // 4


@pytest.mark.parametrize("row, col, value, message", [
    (9, 3, 2, "row 9 \\(MulBackward0, opcode 7\\): in1 must be -1 for this unary op, got 2"),
    (5, 3, -1, "row 5 \\(AddBackward0, opcode 1\\): in1 must be a slot for this binary op")])
def test_a_scalar_row_of_the_wrong_arity_is_refused(tmp_path, row, col, value, message):
    """The interpreters ignore a unary row's in1, so the traced point passed; the one-point
    lowering read it as a binary op's operand and put an arena offset where the row's
    const index goes: the point kernel read consts out of bounds (IndexError under
    NUMBA_BOUNDSCHECK=1 or interpreted, an arbitrary read compiled)."""
    path = tmp_path / "t.npz"
    tg.jit.save(tg.jit.trace(_f, X0), path)
    with np.load(path) as z:
        a = {k: z[k].copy() for k in z.files if k != "grad0"}
    assert a["rows"][9, 0] == tg.ops.elementwise.MUL_C and a["rows"][5, 0] == tg.ops.elementwise.ADD
    a["rows"][row, col] = value
    a["digest"] = validate.digest(a)
    np.savez(path, **a)
    with pytest.raises(ValueError, match=message):
        tg.jit.load(path)


# ---- replay against eager ------------------------------------------------------------------
def _grad_modes(x):
    with tg.no_grad():
        a = (x * x).sum()
        with tg.enable_grad():
            b = x.exp().sum()
    with tg.set_grad_enabled(False):
        c = x.sin()
    with tg.inference_mode():
        d = x.cos()
    e = x.detach().requires_grad_(False) * 2.0
    return (x * a).sum() + b * x[0] + (x * c).sum() + (x * d.clone()).sum() + \
        (x * e).sum() + (x * x.data).sum()  # (d: an inference tensor, saved only as a clone)


def _inplace_flow(x):
    y = x * 1.0
    y.mul_(x)
    y[0] = x[1] * 3.0
    y.add_(2.0)
    y.sub_(x.detach())
    s = y.sum()
    if s > 1.0:  # a guard
        s = s * s
    while y.norm() > 1.0:  # a guard per turn
        y = y / 2.0
    return s + y.sum() + x[int(x.argmax())] + max(x[0], x[1]) + x[x > 0].sum()


@pytest.mark.parametrize("f", [_grad_modes, _inplace_flow])
@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(-2.0, 2.0), min_size=3, max_size=3))
def test_compiled_replay_matches_eager_at_new_points(f, x):
    x = np.array(x)
    c = tg.compile(f)
    c.value_and_grad(X0)
    v, g = c.value_and_grad(x)
    ve, ge = eager_value_and_grad(f, x)
    assert np.isclose(v, ve, rtol=1e-9, atol=1e-12) and np.allclose(g, ge, rtol=1e-9,
                                                                    atol=1e-12)


@pytest.mark.parametrize("how", ["tensor", "leaf", "post"])
def test_a_hook_registered_while_tracing_is_refused(how):
    """Replay ran the rows only: a hook's change of the gradient was silently lost."""
    def f(x):
        y = x * 2.0
        if how == "tensor":
            y.register_hook(lambda g: g * 10.0)
        elif how == "leaf":
            x.register_hook(lambda g: g * 10.0)
        else:
            x.register_post_accumulate_grad_hook(lambda t: None)
        return (y * y).sum()
    for replay in (lambda: tg.trace(f, X0), lambda: tg.compile(f).grad(X0)):
        with pytest.raises(RuntimeError, match="while tracing: a hook runs Python"):
            replay()
    eager_value_and_grad(f, X0)  # (eagerly, the hook is f's to register)


def test_draws_from_a_generator_of_the_callers_are_refused():
    """Only the global generators were compared: a Generator passed in replayed one draw."""
    g = tg.Generator().manual_seed(0)

    def f(x):
        return (x * tg.randn(3, generator=g)).sum()
    with pytest.raises(RuntimeError, match="drew random numbers"):
        tg.trace(f, X0)
    c = tg.compile(f)  # runs f eagerly: a new draw per call
    assert c(tg.tensor(X0)).item() != c(tg.tensor(X0)).item()


def _stale(t, x):
    with pytest.raises(RuntimeError, match="one has changed since"):
        t.value(x)


def test_a_closure_tensor_given_new_data_makes_the_trace_stale():
    w = tg.tensor([1.0, 2.0, 3.0])
    t = tg.trace(lambda x: (x * w).sum(), X0)
    c = tg.compile(lambda x: (x * w).sum())
    c(X0)
    w.data = tg.tensor([5.0, 5.0, 5.0])  # (not an in-place write: no write was counted)
    _stale(t, X0)
    assert c(X0) == pytest.approx(5.0 * X0.sum())


def test_a_rebound_closure_tensor_or_replaced_parameter_makes_the_trace_stale():
    box = {"w": tg.tensor([1.0, 2.0, 3.0])}
    t = tg.trace(lambda x: (x * box["w"]).sum(), X0)
    c = tg.compile(lambda x: (x * box["w"]).sum())
    c(X0)
    box["w"] = tg.tensor([7.0, 7.0, 7.0])  # the old one dies: f reads another tensor now
    _stale(t, X0)
    assert c(X0) == pytest.approx(7.0 * X0.sum())
    lin = tg.nn.Linear(3, 1)
    t = tg.trace(lambda x: lin(x).sum(), X0)
    lin.weight = tg.nn.Parameter(tg.ones(1, 3))
    _stale(t, X0)


def test_a_closure_tensor_sharing_numpy_memory_is_compared_at_every_call():
    """Traced skipped the comparison while no write was counted, though NumPy's writes never
    are (Compiled looked every time already)."""
    arr = np.array([1.0, 2.0, 3.0])
    w = tg.from_numpy(arr)
    t = tg.trace(lambda x: (x * w).sum(), X0)
    assert t.value(X0) == pytest.approx((X0 * arr).sum())
    arr[0] = 10.0
    _stale(t, X0)


SCALE = 2.0  # a global a traced function reads


def _scaled(x):
    return (x * SCALE).sum()


def _counted(x):
    global CALLS_N
    CALLS_N += 1  # (eager only: replay runs rows, not Python)
    return (x * float("nan")).nan_to_num().sum() + x.sum()


CALLS_N = 0


def test_numbers_and_arrays_f_reads_from_outside_are_guarded():
    """A closure's number, a global number, a small array changed in place and a Module's
    float attribute are constants of the trace: when one changes, Traced raises and compile
    traces again, as torch.compile's guards do."""
    global SCALE
    k = 3.0
    offs = np.array([1.0, 2.0, 3.0])
    f = lambda x: (x * k + offs).sum()  # noqa: E731
    t, c = tg.trace(f, X0), tg.compile(f)
    assert c.value_and_grad(X0)[0] == pytest.approx((X0 * 3.0 + offs).sum())
    k = 4.0
    _stale(t, X0)
    v, g = c.value_and_grad(X0)
    assert v == pytest.approx((X0 * 4.0 + offs).sum()) and np.allclose(g, 4.0)
    offs[0] = 10.0  # in place: compared by value
    assert c(X0) == pytest.approx((X0 * 4.0 + offs).sum())

    t, c = tg.trace(_scaled, X0), tg.compile(_scaled)
    c(X0)
    SCALE = 5.0
    try:
        _stale(t, X0)
        assert np.allclose(c.grad(X0), 5.0)
    finally:
        SCALE = 2.0

    class Scaled(tg.nn.Module):
        def __init__(self):
            super().__init__()
            self.alpha = 0.5

        def forward(self, x):
            return (x * self.alpha).sum()
    m = Scaled()
    c = tg.compile(m)
    assert np.allclose(c.grad(X0), 0.5)
    m.alpha = 2.0
    assert np.allclose(c.grad(X0), 2.0)


T = 1  # a global that shares its name with an attribute f reads (x.T)


def _transposed_sum(x):
    return x.T.sum()


def test_a_global_named_like_an_attribute_f_reads_is_no_guard():
    global T
    t = tg.trace(_transposed_sum, X0)
    T = 2
    try:
        assert t.value(X0) == pytest.approx(X0.sum())  # (x.T reads no global T)
    finally:
        T = 1


def test_a_number_f_changes_itself_or_a_nan_constant_does_not_retrace_every_call():
    """The captured values are taken as f left them, and NaN equals NaN there: a counter
    f bumps (a side effect, run when traced) and a NaN constant keep the one trace."""
    c = tg.compile(_counted)
    for _ in range(3):
        assert c(X0) == pytest.approx(X0.sum())
    assert CALLS_N == 1


# ---- the row fuzz over a corpus of opcodes (slow) --------------------------------------------
@pytest.mark.slow
def test_row_and_meta_mutations_of_every_opcode_load_or_raise(tmp_path, capsys):
    log = tmp_path / "cases.txt"
    limit = os.environ.get("TAPEGRAD_ROW_FUZZ", "40")
    proc = subprocess.run([sys.executable, str(ROWS), "--limit", limit, "--log", str(log)],
                          capture_output=True, text=True, timeout=3600,
                          env=dict(os.environ, TAPEGRAD_BACKGROUND="0"))
    last = log.read_text().splitlines()[-1:] if log.exists() else []
    assert proc.returncode == 0, (f"the row fuzzer died (return code {proc.returncode}) at "
                                  f"{last}:\n{proc.stderr[-3000:]}")
    stats = json.loads(proc.stdout.strip().splitlines()[-1])
    assert stats["failures"] == [], "\n".join(stats["failures"][:10])
    assert len(stats["opcodes"]) >= 80 and stats["refused"] > stats["cases"] / 2
    with capsys.disabled():
        print(f"\nrow fuzz: {stats['cases']} cases, {stats['refused']} refused, "
              f"{stats['loaded']} loaded, {len(stats['opcodes'])} opcodes, "
              f"{stats['seconds']} s")
