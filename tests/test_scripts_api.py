"""What externally written PyTorch scripts reach for outside torch.nn (issue 22): grad modes
as bare decorators, Size arithmetic, ``to(copy=True)``, the backends switches, the RNG state,
``torch.random``, ``torch.testing`` and the functional API's signatures, each against
PyTorch where PyTorch has it."""
import inspect

import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("lib", [tg, torch], ids=["tapegrad", "torch"])
def test_grad_modes_decorate_bare_and_called(lib):
    x = lib.ones(2, requires_grad=True)

    @lib.no_grad
    def bare(v):
        return (v * 2).requires_grad

    @lib.inference_mode
    def bare_inference(v):
        return (v * 2).requires_grad

    @lib.no_grad()
    def called(v):
        return (v * 2).requires_grad

    @lib.inference_mode(False)
    def inference_off(v):
        return (v * 2).requires_grad

    assert (bare(x), bare_inference(x), called(x), inference_off(x)) == \
        (False, False, False, True)
    assert bare.__name__ == "bare"
    with lib.no_grad():
        assert not (x * 2).requires_grad
    assert lib.is_grad_enabled()


def test_size_slices_and_sums_stay_sizes():
    s, ts = tg.Size([2, 3, 4]), torch.Size([2, 3, 4])
    for f in (lambda v: v[1:], lambda v: v + (5,), lambda v: v[:-1] + v[-1:]):
        r, tr = f(s), f(ts)
        assert type(r) is tg.Size and tuple(r) == tuple(tr)
    assert s[0] == ts[0] and type(s[0]) is int
    assert s.numel() == ts.numel() and s.count(3) == ts.count(3) and s.index(4) == 2


def test_to_copy_gives_a_new_tensor():
    x = tg.tensor([1.0, 2.0])
    assert x.to(tg.float64) is x and x.to("cpu") is x
    y = x.to(tg.float64, copy=True)
    assert y is not x and y.tolist() == x.tolist()
    y[0] = 5.0
    assert x[0].item() == 1.0  # the copy owns its storage
    z = tg.tensor([1.0], requires_grad=True)
    w = z.to(z.dtype, copy=True)
    w.sum().backward()
    assert w.grad_fn is not None and z.grad.tolist() == [1.0]


def test_backends_switches_read_and_set_as_on_a_cpu_build():
    b, tb = tg.backends, torch.backends
    for path in ("cudnn.enabled", "cudnn.benchmark", "cudnn.deterministic",
                 "cudnn.allow_tf32", "cuda.matmul.allow_tf32"):
        a, t = b, tb
        for p in path.split("."):
            a, t = getattr(a, p), getattr(t, p)
        assert a == t, path
    b.cudnn.benchmark = True
    b.cuda.matmul.allow_tf32 = True
    assert b.cudnn.benchmark and b.cuda.matmul.allow_tf32
    b.cudnn.benchmark = b.cuda.matmul.allow_tf32 = False
    assert not b.mps.is_available() and not b.cuda.is_built()
    assert isinstance(b.mkl.is_available(), bool) and isinstance(b.openmp.is_available(), bool)
    assert tg.version.cuda is None and tg.__version__ == tg.version.__version__
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        tg.cuda.synchronize()


def test_rng_state_round_trips():
    tg.manual_seed(7)
    state = tg.get_rng_state()
    assert state.dtype == tg.uint8 and state.ndim == 1
    a = tg.randn(5)
    w = tg.nn.Linear(3, 2).weight.detach().clone()
    tg.set_rng_state(state)
    assert tg.equal(tg.randn(5), a)
    assert tg.equal(tg.nn.Linear(3, 2).weight.detach(), w)  # nn draws from the same stream
    g = tg.Generator().manual_seed(3)
    gs = g.get_state()
    b = tg.rand(4, generator=g)
    assert g.set_state(gs) is g and tg.equal(tg.rand(4, generator=g), b)
    with pytest.raises(RuntimeError, match="set_state"):
        g.set_state(tg.zeros(3, dtype=tg.uint8))


def test_torch_random_module_and_fork_rng():
    for name in ("manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state",
                 "fork_rng"):
        assert hasattr(tg.random, name) and hasattr(torch.random, name)
    tg.random.manual_seed(11)
    assert tg.random.initial_seed() == 11
    with tg.random.fork_rng():
        tg.rand(10)
    after = tg.rand(3)
    tg.manual_seed(11)
    assert tg.equal(tg.rand(3), after)
    with tg.random.fork_rng(enabled=False):
        tg.rand(1)
    assert not tg.equal(tg.rand(3), after)


CLOSE_CASES = [
    ([1.0, 2.0, 3.0], [1.0, 2.5, 3.0], {}),
    ([1.0, 2.0], [1.0, 2.0, 3.0], {}),
    ([1.0], [1.0 + 1e-9], {}),
    ([1.0], [1.1], {"rtol": 0.2, "atol": 0.0}),
    ([1.0], [1.1], {"rtol": 0.2}),
    ([float("nan")], [float("nan")], {}),
    ([float("nan")], [float("nan")], {"equal_nan": True}),
    ([[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 5.0]], {}),
    ([1.0, 2.0], [1.0, 3.0], {"msg": "custom message"}),
]


def _outcome(fn, *args, **kw):
    try:
        fn(*args, **kw)
        return "pass", ""
    except Exception as e:  # noqa: BLE001 (the outcome is what is compared)
        return type(e).__name__, str(e).split("\n")[0]


@pytest.mark.parametrize("a, e, kw", CLOSE_CASES)
def test_assert_close_agrees_with_torch_in_float64(a, e, kw):
    ours = _outcome(tg.testing.assert_close, tg.tensor(a, dtype=tg.float64),
                    tg.tensor(e, dtype=tg.float64), **kw)
    theirs = _outcome(torch.testing.assert_close, torch.tensor(a, dtype=torch.float64),
                      torch.tensor(e, dtype=torch.float64), **kw)
    assert ours[0] == theirs[0]
    assert ours[1].replace("tapegrad", "torch") == theirs[1]


def test_assert_close_messages_containers_and_dtypes():
    with pytest.raises(AssertionError) as e:
        tg.testing.assert_close(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([1.0, 2.5, 3.0]))
    assert "Mismatched elements: 1 / 3 (33.3%)" in str(e.value)
    assert "Greatest absolute difference: 0.5 at index (1,)" in str(e.value)
    with pytest.raises(AssertionError, match="attribute 'dtype' do not match"):
        tg.testing.assert_close(tg.ones(2, dtype=tg.float32), tg.ones(2))
    tg.testing.assert_close(tg.ones(2, dtype=tg.float32), tg.ones(2), check_dtype=False)
    with pytest.raises(AssertionError, match=r"occurred for item \['a'\]\[1\]"):
        tg.testing.assert_close({"a": [tg.ones(1), tg.ones(1)]}, {"a": [tg.ones(1), tg.zeros(1)]})
    with pytest.raises(AssertionError, match="length of the sequences mismatch: 2 != 3"):
        tg.testing.assert_close([1, 2], [1, 2, 3])
    with pytest.raises(AssertionError, match=r"The \(d\)types do not match"):
        tg.testing.assert_close(1, 1.0)
    with pytest.raises(AssertionError, match="Scalars are not close"):
        tg.testing.assert_close(1.0, 1.5)
    with pytest.raises(AssertionError, match="Tensor-likes are not equal"):
        tg.testing.assert_close(tg.tensor([1, 2]), tg.tensor([1, 3]))
    with pytest.raises(TypeError, match="No comparison pair"):
        tg.testing.assert_close(tg.ones(2), [1.0, 1.0])
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    tg.testing.assert_close(x * 2, tg.tensor([2.0, 4.0]))  # requires_grad is not compared
    f32 = dict(dtype=tg.float32)
    tg.testing.assert_close(tg.tensor([1.0], **f32), tg.tensor([1.0 + 1e-6], **f32))


def test_make_tensor_ranges():
    t = tg.testing.make_tensor(3, 4, dtype=tg.float32, low=-1, high=1)
    assert t.shape == (3, 4) and t.dtype == tg.float32
    assert (t >= -1).all() and (t < 1).all()
    i = tg.testing.make_tensor((5,), dtype=tg.int64, exclude_zero=True)
    assert i.dtype == tg.int64 and (i != 0).all()


@pytest.mark.parametrize("name", ["jacobian", "hessian", "vjp", "jvp", "hvp", "vhp"])
def test_functional_signatures_match_torch(name):
    ours = inspect.signature(getattr(tg.autograd.functional, name))
    theirs = inspect.signature(getattr(torch.autograd.functional, name))
    assert [(p.name, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.default) for p in theirs.parameters.values()]


def test_functional_strategies_and_unused_inputs():
    F, TF = tg.autograd.functional, torch.autograd.functional
    a = np.array([1.0, 2.0])

    def f(lib):
        return lambda v: (v ** 3).sum()

    h = F.hessian(f(tg), tg.tensor(a), vectorize=True, outer_jacobian_strategy="forward-mode")
    th = TF.hessian(f(torch), torch.tensor(a), vectorize=True,
                    outer_jacobian_strategy="forward-mode")
    np.testing.assert_allclose(h.detach().numpy(), th.detach().numpy())
    j = F.jacobian(lambda v: v.sin(), tg.tensor(a), vectorize=True, strategy="forward-mode")
    np.testing.assert_allclose(j.numpy(), np.diag(np.cos(a)))
    with pytest.raises(NotImplementedError, match="vectorize=True"):
        F.jacobian(lambda v: v, tg.tensor(a), strategy="forward-mode")
    with pytest.raises(NotImplementedError, match="create_graph=True"):
        F.jacobian(lambda v: v, tg.tensor(a), vectorize=True, strategy="forward-mode",
                   create_graph=True)
    with pytest.raises(AssertionError, match="forward-mode"):
        F.jacobian(lambda v: v, tg.tensor(a), strategy="fwd")
    # strict=False by default: an input the output does not use gets zeros, as in torch
    _, g = F.vjp(lambda u, w: (u * 2).sum(), (tg.tensor(a), tg.tensor(a)))
    _, tgr = TF.vjp(lambda u, w: (u * 2).sum(), (torch.tensor(a), torch.tensor(a)))
    assert [x.tolist() for x in g] == [x.tolist() for x in tgr]


SAVED = [  # (expression, attribute)
    (lambda lib, x, y: x.exp(), "_saved_result"),
    (lambda lib, x, y: x.tanh(), "_saved_result"),
    (lambda lib, x, y: x.sigmoid(), "_saved_result"),
    (lambda lib, x, y: x.sin(), "_saved_self"),
    (lambda lib, x, y: x.log(), "_saved_self"),
    (lambda lib, x, y: x * y, "_saved_self"),
    (lambda lib, x, y: x * y, "_saved_other"),
    (lambda lib, x, y: x * y.exp(), "_saved_other"),
    (lambda lib, x, y: x / y, "_saved_other"),
    (lambda lib, x, y: x * 2.5, "_saved_other"),
    (lambda lib, x, y: x ** 3, "_saved_exponent"),
    (lambda lib, x, y: x ** 3, "_saved_self"),
]


@pytest.mark.parametrize("i", range(len(SAVED)))
def test_grad_fn_saved_values_match_torch(i):
    f, attr = SAVED[i]
    res = []
    for lib in (tg, torch):
        x = lib.tensor([0.5, 2.0], dtype=lib.float64, requires_grad=True)
        y = lib.tensor([1.5, -0.3], dtype=lib.float64, requires_grad=True)
        v = getattr(f(lib, x, y).grad_fn, attr)
        res.append(v if not hasattr(v, "detach") else
                   (v.detach().tolist(), v.requires_grad, v.grad_fn is not None))
    if isinstance(res[1], tuple):  # the same saved tensor; its values to the ulp: torch's
        # vectorised tanh (Sleef, AVX-512) is not NumPy's everywhere
        np.testing.assert_allclose(res[0][0], res[1][0], rtol=4e-16, atol=0)
        res = [r[1:] for r in res]
    assert res[0] == res[1]


def test_saved_values_follow_the_graph_lifetime():
    x = tg.tensor([0.5, 2.0], requires_grad=True)
    z = x * 2.5
    assert z.grad_fn._saved_self is None
    y = x.exp()
    r = y.grad_fn._saved_result
    assert r.tolist() == y.tolist() and r is not y and r.grad_fn.name() == "ExpBackward0"
    assert y.grad_fn._saved_result.grad_fn is y.grad_fn
    w = x.sin()
    with pytest.raises(AttributeError, match="'SinBackward0' object has no attribute "
                                             "'_saved_other'"):
        w.grad_fn._saved_other
    w.sum().backward(retain_graph=True)
    assert w.grad_fn._saved_self is x
    w.sum().backward()
    with pytest.raises(RuntimeError, match="directly access saved tensors after they have "
                                           "already been freed"):
        w.grad_fn._saved_self


def _hooks_program(lib):
    """What a script does with saved_tensors_hooks: log, change, stash the saved values."""
    log, store = [], {}

    def pack(x):
        log.append(("pack", x.detach().tolist(), x.requires_grad))
        return x

    def unpack(x):
        log.append(("unpack", x.detach().tolist()))
        return x

    def stash(t):
        store[len(store)] = t.detach().clone()
        return len(store) - 1

    f64 = dict(dtype=lib.float64)
    a = lib.ones(3, requires_grad=True, **f64)
    b = lib.ones(3, requires_grad=True, **f64) * 2
    with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = a * b
    y.sum().backward()
    out = [list(log), a.grad.tolist()]
    log.clear()
    x = lib.tensor([1.0, 2.0], requires_grad=True, **f64)
    with lib.autograd.graph.saved_tensors_hooks(lambda t: t * 10, lambda t: t):
        z = x.sin()  # the gradient reads what unpack returns: cos(10 x)
    z.sum().backward()
    out.append(x.grad.tolist())
    x = lib.tensor([0.5, 1.5], requires_grad=True, **f64)
    with lib.autograd.graph.saved_tensors_hooks(stash, lambda k: store[k]):
        w = (x.exp() * x).sum()
    w.backward()
    out += [x.grad.tolist(), len(store)]
    with lib.autograd.graph.save_on_cpu():
        (x * x).sum().backward()
    out.append(x.grad.tolist())
    with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
        e = x.exp()
        out.append(e.grad_fn._saved_result.tolist())
    out.append(log)
    with pytest.raises(RuntimeError, match="no hooks here"):
        with lib.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
            with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
                pass
    return out


def test_saved_tensors_hooks_as_in_torch():
    ours, theirs = _hooks_program(tg), _hooks_program(torch)
    assert ours[0] == theirs[0]  # pack order (other, then self), then unpack at backward
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-15)
    np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-15)
    assert ours[1] == theirs[1] and ours[4:] == theirs[4:]


def _shared_saved_program(lib):
    """A non-leaf saved inside saved_tensors_hooks whose unpack changes it, and read by
    rows recorded before and after the context: only the rows inside see the change."""
    x = lib.tensor([0.3, 0.7], requires_grad=True, dtype=lib.float64)
    h = x * 2
    y = (h * h).sum()
    with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: p * 10):
        z = h.sin().sum()
    w = h.exp().sum()
    (y + z + w).backward(retain_graph=True)
    out = [x.grad.tolist()]
    (y + z + w).backward()  # the second sweep reads what the first left
    out += [x.grad.tolist(), h.tolist(), (h.exp() * h).sum().item()]
    return out


def _linked_hooks_program(lib):
    """A backward inside the context that reaches an older tape through a link: pack is
    called on the rows recorded inside the context only, before and after it."""
    log = []

    def pack(t):
        log.append([round(v, 12) for v in t.detach().tolist()])
        return t

    x = lib.tensor([0.3, 0.7], requires_grad=True, dtype=lib.float64)
    a = x.exp()  # before the context, on the first tape
    (x * 3).sum().backward()  # the thread records on a fresh tape from here
    p = x.cos()  # before the context, on the fresh tape
    with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        (a.sin().sum() + p.sum()).backward(retain_graph=True)
        s = (p * p).sum()
    s.backward()
    return log, x.grad.tolist()


def _number_operand_program(lib):
    """x * 2 inside the context: pack is called on no tensor for the number."""
    log = []
    x = lib.tensor([0.3, 0.7], requires_grad=True, dtype=lib.float64)
    with lib.autograd.graph.saved_tensors_hooks(lambda t: log.append(t.tolist()) or t,
                                                lambda p: p * 3):
        y = x * 2
        z = (y * y).sum()
    z.backward()
    return x.grad.tolist(), log


@pytest.mark.parametrize("program", [_shared_saved_program, _linked_hooks_program,
                                     _number_operand_program])
def test_saved_tensors_hooks_reach_only_the_rows_inside(program):
    ours, theirs = program(tg), program(torch)
    np.testing.assert_allclose(np.array(ours[0], dtype=float), np.array(theirs[0], dtype=float),
                               rtol=1e-12)
    for a, b in zip(ours[1:], theirs[1:], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_saved_tensors_hooks_one_slot_two_unpacked_values_is_an_error():
    calls = []

    def unpack(p):  # a different value each call until ``calls`` holds "same"
        calls.append(1)
        return p if "same" in calls else p * len(calls)

    x = tg.tensor([0.3, 0.7], requires_grad=True, dtype=tg.float64)
    with tg.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
        y = x * 2
        z = (y * y).sum()
    with pytest.raises(RuntimeError, match="saved the same tensor twice"):
        z.backward()
    calls.append("same")
    z.backward()  # the graph is as it was: with one value, the backward runs (and frees it)
    np.testing.assert_allclose(x.grad.numpy(), 8 * np.array([0.3, 0.7]), rtol=1e-15)


def test_checkpoint_runs_the_function_with_its_gradients():
    from tapegrad.utils.checkpoint import checkpoint, checkpoint_sequential

    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = checkpoint(lambda v, k: (v * k).sin(), x, 3.0, use_reentrant=False)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * np.cos(3 * np.array([1.0, 2.0])))
    net = tg.nn.Sequential(tg.nn.Linear(2, 3), tg.nn.Tanh(), tg.nn.Linear(3, 1))
    z = tg.ones(4, 2)
    assert tg.equal(checkpoint_sequential(net, 2, z, use_reentrant=False), net(z))


def test_saved_tensors_hooks_create_graph_refuses_a_changed_value():
    x = tg.tensor([1.0, 2.0], requires_grad=True, dtype=tg.float64)
    with tg.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        z = x.sin()
    g, = tg.autograd.grad(z.sum(), x, create_graph=True)  # the same value: it runs
    np.testing.assert_allclose(g.detach().numpy(), np.cos([1.0, 2.0]), rtol=1e-15)
    with tg.autograd.graph.saved_tensors_hooks(lambda t: t * 10, lambda t: t):
        z = x.sin()
    with pytest.raises(NotImplementedError, match="create_graph=True"):
        tg.autograd.grad(z.sum(), x, create_graph=True)
    z.sum().backward()  # without create_graph the unpacked value is read, as in PyTorch
    np.testing.assert_allclose(x.grad.numpy(), np.cos([10.0, 20.0]), rtol=1e-12)
