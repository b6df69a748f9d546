"""Loaders against crafted files, round 37.

- weights_only's unpickler charged every opcode ``OP_BYTES`` through a Python call of its
  own (1.27x the load's time).  A pickle of n bytes runs at most n opcodes: when
  ``n * OP_BYTES`` fits in what ``max_bytes`` has left it is charged at once, and a load
  that then outgrows ``max_bytes`` runs again counted opcode by opcode, so that the files
  refused are the ones the count refuses.  These tests hold both paths to one answer.
"""
import io
import json
import os
import pickle
import struct
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import serialization
from test_hostile36 import _peak, _torch_file  # (a call's result and peak memory; a file)


def _deflated_tensors(obj):
    """tg.save's file of ``obj`` with its tensors' members deflated (charged against
    max_bytes at their inflated size) and the pickle's size."""
    buf = io.BytesIO()
    tg.save(obj, buf)
    zin, out = zipfile.ZipFile(buf), io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for i in zin.infolist():
            z.writestr(i.filename, zin.read(i), zipfile.ZIP_DEFLATED
                       if i.filename.startswith("tensors/") else zipfile.ZIP_STORED)
    return out.getvalue(), zin.getinfo("data.pkl").file_size


def _load(data, **kw):
    return tg.load(io.BytesIO(data), **kw)


def test_pickle_charged_whole_then_outgrowing_max_bytes_is_counted_per_opcode():
    # a pickle of 2 * 10**5 bytes but few opcodes (one long string), then 8 * 10**5
    # bytes of deflated values: charged whole (5 * 10**7) they do not fit, counted they do
    data, n = _deflated_tensors({"s": {"x" * 200_000}, "w": tg.ones(10**5)})
    mb = serialization.OP_BYTES * n + 400_000
    back = _load(data, max_bytes=mb)
    assert back["s"] == {"x" * 200_000}
    np.testing.assert_array_equal(back["w"].numpy(), np.ones(10**5))
    with pytest.raises(ValueError, match="max_bytes=700000"):  # (counted from the start)
        _load(data, max_bytes=700_000)


def _loads(data, max_bytes):
    try:
        _load(data, max_bytes=max_bytes)
    except ValueError as e:
        assert "max_bytes" in str(e)
        return False
    return True


def test_both_paths_refuse_and_accept_alike():
    data, n = _deflated_tensors({"s": {1, 2}, "w": tg.arange(5000.0)})
    lo, hi = 1, 10**6  # (the least max_bytes that loads, as the per-opcode count has it)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if _loads(data, mid) else (mid, hi)
    assert _loads(data, hi) and not _loads(data, hi - 1)
    # charged whole at hi (its pickle charged whole is less than its values take), the
    # deflated values outgrow max_bytes, and the count decides, as it does with every
    # opcode counted from the start
    assert serialization.OP_BYTES * n < 5000 * 8
    counted = serialization._SafeUnpickler.uncounted
    try:
        serialization._SafeUnpickler.uncounted = serialization._SafeUnpickler.dispatch
        assert _loads(data, hi) and not _loads(data, hi - 1)
    finally:
        serialization._SafeUnpickler.uncounted = counted


def _pickle_file(pkl):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("tapegrad.json", '{"format": "tapegrad.save", "version": 1, "root": null, '
                                    '"pickle": "data.pkl", "tensors": []}')
        z.writestr("data.pkl", pkl)
    return buf.getvalue()


def _raises_index_error(*args):
    raise IndexError("an allowed function's own IndexError")


@pytest.mark.parametrize("max_bytes", [10**9, 5000], ids=["charged whole", "counted"])
def test_an_allowed_calls_index_error_is_its_own_and_underflow_is_unpickling_error(max_bytes):
    call = _pickle_file(b"\x80\x02c" + __name__.encode() + b"\n_raises_index_error\n)R.")
    with serialization.safe_globals([_raises_index_error]):
        with pytest.raises(IndexError, match="function.s own IndexError"):
            _load(call, max_bytes=max_bytes)
    with pytest.raises(pickle.UnpicklingError, match="stack underflow"):  # (nothing to pop)
        _load(_pickle_file(b"\x80\x02R."), max_bytes=max_bytes)


# ---- malformed pickles: refused as UnpicklingError, not another error of the unpickler ---
def test_bytearray8_makes_only_the_bytes_the_file_holds():
    # pickle's own BYTEARRAY8 made a bytearray of the size named before reading it: 2**40
    # (MemoryError here; under overcommit, a 22-byte file zeroing memory until killed)
    got, peak = _peak(lambda: _load(_pickle_file(
        b"\x80\x05\x96" + struct.pack("<Q", 2**40) + b"abc.")))
    assert isinstance(got, pickle.UnpicklingError) and "truncated" in str(got), repr(got)
    assert peak < 16 << 20, peak
    with pytest.raises(pickle.UnpicklingError, match="truncated"):  # (it came back padded
        _load(_pickle_file(b"\x80\x05\x96" + struct.pack("<Q", 10) + b"abc."))  # with zeros)
    with pytest.raises(pickle.UnpicklingError, match="exceeds system's maximum size"):
        _load(_pickle_file(b"\x80\x05\x96" + struct.pack("<Q", 2**64 - 1) + b"abc."))
    assert _load(_pickle_file(b"\x80\x05\x96" + struct.pack("<Q", 3) + b"abc.")) == \
        bytearray(b"abc")
    assert _load(_pickle_file(pickle.dumps(bytearray(b"xyz" * 50), 5))) == \
        bytearray(b"xyz" * 50)


@pytest.mark.parametrize("pkl, words", [
    (b"\x80\x02K\x01K\x02K\x03s.", "TypeError"),  # SETITEM into an int
    (b"\x80\x04}(K\x01\x90.", "AttributeError"),  # ADDITEMS into a dict
    (b"\x80\x02}]K\x02s.", "TypeError"),  # an unhashable key
    (b"\x80\x04\x95\x01", "struct.error"),  # FRAME's size cut short
    (b"\x80\x02J\x01\x00.", "struct.error"),  # BININT cut short
], ids=["setitem-int", "additems-dict", "unhashable", "frame", "binint"])
def test_malformed_structure_is_unpickling_error(pkl, words):
    with pytest.raises(pickle.UnpicklingError, match="malformed pickle") as e:
        _load(_pickle_file(pkl))
    assert isinstance(e.value, RuntimeError)  # (WeightsOnlyError, as every refusal)
    assert words.split(".")[-1] in str(e.value)


def _torch_words(pkl):
    torch, out = _torch_file(pkl)
    with pytest.raises(pickle.UnpicklingError) as e:
        torch.load(out, weights_only=True)
    return str(e.value).split("WeightsUnpickler error:")[1].strip().split("\n")[0]


@pytest.mark.parametrize("pkl", [b"\x80\x02K\x01)R.", b"\x80\x02K\x01)\x81.",
                                 b"\x80\x02X\x01\x00\x00\x00a)R."],
                         ids=["reduce-int", "newobj-int", "reduce-str"])
def test_only_allowed_globals_are_called(pkl):
    with pytest.raises(pickle.UnpicklingError) as e:  # ('int' object is not callable)
        _load(_pickle_file(pkl))
    assert str(e.value).split("WeightsUnpickler error:")[1].strip().split("\n")[0] == \
        _torch_words(pkl)


def test_a_persistent_id_of_a_tensor_is_unpickling_error():
    buf = io.BytesIO()
    tg.save({"n": tg.tensor([1.0, 2.0]), "s": {1}}, buf)  # (a set: pickled)
    z = zipfile.ZipFile(buf)
    pid = pickle.dumps(("tapegrad.array", 0), 2)[2:-1]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as w:  # (persistent id (tensor 0, 0): NumPy's
        for i in z.infolist():  # UFuncTypeError from the tensor's == "tapegrad.array")
            w.writestr(i, b"\x80\x02" + pid + b"QK\x00\x86Q." if i.filename == "data.pkl"
                       else z.read(i))
    with pytest.raises(pickle.UnpicklingError, match="unknown persistent id"):
        _load(out.getvalue())


def test_fuzz_saved_pickles():
    """tests/fuzz_saved_pickle.py in a subprocess (a crash is counted, not fatal): byte
    mutations of a save file's pickle load or raise a clear error, the same one charged
    whole or counted (MemoryError, struct.error, AttributeError, TypeError before)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, "-W", "ignore",
                        os.path.join(root, "tests", "fuzz_saved_pickle.py"),
                        "--cases", "600", "--seed", "37"],
                       capture_output=True, text=True, timeout=900, cwd=root)
    assert r.returncode == 0, r.stderr[-2000:]
    stats = json.loads(r.stdout.strip().splitlines()[-1])
    assert stats["cases"] == 600 and stats["ended"].get("loaded", 0) > 5
    assert stats["failures"] == []
