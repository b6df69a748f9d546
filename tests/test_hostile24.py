"""Hostile inputs, round 24: the Jacobian's unit seeds, and crafted trace files.

- The replay Jacobian paths (``jacobian``, ``jacobian_batch``, ``jvp_batch``) seeded the
  reverse sweeps with an m x m identity (``_unit_seeds``): a trace of 10^5 outputs asked
  for 80 GB before any point ran (MemoryError), however few its inputs.  The seeds now go
  at most UNIT_SEED_BYTES at a time, each chunk's rows into the Jacobian (the bits one
  identity gives: each seed row is swept on its own), and a Jacobian (B, m, n) that
  cannot fit in the machine's memory is refused first, naming its size, as PyTorch's
  allocator words it ("not enough memory: you tried to allocate ... bytes"); so is a
  Hessian whose n x n products cannot fit.
- ``tapegrad.load`` took a view entry naming an element of its base twice (stride 0, an
  expand; overlapping windows), which save never writes: in-place writes through it, which
  PyTorch refuses, landed each element's last write in the base.  A layout that does not
  nest as every view op's does is refused.
- A var/std row given another row's map (groups of unequal sizes) loaded: its forward's
  "mean" divides by n_in / n_out, so its gradient was silently not the derivative of its
  values.  Found by the new ``--fd`` oracle of tests/fuzz_trace_combos.py (each loaded
  trace's Jacobian against central differences of its own values).
- A clamp row with a NaN bound loaded: the row keeps x where PyTorch gives NaN, and its
  gradient (0) was not the derivative of its values (the same oracle, const edits).
"""
import io
import json
import os
import tracemalloc
import zipfile

import numpy as np
import pytest
import torch

import tapegrad as tg
from tapegrad import replay
from test_hostile21 import _arrays, _file  # (a trace's arrays; a file of them, re-digested)


def _vec(x):  # m = 60 outputs of 3 inputs, two rows reading the same slot
    return (x[:, None] * tg.ones(20)).reshape(-1).sin() + x[0] * x[1]


def _bits(a):
    return np.ascontiguousarray(a).view(np.int64)


def _all_paths(c, x, X):
    """Every Jacobian path's results at x (one point) and X (5 points)."""
    idx = (np.array([0, 2, 2, 1]),)
    mask = np.ones((60, 3), bool)
    mask[::7, 1] = False
    cnt = mask.sum(1)
    start = np.arange(4)[:, None] * cnt.sum() + np.concatenate([[0], np.cumsum(cnt)[:-1]])
    data = np.full(4 * cnt.sum(), np.nan)
    c.jacobian_batch(X, index=idx, out=(data, start, mask))
    V, J = c.jvp_batch(X, v=2 * X)
    return [c.jacobian(x), c.jacobian_batch(X), V, J, c.jacobian_batch(X, index=idx), data]


@pytest.mark.parametrize("how", ["traced", "compiled", "loaded", "fused"])
def test_unit_seeds_in_chunks_give_the_same_bits(how, monkeypatch, tmp_path):
    """Seeds of 7 rows at a time (9 chunks) against one identity: every Jacobian path,
    bit for bit, for a trace, a compiled function, a loaded trace and a trace whose fused
    kernels (seeded, direct, index/out) are compiled."""
    x = np.array([0.3, 0.7, 1.1])
    X = np.random.default_rng(0).normal(size=(5, 3))
    if how == "compiled":
        c = tg.compile(_vec)
    else:
        c = tg.trace(_vec, x)
        if how == "loaded":
            c.save(tmp_path / "t.npz")
            c = tg.jit.load(tmp_path / "t.npz")
        if how == "fused":
            if os.environ.get("NUMBA_DISABLE_JIT") == "1":
                pytest.skip("the fused tier needs the JIT")
            assert c.compile_fused(wait=True) == "fused"
    whole = _all_paths(c, x, X)
    calls = []
    seeds = replay._unit_seeds

    def counted(t, B, lo=0):
        U = seeds(t, B, lo)
        calls.append(U.shape[1])
        return U
    monkeypatch.setattr(replay, "_unit_seeds", counted)
    monkeypatch.setattr(replay, "UNIT_SEED_BYTES", 8 * 60 * 7)
    chunked = _all_paths(c, x, X)
    assert max(calls) == 7 and len(calls) >= 5 * 9  # (chunked: 9 a Jacobian)
    for a, b in zip(whole, chunked, strict=True):
        assert a.shape == b.shape and np.array_equal(_bits(a), _bits(b))
    # against the rule by hand: d/dx_i sin(x_i) + x0 x1 on each of x_i's 20 outputs
    J = np.zeros((60, 3))
    for i in range(3):
        J[20 * i:20 * i + 20, i] = np.cos(x[i])
    J[:, 0] += x[1]
    J[:, 1] += x[0]
    np.testing.assert_allclose(chunked[0], J, rtol=1e-13)


def test_jacobian_of_many_outputs_runs_in_bounded_memory():
    """10,000 outputs of 2 inputs: the identity alone took 800 MB; now the seeds take at
    most UNIT_SEED_BYTES (64 MB) at a time (the peak NumPy allocation, traced)."""
    m = 10_000
    a = np.arange(m) / m
    t = tg.trace(lambda x: (x[0] * tg.tensor(a)).sin() * x[1], np.array([0.5, 2.0]))
    x = np.array([0.8, -1.5])
    tracemalloc.start()
    try:
        J = t.jacobian(x)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < (1 << 28) < 8 * m * m  # (256 MB: four chunks of seeds; the identity 800 MB)
    np.testing.assert_allclose(J[:, 0], np.cos(x[0] * a) * a * x[1], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(J[:, 1], np.sin(x[0] * a), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("call", ["jacobian", "jacobian_batch", "jvp_batch"])
def test_jacobian_too_large_for_memory_is_refused_naming_its_size(call, monkeypatch,
                                                                  tmp_path):
    """A loaded trace of 10^5 outputs by 10^5 inputs: its Jacobian (80 GB) is refused
    before any point runs, in PyTorch's words, naming the bytes and the shape (was:
    MemoryError from the 80 GB identity)."""
    # (16 GiB: the same on any machine)
    monkeypatch.setattr(replay, "PHYS_BYTES", 1 << 34, raising=False)
    n = 100_000
    tg.trace(lambda x: x * 2.0, np.ones(n)).save(tmp_path / "t.npz")
    t = tg.jit.load(tmp_path / "t.npz")
    x = np.ones(n)
    with pytest.raises(RuntimeError, match=r"not enough memory: you tried to allocate "
                                           r"80000000000 bytes.*\(1, 100000, 100000\)"):
        if call == "jacobian":
            t.jacobian(x)
        elif call == "jacobian_batch":
            t.jacobian_batch(x[None])
        else:
            t.jvp_batch(x[None], v=x[None])


@pytest.mark.parametrize("call", ["hessian", "hessian_batch"])
def test_hessian_too_large_for_memory_is_refused_naming_its_size(call, monkeypatch):
    """The Hessian of 10^5 inputs: B n x n Hessian-vector products, whose points, unit
    tangents and results took 80 GB each (MemoryError from np.repeat): refused first."""
    monkeypatch.setattr(replay, "PHYS_BYTES", 1 << 34, raising=False)
    c = tg.compile(lambda x: (x * x).sum())
    x = np.ones(100_000)
    with pytest.raises(RuntimeError, match=r"not enough memory: you tried to allocate "
                                           r"240000000000 bytes"):
        c.hessian(x) if call == "hessian" else c.hessian_batch(x[None])


def _saved_with(e, **change):
    """A tapegrad.save file of {"x": arange(4), "e": e}, entry 1 (e) changed by
    ``change`` (view_of, offset, stride), as a crafted file would."""
    buf = io.BytesIO()
    tg.save({"x": tg.arange(4.0), "e": tg.tensor(e)}, buf)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
        members = {n: z.read(n) for n in z.namelist()}
    head = json.loads(members["tapegrad.json"])
    head["tensors"][1].update(change)
    members["tapegrad.json"] = json.dumps(head).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for n, data in members.items():
            z.writestr(n, data)
    out.seek(0)
    return out


@pytest.mark.parametrize("stride", [[0, 1], [1, 1]])
def test_a_view_naming_an_element_twice_is_refused(stride):
    """A crafted view entry naming a base element twice (stride 0: an expand, which no
    view op makes and save never writes as a view; or overlapping windows), holding its
    base's values there, loaded as a view: an in-place op on it, which PyTorch refuses
    ("more than one element of the written-to tensor refers to a single memory
    location"), wrote into the base, each element's last write landing.  Refused at load,
    naming the entry and its layout."""
    x = np.arange(4.0)
    e = x[None, :].repeat(3, 0) if stride == [0, 1] else x[np.add.outer([0, 1], [0, 1, 2])]
    f = _saved_with(e, view_of=0, offset=0, stride=stride)
    with pytest.raises(ValueError, match=rf"entry 1 of 'tensors' has a view layout that no view "
                                         rf"op makes \(it may name an element of its base more "
                                         rf"than once\): shape \[{e.shape[0]}, {e.shape[1]}\], "
                                         rf"stride=\[{stride[0]}, 1\]"):
        tg.load(f)


def test_views_that_name_each_element_once_still_load():
    """Views save writes (a transpose, steps, a diagonal) load as views: writes through
    them land in the base, and the siblings show them."""
    x = tg.arange(12.0)
    buf = io.BytesIO()
    tg.save({"x": x, "t": x.view(3, 4).t(), "s": x.view(3, 4)[::2, 1::2],
             "d": x.view(3, 4).diagonal(), "p": x.view(2, 3, 2).permute(2, 0, 1),
             "g": x.view(2, 3, 2).diagonal(0, 0, 2)[1:]}, buf)
    buf.seek(0)
    back = tg.load(buf)
    from tapegrad.ops import views
    assert all(views.of(back[k]) is not None for k in "tsdpg")
    np.testing.assert_array_equal(back["p"].numpy(), np.arange(12.0).reshape(2, 3, 2)
                                  .transpose(2, 0, 1))
    np.testing.assert_array_equal(back["g"].numpy(), np.arange(12.0).reshape(2, 3, 2)
                                  .diagonal(0, 0, 2)[1:])
    back["t"][1].fill_(-1.0)
    back["d"].add_(100.0)
    want = np.arange(12.0).reshape(3, 4)
    want[:, 1] = -1.0
    want[[0, 1, 2], [0, 1, 2]] += 100.0
    np.testing.assert_array_equal(back["x"].numpy().reshape(3, 4), want)
    np.testing.assert_array_equal(back["s"].numpy(), want[::2, 1::2])


def _two_stds(x):
    return x.reshape(2, 3).std(1).sum() + x.std() + x.var()


def test_var_std_map_of_uneven_groups_is_refused():
    """A std row over (2, 3) -> 2 given the meta of the full std's row (its map sends all
    six elements to output 0; both maps pass the range checks): var_fwd divides each
    group's sum by n_in / n_out = 3, so its "mean" was not the group's, and var_rev's
    gradient, scale (x - mean) gy / y, not the derivative of what the row computes
    (found by fuzz_trace_combos --fd: every element's gradient 1/3 off the central
    differences).  Such a map (groups of unequal sizes) is refused, naming it."""
    from tapegrad.ops.reductions import STD
    from tapegrad.replay import validate
    a = _arrays(_two_stds, np.linspace(0.3, 1.4, 6))
    rows = a["rows"]
    r, full = np.nonzero(rows[:, 0] == STD)[0][:2]
    assert np.diff(a["offs"])[rows[r, 1]] == 2 and np.diff(a["offs"])[rows[full, 1]] == 1
    rows[r, 4] = rows[full, 4]
    d = validate.fields_from_npz(a)
    with pytest.raises(ValueError, match=rf"row {r} \(StdBackward0, opcode {STD}\): the map at "
                                         rf"meta\[{rows[full, 4] + 1}\] does not send equally "
                                         r"many of the 6 input elements to each of the 2"):
        validate.check(d, validate.MAX_BYTES)


@pytest.mark.parametrize("shape, dims", [((4, 6), (0,)), ((2, 3, 4), (0, 2)), ((2, 3, 4), (2, 0)),
                                         ((2, 1, 4), (1,)), ((3, 0), (0,)), ((2, 3), None)])
def test_var_std_over_whole_dims_still_load(shape, dims, tmp_path):
    """var and std over any dims (kept, reduced, of one element, empty) save, load and
    replay as PyTorch computes them."""
    x = np.random.default_rng(1).normal(size=shape)

    def f(x):
        args = {} if dims is None else {"dim": dims}
        return (x.var(**args) ** 2).sum() + x.std(**args).sum()
    tg.trace(f, x).save(tmp_path / "t.npz")
    v, g = tg.jit.load(tmp_path / "t.npz").value_and_grad(x)
    xt = torch.tensor(x, requires_grad=True)
    args = {} if dims is None else {"dim": dims}
    y = (xt.var(**args) ** 2).sum() + xt.std(**args).sum()
    y.backward()
    np.testing.assert_allclose(v, y.item(), rtol=1e-12, equal_nan=True)
    np.testing.assert_allclose(g, xt.grad.numpy(), rtol=1e-10, atol=1e-14, equal_nan=True)


@pytest.mark.parametrize("bound", [0, 1])
def test_clamp_by_a_nan_bound_is_refused(bound):
    """A clamp row's bound set to NaN in the const pool (vals0 recomputed by the rows, as a
    careful attacker does): clamp_fwd's comparisons keep x where PyTorch gives NaN, and
    clamp_rev's gradient (0) is not the derivative of those values (found by
    fuzz_trace_combos --fd, const edits).  Refused, naming the row and the consts."""
    from tapegrad.ops.elementwise import CLAMP
    from tapegrad.replay import validate
    a = _arrays(lambda x: (x.clamp(0.4, 1.0) * x).sum(), np.linspace(0.3, 1.4, 6))
    r = int(np.nonzero(a["rows"][:, 0] == CLAMP)[0][0])
    k = int(a["rows"][r, 4])
    a["consts"][k + bound] = np.nan
    with pytest.raises(ValueError, match=rf"row {r} \(ClampBackward1, opcode {CLAMP}\): a NaN "
                                         rf"bound \(consts\[{k}:{k + 2}\]"):
        validate.check(validate.fields_from_npz(a), validate.MAX_BYTES)
    x = tg.tensor(np.linspace(0.3, 1.4, 6))  # (PyTorch's values, which the row cannot give)
    assert np.isnan(x.clamp(np.nan if bound == 0 else 0.4, np.nan if bound else 1.0).numpy()).all()
