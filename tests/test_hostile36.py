"""Loaders against crafted files, round 36: tapegrad.load's weights-only unpickler.

- It was the C unpickler, which sizes its memo by the index a file names: a 20-byte
  ``LONG_BINPUT 2**26`` made and zeroed 1 GB.  Python's own unpickler (a dict memo, as
  PyTorch's weights-only one) replaces it.
- Nothing bounded what a pickle made: a million ``EMPTY_SET`` opcodes (a 1 MB file, or a
  1 kB deflated one) made 220 MB under ``max_bytes=10**6``; allowed calls with a size,
  ``Tensor(2**14, 2**14)`` and ``bytearray(2**31)``, made 2 GB each.  Every opcode and
  each call's size count against ``max_bytes`` now, before the memory is made.
- BUILD ran any object's ``__setstate__``: a dtype's is NumPy's, on NumPy's global dtype
  object.  PyTorch builds only a Tensor, a Parameter, an OrderedDict or an allowlisted type.
- A stack opcode with nothing to pop raised IndexError, an unknown opcode KeyError: both
  are UnpicklingError (PyTorch's words for the unknown one).
"""
import io
import json
import pickle
import struct
import tracemalloc
import zipfile

import numpy as np
import pytest

import tapegrad as tg

P = b"\x80\x02"  # PROTO 2


def _file(pkl, compress=False):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED) \
            as z:
        z.writestr("tapegrad.json", json.dumps({"format": "tapegrad.save", "version": 1,
                                                "root": None, "pickle": "data.pkl",
                                                "tensors": []}))
        z.writestr("data.pkl", pkl)
    buf.seek(0)
    return buf


def _global(module, name):
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def _int(n):
    return b"J" + struct.pack("<i", n)


def _peak(fn):
    """fn()'s result (or exception) and the peak memory Python allocated while it ran."""
    tracemalloc.start()
    try:
        try:
            out = fn()
        except Exception as e:  # noqa: BLE001
            out = e
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memo_index_makes_no_memory():
    got, peak = _peak(lambda: tg.load(_file(P + b"Nr" + struct.pack("<I", 2**26) + b".")))
    assert got is None  # (as PyTorch loads it: its memo is a dict)
    assert peak < 64 << 20, peak


def test_memo_get_of_nothing_is_unpickling_error():
    with pytest.raises(pickle.UnpicklingError, match="Memo value not found at index 5"):
        tg.load(_file(P + b"h\x05."))


@pytest.mark.parametrize("compress", [False, True])
def test_objects_a_pickle_makes_count_against_max_bytes(compress):
    pkl = P + b"(" + b"\x8f" * 10**6 + b"l."  # a list of a million empty sets
    got, peak = _peak(lambda: tg.load(_file(pkl, compress), max_bytes=10**6))
    assert isinstance(got, ValueError) and "max_bytes=1000000" in str(got), type(got)
    assert peak < 16 << 20, peak
    back = tg.load(_file(pkl[:2] + b"(" + b"\x8f" * 100 + b"l."))  # (a small one loads)
    assert back == [set()] * 100


@pytest.mark.parametrize("call", [
    _global("tapegrad.tensor", "Tensor") + _int(2**14) + _int(2**14) + b"\x86R",
    _global("builtins", "bytearray") + _int(2**31 - 1) + b"\x85R",
    _global("tapegrad.tensor", "Size") + b"B" + struct.pack("<I", 10**6) + b"\0" * 10**6 +
    b"\x85R",
    _global("tapegrad.tensor", "Size") + b"B" + struct.pack("<I", 10**6) + b"\0" * 10**6 +
    b"\x85\x81",  # (NEWOBJ: Size.__new__)
], ids=["Tensor", "bytearray", "Size", "Size-NEWOBJ"])
def test_allowed_calls_count_what_they_make_against_max_bytes(call):
    got, peak = _peak(lambda: tg.load(_file(P + call + b"."), max_bytes=2 * 10**6))
    assert isinstance(got, ValueError) and "max_bytes=2000000" in str(got), type(got)
    assert peak < 32 << 20, peak


def test_bytearray_sized_by_a_tensor_counts_too():
    # (bytearray takes any __index__ as its size: a 0-d int tensor from the file's arrays)
    buf = io.BytesIO()
    tg.save({"n": tg.tensor(3 * 10**6), "s": {1}}, buf)  # (a set: pickled)
    z = zipfile.ZipFile(buf)
    pid = pickle.dumps(("tapegrad.array", 0), 2)[2:-1]
    assert json.loads(z.read("tapegrad.json"))["tensors"][0]["dtype"] == "int64"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as w:
        for i in z.infolist():
            w.writestr(i, P + _global("builtins", "bytearray") + pid + b"Q\x85R."
                       if i.filename == "data.pkl" else z.read(i))
    out.seek(0)
    with pytest.raises(ValueError, match="max_bytes=1000000"):
        tg.load(out, max_bytes=10**6)
    out.seek(0)
    assert len(tg.load(out)) == 3 * 10**6  # (within the default)


def _torch_file(pkl):
    torch = pytest.importorskip("torch")
    b = io.BytesIO()
    torch.save({"a": 1}, b)
    b.seek(0)
    zin, out = zipfile.ZipFile(b), io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for i in zin.infolist():
            z.writestr(i, pkl if i.filename.endswith("data.pkl") else zin.read(i))
    out.seek(0)
    return torch, out


def _why(fn):
    with pytest.raises(pickle.UnpicklingError) as e:
        fn()
    return str(e.value).split("WeightsUnpickler error:")[1].strip().split("\n")[0]


@pytest.mark.parametrize("obj", [
    _global("tapegrad.dtypes", "_of_name") + b"X\x03\0\0\0<f4\x85R",
    _global("builtins", "set") + b")R",
], ids=["dtype", "set"])
def test_build_only_of_pytorch_types(obj):
    state = b"N}X\x08\0\0\0itemsizeK\x01s\x86b."
    why = _why(lambda: tg.load(_file(P + obj + state)))
    torch, f = _torch_file(P + b"ctorch\nfloat32\n" + state)
    want = _why(lambda: torch.load(f))
    assert want.startswith("Can only build Tensor, Parameter, OrderedDict")
    assert why.split(" but got")[0] == want.split(" but got")[0]
    assert tg.float32.itemsize == 4


def test_build_of_allowed_types_still_loads():
    od = tg.load(_file(P + _global("collections", "OrderedDict") + b")R}X\x01\0\0\0aK\x01sb."))
    assert od.a == 1
    t = tg.ones(2)
    buf = io.BytesIO()
    tg.save({"t": t, "s": {1}}, buf)
    buf.seek(0)
    assert tg.load(buf)["t"].tolist() == [1.0, 1.0]


def test_unknown_opcode_is_pytorchs_error():
    why = _why(lambda: tg.load(_file(P + b"\xff.")))
    torch, f = _torch_file(P + b"\xff.")
    assert why == _why(lambda: torch.load(f)) == "Unsupported operand 255"


@pytest.mark.parametrize("pkl", [P + b"a.", P + b"e.", P + b"0.", P + b"t.", P + b"R."],
                         ids=["APPEND", "APPENDS", "POP", "TUPLE", "REDUCE"])
def test_stack_underflow_is_unpickling_error(pkl):
    with pytest.raises(pickle.UnpicklingError):
        tg.load(_file(pkl))


@pytest.mark.parametrize("state, error", [
    (b"N}X\x04\0\0\0typeX\x04\0\0\0cuda\x86", None),
    (b"N}X\x04\0\0\0typeX\x05\0\0\0cpu:x\x86", RuntimeError),
    (b"N}X\x05\0\0\0indexX\x01\0\0\0a\x86", TypeError),
    (b"N}X\x08\0\0\0itemsizeK\x01s\x86", pickle.UnpicklingError),
], ids=["cuda", "bad-name", "no-type", "other-slot"])
def test_device_state_is_checked_as_device_checks_it(state, error):
    # (a device pickles from its slots: NEWOBJ, then BUILD with (None, {type, index}))
    pkl = P + _global("tapegrad.device", "device") + b")\x81" + state.replace(
        b"\x86", b"s\x86" if b"itemsize" not in state else b"\x86") + b"b."
    if error is None:
        assert tg.load(_file(pkl)) == tg.device("cuda")
        buf = io.BytesIO()
        tg.save({"d": tg.device("cpu", 0), "s": {1}}, buf)
        buf.seek(0)
        assert tg.load(buf)["d"] == tg.device("cpu", 0)
    else:
        with pytest.raises(error):
            tg.load(_file(pkl))


def _built_on_one_array(n, count):
    """A file whose pickle builds ``count`` tensors (NEWOBJ Tensor, BUILD) on its one
    array of n float64s."""
    pid = pickle.dumps(("tapegrad.array", 0), 2)[2:-1]
    one = (_global("tapegrad.tensor", "Tensor") + b")\x81N}X\x05\0\0\0_data" + pid +
           b"QsX\x03\0\0\0_rg\x89s\x86b")
    buf, m = io.BytesIO(), io.BytesIO()
    np.lib.format.write_array(m, np.arange(n, dtype=np.float64))
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("tapegrad.json", json.dumps({
            "format": "tapegrad.save", "version": 1, "root": None, "pickle": "data.pkl",
            "tensors": [{"kind": "ndarray", "dtype": "float64", "shape": [n]}]}))
        z.writestr("tensors/0.npy", m.getvalue())
        z.writestr("data.pkl", P + b"(" + one * count + b"l.")
    buf.seek(0)
    return buf


def test_tensors_built_on_one_array_of_the_file_do_not_share_it():
    a, b = tg.load(_built_on_one_array(2, 2))
    with tg.no_grad():
        a.mul_(10)
    assert a.tolist() == [0.0, 10.0] and b.tolist() == [0.0, 1.0]


def test_their_copies_count_against_max_bytes():
    with pytest.raises(ValueError, match="max_bytes=1000000"):
        tg.load(_built_on_one_array(10**4, 20), max_bytes=10**6)  # (20 copies of 80 kB)


def test_a_missing_pickle_member_is_a_value_error():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("tapegrad.json", json.dumps({"format": "tapegrad.save", "version": 1,
                                                "root": None, "pickle": "data.pkl",
                                                "tensors": []}))
    buf.seek(0)
    with pytest.raises(ValueError, match="member data.pkl is missing"):
        tg.load(buf)
