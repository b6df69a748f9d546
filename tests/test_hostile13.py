"""Hostile inputs, round 13: the loaders' arguments and the save format's JSON.
``weights_only=None`` (torch.load's default, meaning True) unpickled; a JSON dtype that is a
list or dict raised TypeError (unhashable) instead of naming the entry; a deflated
``tapegrad.json`` of 15 kB expanding to millions of empty lists took 700 MB and 20 s, beyond
``max_bytes``; a pipe raised "Illegal seek" (and the trace loader "File is not a zip file");
a Fortran-order member was refused with a message naming the same dtype and shape twice;
``map_location`` as a dict (torch's ``{'cuda:0': 'cpu'}``) was refused.  Regressions that
held on main as well: non-native byte order, Fortran order, structured, datetime and object
dtypes, negative shapes, more or fewer bytes than the header says, in both loaders."""
import io
import json
import os
import zipfile

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.replay import validate


def _npy(descr, shape, data=b"", fortran=False):
    h = ("{'descr': %r, 'fortran_order': %r, 'shape': %r, }" % (descr, fortran, tuple(shape)))
    h = h.encode()
    h += b" " * (64 - (10 + len(h) + 1) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h + data


M0 = [{"kind": "tensor", "dtype": "float64", "shape": [1]}]
GOOD = [("tensors/0.npy", _npy("<f8", (1,), bytes(8)))]


def _save_file(meta=M0, root={"tensor": 0}, members=GOOD, method=zipfile.ZIP_STORED,
               body=None, **extra):
    buf = io.BytesIO()
    header = dict({"format": "tapegrad.save", "version": 1, "tensors": meta, "root": root},
                  **extra)
    with zipfile.ZipFile(buf, "w", method) as z:
        z.writestr("tapegrad.json", body if body is not None else json.dumps(header))
        for name, data in members:
            z.writestr(name, data)
    buf.seek(0)
    return buf


class _Payload:
    def __reduce__(self):
        return (os.getpid, ())  # (harmless: what it returns shows it ran)


def test_weights_only_none_is_torchs_default_true_and_never_unpickles():
    buf = io.BytesIO()
    tg.save(_Payload(), buf)
    buf.seek(0)
    with pytest.raises(tg.serialization.WeightsOnlyError, match="Weights only load failed"):
        tg.load(buf, weights_only=None)  # (ran os.getpid on main)
    buf.seek(0)
    assert tg.load(buf, weights_only=False) == os.getpid()


@pytest.mark.parametrize("meta, root, message", [
    (M0, {"dtype": ["float64"]}, "unknown node 'dtype'"),
    (M0, {"dtype": {"a": 1}}, "unknown node 'dtype'"),
    ([{"kind": "tensor", "dtype": ["float64"], "shape": [1]}], {"tensor": 0},
     "entry 0 of 'tensors' is malformed"),
    ([{"kind": "tensor", "dtype": {}, "shape": [1]}], {"tensor": 0},
     "entry 0 of 'tensors' is malformed"),
    ([{"kind": "tensor", "dtype": "float64", "shape": [1e400]}], {"tensor": 0},
     "entry 0 of 'tensors' is malformed"),
    ([{"kind": "tensor", "dtype": "float64", "shape": [True]}], {"tensor": 0},
     "entry 0 of 'tensors' is malformed"),
    ([{"kind": "tensor", "dtype": "float64", "shape": ["1"]}], {"tensor": 0},
     "entry 0 of 'tensors' is malformed"),
    (M0, {"tensor": True}, "tensor index True is out of range"),
    (M0, {"tensor": 1.0}, "tensor index 1.0 is out of range"),
    (M0, {"size": [1.5]}, "a Size holds non-integers")])
def test_json_of_the_wrong_types_names_the_entry(meta, root, message):
    """A list or dict where a dtype name belongs raised TypeError: unhashable type."""
    with pytest.raises(ValueError, match=f"not a valid tapegrad.save file: {message}"):
        tg.load(_save_file(meta, root))


def test_a_json_of_millions_of_containers_is_bounded_by_max_bytes():
    """15 kB deflated, 15 MB of "[]," expanded: 5 million lists parsed, then copied as the
    loaded structure (700 MB, 20 s on main, though max_bytes is 1 GiB)."""
    body = b'{"format": "tapegrad.save", "version": 1, "tensors": [], "root": [' + \
        b"[]," * 5_000_000 + b"[]]}"
    f = _save_file(body=body, members=[], method=zipfile.ZIP_DEFLATED)
    assert len(f.getvalue()) < 100_000
    with pytest.raises(ValueError, match=r"tapegrad.json \(15000070 bytes\) would take about "
                                         r"\d+ bytes to parse, more than max_bytes"):
        tg.load(f)
    small = b'{"format": "tapegrad.save", "version": 1, "tensors": [], "root": [' + \
        b"[]," * 1000 + b"[]]}"
    assert len(tg.load(_save_file(body=small, members=[]))) == 1001
    with pytest.raises(ValueError, match="max_bytes=100000"):
        tg.load(_save_file(body=small, members=[]), max_bytes=100_000)


def test_the_json_budget_and_the_members_share_max_bytes():
    a = tg.arange(1000.0)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:  # (deflated: counted)
        z.writestr("tapegrad.json", json.dumps({
            "format": "tapegrad.save", "version": 1, "root": {"tensor": 0},
            "tensors": [{"kind": "tensor", "dtype": "float64", "shape": [1000]}]}))
        b = io.BytesIO()
        np.save(b, a.numpy())
        z.writestr("tensors/0.npy", b.getvalue())
    buf.seek(0)
    assert tg.equal(tg.load(buf, max_bytes=10_000), a)
    buf.seek(0)
    with pytest.raises(ValueError, match="compressed members expand to more than max_bytes"):
        tg.load(buf, max_bytes=8200)  # (the json's cost leaves less than the member's)


def _pipe(data):
    r, w = os.pipe()
    os.write(w, data)
    os.close(w)
    return os.fdopen(r, "rb")


def test_a_pipe_is_refused_as_torch_refuses_it(tmp_path):
    """zipfile reads an archive from its end: "Illegal seek" (OSError) from tapegrad.load,
    "File is not a zip file" from the trace loader, on main."""
    with _pipe(_save_file().getvalue()) as f, \
            pytest.raises(io.UnsupportedOperation, match="is not seekable.*io.BytesIO"):
        tg.load(f)
    path = tmp_path / "t.npz"
    tg.jit.save(tg.jit.trace(lambda x: (x * x).sum(), np.ones(2)), path)
    with _pipe(path.read_bytes()) as f, \
            pytest.raises(ValueError, match="^load: .* is not seekable"):
        tg.jit.load(f)
    with open(path, "rb") as f:  # (a seekable file object loads)
        assert isinstance(tg.jit.load(f), tg.replay.Traced)


@pytest.mark.parametrize("where", [{"cuda:0": "cpu"}, {"cpu": "cpu"}, {"cpu": tg.device("cpu")},
                                   tg.device("cpu"), "cpu"])
def test_map_location_forms_torch_accepts_that_keep_tensors_on_the_cpu(where):
    assert tg.equal(tg.load(_save_file(), map_location=where), tg.zeros(1, dtype=tg.float64))


@pytest.mark.parametrize("where", ["cuda", {"cpu": "cuda:0"}, "meta"])
def test_map_location_naming_another_device_is_refused(where):
    with pytest.raises(RuntimeError, match="tapegrad runs on the CPU only"):
        tg.load(_save_file(), map_location=where)


@pytest.mark.parametrize("member, message", [
    (_npy("<f8", (1,), bytes(8), fortran=True), r"holds float64 \(1,\) in Fortran order, the "
                                                 r"structure says float64 \(1,\) \(C order\)"),
    (_npy(">f8", (1,), bytes(8)), r"holds >f8 \(1,\)"),
    (_npy("<M8[s]", (1,), bytes(8)), r"holds datetime64\[s\]"),
    (_npy([("a", "<f8")], (1,), bytes(8)), r"holds \[\('a', '<f8'\)\]"),
    (_npy("|O", (1,), bytes(8)), r"holds object"),
    (_npy("<f8", (0, -1)), r"holds float64 \(0, -1\)"),
    (_npy("<f8", (1,), bytes(16)), "holds more bytes of values"),
    (_npy("<f8", (1,), bytes(4)), "holds fewer bytes of values"),
    (_npy("[" * 3000 + "]" * 3000, (1,), bytes(8)), "is not a .npy array")])
def test_save_members_of_other_layouts_are_refused(member, message):
    with pytest.raises(ValueError, match=f"tensors/0.npy {message}"):
        tg.load(_save_file(members=[("tensors/0.npy", member)]))


@pytest.fixture(scope="module")
def trace_arrays(tmp_path_factory):
    path = tmp_path_factory.mktemp("t") / "t.npz"
    tg.jit.save(tg.jit.trace(lambda x: (x.sin() * x).sum(), np.array([0.3, 1.2, -0.4])), path)
    with np.load(path) as z:
        return {k: z[k].copy() for k in z.files}


# (a one-byte field has no byte order to swap; the empty ones, consts and meta here, no
# bytes to hold fewer of)
@pytest.mark.parametrize("name, how", [
    (name, how)
    for name in ["rows", "offs", "vals0", "consts", "meta", "in_slots", "in_shapes",
                 "argnums", "grad0", "digest"]
    for how in ["byteswap", "fortran", "object", "header_more", "header_less"]
    if (name, how) not in {("digest", "byteswap"), ("consts", "header_less"),
                           ("meta", "header_less")}])
def test_trace_fields_in_another_layout_are_refused(trace_arrays, tmp_path, name, how):
    """Kernels read the fields' bytes as native C-order int64 / float64: a field in another
    byte order or order, or of another size than its header, must not reach them."""
    a = trace_arrays[name]
    assert not (how == "byteswap" and a.dtype.itemsize == 1) and \
        not (how == "header_less" and not a.size)  # (the cases left out above)
    if how == "byteswap":
        member = _npy(a.dtype.newbyteorder(">").str, a.shape, a.byteswap().tobytes())
    elif how == "fortran":
        member = _npy(a.dtype.str, a.shape, np.asfortranarray(a).tobytes("F"), fortran=True)
    elif how == "object":
        member = _npy("|O", a.shape, bytes(8 * a.size))
    else:
        extra = a.dtype.itemsize
        member = _npy(a.dtype.str, a.shape, a.tobytes() + bytes(extra) if how == "header_more"
                      else a.tobytes()[:-extra])
    path = tmp_path / "t.npz"
    with zipfile.ZipFile(path, "w") as z:
        for k, v in trace_arrays.items():
            if k != name:
                b = io.BytesIO()
                np.save(b, v)
                z.writestr(k + ".npy", b.getvalue())
        z.writestr(name + ".npy", member)
    if a.ndim == 0 and how == "fortran":
        with pytest.raises(ValueError, match=f"trace field '{name}'"):
            tg.jit.load(path)
        return
    with pytest.raises(ValueError, match=f"load: {path} is not a trace file: trace field "
                                         f"'{name}'"):
        tg.jit.load(path)


def test_a_callable_map_location_is_called_with_each_tensor_and_cpu():
    """torch's map_location(storage, location): refused on main."""
    seen = []
    got = tg.load(_save_file(), map_location=lambda t, loc: seen.append(loc))
    assert seen == ["cpu"] and tg.equal(got, tg.zeros(1, dtype=tg.float64))
    assert tg.equal(tg.load(_save_file(), map_location=lambda t, loc: t * 2 + 1),
                    tg.ones(1, dtype=tg.float64))
    with pytest.raises(TypeError, match="map_location returned a str"):
        tg.load(_save_file(), map_location=lambda t, loc: "cuda")


def test_pickle_load_args_reach_the_unpickler_with_weights_only_false():
    buf = io.BytesIO()
    tg.save(_Payload, buf)  # (a class: pickled)
    buf.seek(0)
    assert tg.load(buf, weights_only=False, encoding="latin1") is _Payload
    buf.seek(0)
    with pytest.raises(TypeError, match="bogus"):
        tg.load(buf, weights_only=False, bogus=1)  # (ignored on main; torch: TypeError)


@pytest.mark.parametrize("body, message", [
    ('{"format": "tapegrad.save", "format": "x", "version": 1, "tensors": [], "root": 1}',
     "the key 'format' appears twice"),
    ('{"format": "tapegrad.save", "version": 1, "tensors": [], "root": {"tensor": 0, '
     '"tensor": 1}}', "the key 'tensor' appears twice"),
    ('{"format": "tapegrad.save", "version": 1, "tensors": [], "root": ' + "9" * 5000 + "}",
     "not readable JSON"),
    ('{"format": "tapegrad.save", "version": 1, "tensors": [], "root": 1', "not readable JSON"),
    (b'\xff\xfe{}', "not readable JSON")])
def test_json_that_two_readers_would_read_differently_or_none_can_read(body, message):
    """Duplicate keys: json kept the last silently on main."""
    with pytest.raises(ValueError, match=f"not a valid tapegrad.save file: .*{message}"):
        tg.load(_save_file(body=body, members=[]))


def test_a_trace_declaring_format_1_says_format_1_files_have_no_format_field(trace_arrays,
                                                                            tmp_path):
    a = dict(trace_arrays, format=np.int64(1))
    a.pop("digest")
    np.savez(tmp_path / "t.npz", digest=validate.digest(a), **a)
    with pytest.raises(ValueError, match="whose files have no 'format' field"):
        tg.jit.load(tmp_path / "t.npz")


def test_a_named_pipe_is_refused_by_both_loaders(tmp_path):
    """A path to a FIFO: OSError "Illegal seek" from both loaders on main."""
    import threading
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    data = _save_file().getvalue()
    for load in (tg.load, tg.jit.load):
        def feed():
            try:
                with open(fifo, "wb") as w:
                    w.write(data)
            except BrokenPipeError:
                pass
        t = threading.Thread(target=feed)
        t.start()
        with pytest.raises(io.UnsupportedOperation, match="is not seekable"):
            load(fifo)
        t.join(10)
