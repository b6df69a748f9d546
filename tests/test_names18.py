"""Names a PyTorch program may touch that tapegrad lacked, each against PyTorch: removed
functions' errors, torch.lu, sym_*, unsigned dtypes, dtypes and layouts refused on use,
DLPack, storages and data_ptr of views, as_subclass, functionalize, augmented assignment in
place; and three graph corners: a grad_fn hook on x * x, inference tensors refused before
any change, and the nodes after an in-place op on a view."""
import io
import warnings

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _error(call, lib):
    with pytest.raises(Exception) as info:
        call(lib)
    return info.type, str(info.value)


# ---- removed and deprecated functions ----------------------------------------------------
REMOVED = {
    "lstsq": lambda L, a: L.lstsq(a, a), "solve": lambda L, a: L.solve(a, a),
    "eig": lambda L, a: L.eig(a), "symeig": lambda L, a: L.symeig(a, eigenvectors=True),
    "matrix_rank": lambda L, a: L.matrix_rank(a),
    "Tensor.lstsq": lambda L, a: a.lstsq(a), "Tensor.solve": lambda L, a: a.solve(a),
    "Tensor.eig": lambda L, a: a.eig(), "Tensor.symeig": lambda L, a: a.symeig(),
}


@pytest.mark.parametrize("name", sorted(REMOVED))
def test_removed_functions_raise_pytorchs_words(name, torch):
    call = REMOVED[name]
    ours = _error(lambda L: call(L, L.eye(3)), tg)
    theirs = _error(lambda L: call(L, L.eye(3)), torch)
    assert ours == theirs
    assert ours[0] is RuntimeError and "replaced with" in ours[1] or "instead" in ours[1]


def test_tensor_matrix_rank_is_gone_in_both(torch):
    assert not hasattr(torch.Tensor, "matrix_rank") and not hasattr(tg.Tensor, "matrix_rank")


@pytest.mark.parametrize("get_infos", [False, True])
def test_lu_is_pytorchs_with_its_warning(get_infos, torch_float64, rng):
    a = rng.standard_normal((2, 4, 4))
    got, want = [], []
    for L, out in ((tg, got), (torch_float64, want)):
        x = L.tensor(a, requires_grad=True)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            res = L.lu(x, get_infos=get_infos)
            res2 = x.lu()
        assert type(res).__name__ == ("_lu_with_info" if get_infos else "tuple")
        assert len(res2) == 2
        (res[0] * L.arange(16.0).reshape(4, 4)).sum().backward()
        out.append([np.asarray(r.detach()) for r in res] + [np.asarray(x.grad)])
        out.append([str(m.message).split(" (Triggered")[0] for m in w])  # (PyTorch: once)
        out.append(res[1].dtype == L.int32)
    for o, t in zip(got[0], want[0], strict=True):
        np.testing.assert_allclose(o, t, rtol=1e-10, atol=1e-12)
    assert got[2] == want[2] and len(got[1]) == 2
    assert all(m == got[1][0] and m.startswith("torch.lu is deprecated") for m in got[1])
    assert all(m == got[1][0] for m in want[1])


# ---- torch.sym_* ---------------------------------------------------------------------------
SYM = ["sym_int(3.7)", "sym_int(-3.7)", "sym_int(True)", "sym_float(2)", "sym_max(2, 3.0)",
       "sym_max(3, 2.0)", "sym_min(2, 3)", "sym_not(True)", "sym_not(0)", "sym_sqrt(4)",
       "sym_ite(True, 1, 2)", "sym_sum([1, 2, 3])", "sym_sum([1.0, 2])", "sym_sum([])",
       "sym_int(L.tensor(3.7))", "sym_float(L.tensor(3))", "sym_fresh_size(3)",
       "sym_constrain_range(3, min=0, max=5)", "sym_constrain_range_for_size(3)",
       "isinstance(3, (L.SymInt, L.SymFloat, L.SymBool))", "sym_min(2, float('nan'))"]


@pytest.mark.parametrize("expr", SYM)
def test_sym_functions_on_numbers_as_pytorch(expr, torch):
    vals = []
    for L in (tg, torch):
        v = eval(expr if expr.startswith("isinstance") else "L." + expr, {"L": L})  # noqa: S307
        vals.append((repr(v), type(v).__name__))
    assert vals[0] == vals[1]


# ---- dtypes ----------------------------------------------------------------------------------
UINT = ["L.tensor([1, 2, 3], dtype=L.uint16)", "L.tensor([1, 2, 3], dtype=L.uint16) * 2",
        "L.tensor([1, 2, 3], dtype=L.uint32).sum()", "L.tensor([5, 1], dtype=L.uint64).sort()",
        "L.zeros(2, dtype=L.uint32)", "L.tensor([2 ** 40], dtype=L.uint64)",
        "L.tensor([1, 2], dtype=L.uint16).to(L.int32)", "L.tensor([3], dtype=L.uint16).float()",
        "L.cat([L.tensor([1], dtype=L.uint16)] * 2)", "L.iinfo(L.uint32)",
        "L.tensor([7, 8], dtype=L.uint16)[1]", "L.tensor([1, 2], dtype=L.uint16).tolist()",
        "L.tensor([1, 2], dtype=L.uint16) == 2", "L.tensor([6, 3], dtype=L.uint32) / 2",
        "(L.uint16.is_signed, L.uint16.itemsize, L.uint64.is_floating_point)",
        "L.tensor([1, 2], dtype=L.uint16).cumsum(0)", "L.tensor([5], dtype=L.uint16).numpy().dtype"]


@pytest.mark.parametrize("expr", UINT)
def test_unsigned_dtypes_as_pytorch(expr, torch_float64):
    assert repr(eval(expr, {"L": tg})) == repr(eval(expr, {"L": torch_float64}))  # noqa: S307


def test_unsigned_tensors_save_and_load():
    buf = io.BytesIO()
    tg.save({"a": tg.tensor([1, 65535], dtype=tg.uint16), "b": tg.tensor([2 ** 63],
                                                                            dtype=tg.uint64)}, buf)
    buf.seek(0)
    got = tg.load(buf)
    assert got["a"].dtype == tg.uint16 and got["a"].tolist() == [1, 65535]
    assert got["b"].dtype == tg.uint64 and got["b"].tolist() == [2 ** 63]


REFUSED = ["bfloat16", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
           "float8_e8m0fnu", "complex32", "chalf"]


@pytest.mark.parametrize("name", REFUSED)
def test_dtypes_numpy_lacks_can_be_named_but_not_made(name, torch):
    ours, theirs = getattr(tg, name), getattr(torch, name)
    assert repr(ours) == repr(theirs) and str(ours) == str(theirs)
    for attr in ("is_floating_point", "is_complex", "itemsize"):
        assert getattr(ours, attr) == getattr(theirs, attr), attr
    assert isinstance(ours, tg.dtype) and ours == getattr(tg, name) and ours != tg.float16
    assert {ours: 1}[getattr(tg, name)] == 1
    word = repr(ours).split(".")[1]
    for make in (lambda: tg.zeros(2, dtype=ours), lambda: tg.ones(2).to(ours),
                 lambda: tg.tensor([1.0], dtype=ours), lambda: tg.ones(2).type(ours)):
        with pytest.raises(NotImplementedError, match=rf"^torch\.{word}: tapegrad does not "
                                                      rf"support {word} \(NumPy"):
            make()


def test_tensor_bfloat16_and_chalf_methods_refuse_on_call():
    for method, word in (("bfloat16", "bfloat16"), ("chalf", "complex32")):
        with pytest.raises(NotImplementedError, match=rf"torch\.{word}: tapegrad does not"):
            getattr(tg.ones(2), method)()


@pytest.mark.parametrize("call", [
    lambda L: L.sparse_coo_tensor(L.tensor([[0]]), L.tensor([1.0]), (2,)),
    lambda L: L.sparse_csr_tensor(L.tensor([0, 1]), L.tensor([0]), L.tensor([1.0])),
    lambda L: L.ones(2).to_sparse(), lambda L: L.ones(2, 2).to_sparse_csr()])
def test_sparse_tensors_refused_on_call_naming_the_feature(call, torch):
    call(torch)  # (PyTorch makes them)
    with pytest.raises(NotImplementedError, match=r"tapegrad does not support sparse layouts"):
        call(tg)


def test_layouts_compare_as_pytorch(torch):
    for name in ("strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr",
                 "sparse_bsc", "jagged"):
        assert repr(getattr(tg, name)) == repr(getattr(torch, name))
        assert (tg.ones(2).layout == getattr(tg, name)) == \
            (torch.ones(2).layout == getattr(torch, name))


# ---- DLPack -------------------------------------------------------------------------------
def test_from_dlpack_shares_numpy_and_torch_memory(torch):
    a = np.arange(3.0)
    t = tg.from_dlpack(a)
    t[0] = 9.0
    assert a.tolist() == [9.0, 1.0, 2.0]
    x = tg.arange(4.0)
    np.from_dlpack(x)[1] = 7.0
    torch.from_dlpack(x)[2] = 5.0
    assert x.tolist() == [0.0, 7.0, 5.0, 3.0]
    y = torch.arange(3, dtype=torch.int32)
    z = tg.from_dlpack(y)
    z.add_(1)
    assert y.tolist() == [1, 2, 3] and z.dtype == tg.int32
    assert repr(tg.ones(1).__dlpack_device__()) == repr(torch.ones(1).__dlpack_device__())
    assert tg.utils.dlpack.from_dlpack is tg.from_dlpack
    assert tg.to_dlpack is tg.utils.dlpack.to_dlpack


def test_dlpack_capsules_are_consumed_once_as_pytorchs(torch):
    for make, take in ((tg.to_dlpack, tg.from_dlpack), (torch.utils.dlpack.to_dlpack,
                                                         tg.from_dlpack),
                       (tg.to_dlpack, torch.from_dlpack)):
        src = make(tg.arange(3.0) if make is tg.to_dlpack else torch.arange(3.0))
        assert take(src).tolist() == [0.0, 1.0, 2.0]
        with pytest.raises(RuntimeError) as info:
            take(src)
        assert str(info.value) == _error(lambda L: L.from_dlpack(src), torch)[1]
    assert _error(lambda L: L.from_dlpack([1, 2]), tg) == \
        _error(lambda L: L.from_dlpack([1, 2]), torch)


def test_dlpack_refuses_a_tensor_that_requires_grad_as_pytorch(torch):
    call = lambda L: np.from_dlpack(L.ones(2, requires_grad=True))  # noqa: E731
    assert _error(call, tg) == _error(call, torch)


# ---- storages and data_ptr ----------------------------------------------------------------
STORAGE_SCRIPT = """
x = L.tensor([0.1, 2.0], dtype=L.float32)
print(x.storage())
s = x.storage()
print(s[1], type(s[1]).__name__, s[-1], s.type(), s.is_shared(), type(s.untyped()).__name__)
print(repr(L.tensor([], dtype=L.int64).storage()))
print(L.tensor([True, False]).storage(), L.tensor([1, 2]).storage())
print(L.TypedStorage([1, 2, 3], dtype=L.float64), len(L.UntypedStorage(3)))
print(L.FloatStorage, L.tensor(1.0).storage_type(), L.tensor([1]).storage_type())
print(list(L.tensor([1, 2]).storage()), len(x.untyped_storage()), x.untyped_storage().tolist())
u = x.untyped_storage()
print(u.size(), u.nbytes(), u[0], type(u[0]).__name__, u.element_size())
print(s.dtype, s.device, s.element_size(), s.nbytes(), s.size())
print(L.typename(s), L.is_storage(s), L.is_storage(x), isinstance(u, L.UntypedStorage))
b = L.arange(10.0)[2:5]
print(b.storage().size(), b.storage_offset(), b.untyped_storage().nbytes())
c = L.tensor(3.0)
print(c.storage(), c.storage().data_ptr() == c.data_ptr())
a = L.arange(6.0).reshape(2, 3)
print(a.detach().untyped_storage().data_ptr() == a.untyped_storage().data_ptr(),
      a.clone().storage().data_ptr() == a.storage().data_ptr())
"""


def _printed(script, L):
    out = io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(script, {"L": L, "print": lambda *a: print(*a, file=out)})  # noqa: S102
    return out.getvalue()


def test_storages_print_and_answer_as_pytorchs(torch_float64):
    assert _printed(STORAGE_SCRIPT, tg) == _printed(STORAGE_SCRIPT, torch_float64)


def test_typed_storage_warns_as_pytorch():
    with pytest.warns(UserWarning, match="TypedStorage is deprecated"):
        tg.ones(2).storage()


VIEWS = [lambda a: a.t(), lambda a: a[1], lambda a: a[:, 1], lambda a: a.diagonal(),
         lambda a: a.view(-1)[3:], lambda a: a[1:].t()[2], lambda a: a.unsqueeze(0),
         lambda a: a.detach(), lambda a: a[1][2:]]


@pytest.mark.parametrize("view", VIEWS)
def test_a_views_data_ptr_and_storage_are_its_bases(view, torch_float64):
    seen = []
    for L in (tg, torch_float64):
        a = L.arange(12.0).reshape(3, 4)
        v = view(a)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            seen.append((v.data_ptr() - a.data_ptr(), v.storage_offset(),
                         v.storage().data_ptr() == a.data_ptr(), v.storage().size(),
                         v.untyped_storage().nbytes()))
    assert seen[0] == seen[1]


# ---- as_subclass ----------------------------------------------------------------------------
def test_as_subclass_aliases_and_keeps_the_graph(torch_float64):
    seen = []
    for L in (tg, torch_float64):
        class Tagged(L.Tensor):
            def hello(self):
                return "hi"
        x = L.ones(2, requires_grad=True)
        y = x.as_subclass(Tagged)
        (y * 3).sum().backward()
        z = (x * 2).as_subclass(Tagged)
        w = L.zeros(3)
        v = w.as_subclass(Tagged)
        v[1] = 4.0
        seen.append((type(y).__name__, y.is_leaf, y.grad_fn.name(), y.hello(), x.grad.tolist(),
                     z.grad_fn.next_functions[0][0].name(), repr(z), w.tolist(), v.grad_fn,
                     v.data_ptr() == w.data_ptr(), repr(v)))
    assert seen[0] == seen[1]
    assert _error(lambda L: L.ones(1).as_subclass(int), tg) == \
        _error(lambda L: L.ones(1).as_subclass(int), torch_float64)


# ---- functionalize, exceptions, dunders ---------------------------------------------------
def test_functionalize_runs_the_function_and_checks_remove(torch_float64):
    def f(t):
        t.add_(1)
        return (t * 2).sum()
    seen = []
    for L in (tg, torch_float64):
        x = L.zeros(2)
        out = L.func.functionalize(f)(x)
        y = L.ones(2, requires_grad=True)
        g = L.func.grad(L.func.functionalize(lambda t: (t ** 3).sum()))(y)
        seen.append((out.item(), x.tolist(), g.tolist(),
                     L.func.functionalize(f, remove="mutations_and_views")(L.ones(1)).item()))
    assert seen[0] == seen[1]
    call = lambda L: L.func.functionalize(f, remove="views")  # noqa: E731
    assert _error(call, tg) == _error(call, torch_float64)


def test_pytorchs_error_classes_can_be_caught(torch):
    for name in ("OutOfMemoryError", "AcceleratorError"):
        ours, theirs = getattr(tg, name), getattr(torch, name)
        assert repr(ours) == repr(theirs) and issubclass(ours, RuntimeError)
    assert tg.cuda.OutOfMemoryError is tg.OutOfMemoryError
    assert (tg.has_lapack, tg.has_spectral) == (True, True)


AUGMENTED = ["x **= 2", "x %= 3", "x //= 2", "x.__idiv__(2)", "x.__imod__(L.tensor(2.0))"]


@pytest.mark.parametrize("stmt", AUGMENTED)
def test_augmented_assignment_writes_in_place_as_pytorch(stmt, torch_float64):
    seen = []
    for L in (tg, torch_float64):
        base = L.tensor([[5.0, 7.0], [2.0, 9.0]])
        x = base[0]
        exec(stmt, {"L": L, "x": x})  # noqa: S102 (x is the view: base changes with it)
        seen.append((base.tolist(), x._version if L is torch_float64 else x._version))
    assert seen[0] == seen[1]


def test_python2_dunders_reversed_and_del_as_pytorch(torch_float64):
    for L in (tg, torch_float64):
        x = L.tensor([1.0, 4.0])
        assert L.Tensor.__div__(x, 2).tolist() == [0.5, 2.0]
        assert L.Tensor.__rdiv__(x, 2).tolist() == [2.0, 0.5]
        assert L.Tensor.__nonzero__(L.tensor(1.0)) is True
        assert L.Tensor.__long__(L.tensor(2.5)) == 2
    assert repr(reversed(tg.arange(3))) == repr(reversed(torch_float64.arange(3)))
    assert repr(reversed(tg.tensor(3))) == repr(reversed(torch_float64.tensor(3)))

    def delete(L):
        x = L.arange(3)
        del x[0]
    assert _error(delete, tg) == _error(delete, torch_float64)


def test_typename_as_pytorch(torch_float64):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for make in (lambda L: 3, lambda L: L.ones(1), lambda L: L.ones(1).storage(),
                     lambda L: L.nn.Parameter, lambda L: "s"):
            assert tg.typename(make(tg)) == torch_float64.typename(make(torch_float64))


# ---- (c) a grad_fn hook on a node whose two operands are one tensor ------------------------
TWINS = {"mul": lambda L, q: q * q, "add": lambda L, q: L.add(q, q), "sub": lambda L, q: q - q,
         "div": lambda L, q: q / q, "pow": lambda L, q: q ** q, "atan2": lambda L, q: L.atan2(q, q),
         "matmul": lambda L, q: q.reshape(2, 2) @ q.reshape(2, 2),
         "maximum": lambda L, q: L.maximum(q, q), "fmod": lambda L, q: L.fmod(q, q)}


@pytest.mark.parametrize("op", sorted(TWINS))
def test_node_hook_sees_each_operands_gradient_apart(op, torch_float64):
    seen = []
    for L in (tg, torch_float64):
        p = L.tensor([1.0, 2.0, 3.0, 0.5], requires_grad=True)
        q = p * 1
        r = TWINS[op](L, q)
        got = []
        r.grad_fn.register_hook(lambda gi, go, got=got: got.append(
            [None if g is None else g.tolist() for g in gi]))
        r.backward(L.arange(1.0, r.numel() + 1).reshape(r.shape))
        seen.append((got, p.grad.tolist()))
    np.testing.assert_allclose(np.array(seen[0][0], float), np.array(seen[1][0], float),
                               rtol=1e-12)
    np.testing.assert_allclose(seen[0][1], seen[1][1], rtol=1e-12)


def test_node_hook_replacing_twin_gradients_sums_them_as_pytorch(torch_float64):
    seen = []
    for L in (tg, torch_float64):
        p = L.tensor([1.0, 2.0], requires_grad=True)
        q = p * 1
        r = q * q
        r.grad_fn.register_hook(lambda gi, go: (gi[0] * 10, gi[1]))
        r.sum().backward()
        q2 = p * 1
        r2 = q2 * q2
        r2.grad_fn.register_hook(lambda gi, go: (None, gi[1]))
        r2.sum().backward()
        seen.append(p.grad.tolist())
    assert seen[0] == seen[1]


# ---- (b) inference tensors: refused in-place ops change nothing ---------------------------
def _candidates(L):
    t = L.tensor([0.5, 0.25, 0.75])
    return [(), (t,), (0.5,), (t, t), (0.5, 0.5), (0,), (0, L.tensor([0]), t[:1]),
            (0, L.tensor([0]), 1.0), ((L.tensor([0]),), t[:1]),
            (L.tensor([True, False, True]), 0.5), (3,), (1, 2), (0, 1)]


def test_inplace_ops_refused_on_inference_tensors_change_nothing(torch):
    names = [n for n in dir(torch.Tensor) if n.endswith("_") and not n.startswith("_") and
             hasattr(tg.Tensor, n)]
    checked = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:
            for k in range(len(_candidates(torch))):
                with torch.inference_mode():
                    a = torch.tensor([1.0, 2.0, 3.0])
                try:
                    getattr(a, name)(*_candidates(torch)[k])
                    continue
                except Exception as e:  # noqa: BLE001 (PyTorch's refusal, or a bad guess)
                    if "inference tensor" not in str(e):
                        continue
                    want = str(e)
                with tg.inference_mode():
                    b = tg.tensor([1.0, 2.0, 3.0])
                with pytest.raises(RuntimeError) as info:
                    getattr(b, name)(*_candidates(tg)[k])
                assert str(info.value) == want, name
                assert b.tolist() == [1.0, 2.0, 3.0] and b._version == 0, name
                checked += 1
                break
    assert checked > 100


# ---- (a) nodes after an in-place op on a view ----------------------------------------------
def _walk(n, depth=0):
    if n is None or depth > 6:
        return "None"
    return n.name() + "(" + ",".join(_walk(f, depth + 1) for f, _ in n.next_functions) + ")"


def _w1(L, x, t):
    y = x * 1
    v = y[0]
    v.mul_(2)
    return y, v


def _w2(L, x, t):
    y = x * 1
    v = y[1]
    v.add_(t)
    return y, v


def _w3(L, x, t):
    y = x * 1
    v = y[:, 1]
    v.copy_(t[:2])
    return y, v


def _w4(L, x, t):
    y = x.clone()
    z = y.t()
    z[0].mul_(t[0])
    return y, z, z[1]


def _w5(L, x, t):
    y = x * 1
    v = y.view(-1)
    v[2:4].sub_(1)
    return y, v


def _w6(L, x, t):
    y = x * 2
    v = y[0]
    v.mul_(2)
    v.add_(1)
    return y, v


def _w7(L, x, t):
    y = x * 1
    y[0] = t
    return (y,)


def _w8(L, x, t):
    y = x * 1
    v = y[0]
    v *= t
    return y, v, y[1]


def _w9(L, x, t):
    y = x * 1
    v = y.diagonal()
    v.clamp_(max=1.5)
    return y, v


WRITES = [_w1, _w2, _w3, _w4, _w5, _w6, _w7, _w8, _w9]


@pytest.mark.parametrize("write", WRITES, ids=lambda f: f.__name__)
def test_nodes_after_a_write_through_a_view_as_pytorchs(write, torch_float64):
    seen = []
    for L in (tg, torch_float64):
        x = L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        t = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
        outs = write(L, x, t)
        walks = [_walk(o.grad_fn) for o in outs]
        reprs = [repr(o).split("grad_fn=")[1] for o in outs]
        sum((o * (i + 1)).sum() for i, o in enumerate(outs)).backward()
        seen.append((walks, reprs, x.grad.tolist(), None if t.grad is None else t.grad.tolist()))
    assert seen[0] == seen[1]


def test_a_view_written_without_grad_mode_keeps_its_nodes():
    x = tg.ones(2, 3, requires_grad=True)
    y = x * 1
    v = y[0]
    with tg.no_grad():
        v.mul_(2)
    assert "CopySlices" not in y.grad_fn.name()  # (no PUT row: no CopySlices note)


def test_finfo_of_bfloat16_as_pytorch(torch):
    ours, theirs = tg.finfo(tg.bfloat16), torch.finfo(torch.bfloat16)
    assert repr(ours) == repr(theirs)
    for attr in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"):
        assert getattr(ours, attr) == getattr(theirs, attr), attr


def test_autocast_to_bfloat16_runs_disabled(torch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tg.autocast("cpu", dtype=tg.bfloat16) as ctx:
            y = tg.ones(2) * 2
        with tg.cpu.amp.autocast(dtype=tg.bfloat16):
            pass
    assert ctx.fast_dtype is tg.bfloat16 and y.dtype == tg.float64
    assert not tg.is_autocast_enabled()


# ---- torch.lstm & co.: the whole-sequence functional RNNs ----------------------------------
def _rnn_case(L, case, rng):
    def P(*s):
        return L.tensor(rng.standard_normal(s) * 0.3, requires_grad=True)
    H, I = 4, 3
    if case == "lstm_bidir_2layers":
        params = [P(4 * H, I if layer == 0 else 2 * H) if k == 0 else P(4 * H, H) if k == 1
                  else P(4 * H) for layer in range(2) for d in range(2) for k in range(4)]
        hx = [L.tensor(rng.standard_normal((4, 2, H))), L.tensor(rng.standard_normal((4, 2, H)))]
        out = L.lstm(L.tensor(rng.standard_normal((5, 2, I))), hx, params, True, 2, 0.0, False,
                     True, False)
    elif case == "lstm_proj":
        params = [P(4 * H, I), P(4 * H, 2), P(4 * H), P(4 * H), P(2, H)]
        hx = [L.zeros(1, 3, 2), L.zeros(1, 3, H)]
        out = L.lstm(L.tensor(rng.standard_normal((3, 4, I))), hx, params, True, 1, 0.0, False,
                     False, True)
    elif case == "gru_nobias_batch_first":
        params = [P(3 * H, I), P(3 * H, H)]
        out = L.gru(L.tensor(rng.standard_normal((2, 5, I))), L.zeros(1, 2, H), params, False,
                    1, 0.0, False, False, True)
    elif case == "lstm_packed":
        params = [P(4 * H, I), P(4 * H, H), P(4 * H), P(4 * H)]
        out = L.lstm(L.tensor(rng.standard_normal((5, I))), L.tensor([2, 2, 1]),
                     [L.zeros(1, 2, H), L.zeros(1, 2, H)], params, True, 1, 0.0, False, False)
    else:
        params = [P(H, I), P(H, H), P(H), P(H)]
        f = L.rnn_tanh if case == "rnn_tanh" else L.rnn_relu
        out = f(L.tensor(rng.standard_normal((5, 2, I))), L.zeros(1, 2, H), params, True, 1,
                0.0, True, False, False)
    return out, params


@pytest.mark.parametrize("case", ["lstm_bidir_2layers", "lstm_proj", "gru_nobias_batch_first",
                                  "lstm_packed", "rnn_tanh", "rnn_relu"])
def test_functional_rnns_as_pytorchs(case, torch_float64):
    seen = []
    for L in (tg, torch_float64):
        out, params = _rnn_case(L, case, np.random.default_rng(3))
        sum((o * (i + 1)).sum() for i, o in enumerate(out)).backward()
        seen.append(([np.asarray(o.detach()) for o in out], [np.asarray(p.grad) for p in params]))
    for ours, theirs in zip(seen[0][0] + seen[0][1], seen[1][0] + seen[1][1], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def test_functional_rnn_with_the_wrong_number_of_weights_says_so():
    with pytest.raises(RuntimeError, match=r"lstm: expected 4 weights per layer"):
        tg.lstm(tg.zeros(2, 1, 3), [tg.zeros(1, 1, 4)] * 2, [tg.zeros(16, 3)] * 3, True, 1, 0.0,
                False, False, False)


def test_default_torch_function_as_pytorchs(torch_float64):
    seen = []
    for L in (tg, torch_float64):
        class Sub(L.Tensor):
            pass
        a = L.Tensor.__torch_function__(L.add, (Sub,), (L.ones(2), 1), {})
        b = Sub.__torch_function__(L.add, (Sub,), (L.ones(2), 1))
        c = Sub.__torch_function__(L.max, (Sub,), (L.ones(2, 2),), {"dim": 0})
        d = L.Tensor.__torch_function__(L.Tensor.size, (L.Tensor,), (L.ones(2),))
        seen.append((a is NotImplemented, type(b).__name__, b.tolist(), type(c).__name__,
                     type(c[0]).__name__, type(c[1]).__name__, tuple(d)))
    assert seen[0] == seen[1]
