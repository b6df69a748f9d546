"""Loaders against crafted files, round 37.

- weights_only's unpickler charged every opcode ``OP_BYTES`` through a Python call of its
  own (1.27x the load's time).  A pickle of n bytes runs at most n opcodes: when
  ``n * OP_BYTES`` fits in what ``max_bytes`` has left it is charged at once, and a load
  that then outgrows ``max_bytes`` runs again counted opcode by opcode, so that the files
  refused are the ones the count refuses.  These tests hold both paths to one answer.
"""
import io
import pickle
import zipfile

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import serialization


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
