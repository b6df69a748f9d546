"""Names a PyTorch program may touch that tapegrad lacked (a comparison of public names
with PyTorch 2.13's, names20), each against PyTorch: constraints.multinomial and
MixtureSameFamilyConstraint, func.replace_all_batch_norm_modules_, Tensor.module_load,
torch.backends' cpu / mha / opt_einsum answers, and JIT, storage, quantization and device
names refused with the reason."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def test_multinomial_constraint(torch):
    vals = [[1.0, 2.0, 0.0], [3.0, 2.0, 1.0], [-1.0, 0.0, 1.0]]
    for n in (3, 6):
        ours = tg.distributions.constraints.multinomial(n)
        theirs = torch.distributions.constraints.multinomial(n)
        assert ours.check(tg.tensor(vals)).tolist() == theirs.check(torch.tensor(vals)).tolist()
        assert (ours.is_discrete, ours.event_dim) == (theirs.is_discrete, theirs.event_dim)


def test_mixture_same_family_constraint(torch):
    c = {L: L.distributions.constraints for L in (tg, torch)}
    x = [[0.5, -1.0], [2.0, 3.0]]
    for base in ("positive", "real_vector", "simplex"):
        got = [c[L].MixtureSameFamilyConstraint(getattr(c[L], base)).check(L.tensor(x)).tolist()
               for L in (tg, torch)]
        assert got[0] == got[1]
    assert repr(c[tg].MixtureSameFamilyConstraint(c[tg].positive)).startswith(
        "MixtureSameFamilyConstraint(")
    with pytest.raises(AssertionError, match="base_constraint must be a Constraint"):
        c[tg].MixtureSameFamilyConstraint(3)


def test_replace_all_batch_norm_modules_(torch):
    out = []
    for L in (tg, torch):
        L.manual_seed(0)
        m = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.BatchNorm1d(4), L.nn.ReLU())
        assert L.func.replace_all_batch_norm_modules_(m) is m
        bn = m[1]
        out.append((bn.running_mean, bn.running_var, bn.num_batches_tracked,
                    bn.track_running_stats, sorted(dict(m.named_buffers()))))
        m.eval()  # (batch statistics even in eval mode, as without running stats)
        x = L.tensor(np.arange(6.0).reshape(2, 3), dtype=L.float32)
        y = m[1](x @ L.ones(3, 4))
        assert float(y.abs().sum()) < 8.0 + 1e-3  # each column normalised over the batch
    assert out[0] == out[1] == (None, None, None, False, [])


def test_module_load(torch):
    for L in (tg, torch):
        p = L.zeros(2)
        q = L.tensor([1.0, 2.0], requires_grad=True)
        r = p.module_load(q)
        assert r.tolist() == [1.0, 2.0] and p.tolist() == [1.0, 2.0] and not r.requires_grad
        assert p.module_load(q, assign=True).tolist() == [1.0, 2.0]
        assert not p.module_load(q, assign=True).requires_grad


def test_backends_answers(torch):
    assert tg.backends.cpu.get_cpu_capability() in ("DEFAULT", "AVX2", "AVX512")
    assert torch.backends.mha.get_fastpath_enabled() is tg.backends.mha.get_fastpath_enabled()
    tg.backends.mha.set_fastpath_enabled(False)
    assert tg.backends.mha.get_fastpath_enabled() is False
    tg.backends.mha.set_fastpath_enabled(True)
    assert tg.backends.opt_einsum.is_available() is False  # (NumPy's einsum here)
    assert tg.backends.nnpack.is_available() is False  # (no NNPACK kernels here)


@pytest.mark.parametrize("name, why", [
    ("ScriptModule", "TorchScript"), ("FileCheck", "TorchScript"),
    ("Storage", "storage objects"), ("per_tensor_affine", "quantized"),
    ("Stream", "devices other than the CPU"), ("bit", "dtypes NumPy lacks"),
    ("DispatchKey", "PyTorch's C.. dispatcher"), ("BFloat16Tensor", "bfloat16"),
    ("Node", "TorchScript")])
def test_out_of_scope_names_say_why(name, why, torch):
    assert hasattr(torch, name)
    with pytest.raises(AttributeError, match=f"tapegrad does not support {why}"):
        getattr(tg, name)
    assert not hasattr(tg, name)


@pytest.mark.parametrize("module, name, why", [
    ("nn", "quantized", "quantization"), ("nn", "qat", "quantization"),
    ("nn.functional", "scaled_mm", "float8"), ("utils.data", "IterDataPipe", "DataPipes"),
    ("testing", "FileCheck", "TorchScript")])
def test_out_of_scope_submodule_names_say_why(module, name, why, torch):
    import importlib
    assert hasattr(importlib.import_module(f"torch.{module}"), name)
    ours = importlib.import_module(f"tapegrad.{module}")
    with pytest.raises(AttributeError, match=f"tapegrad does not support {why}"):
        getattr(ours, name)
    with pytest.raises(AttributeError, match=r"has no attribute 'no_such_name'$"):
        ours.no_such_name


def test_hash_tensor(torch):
    rng = np.random.default_rng(0)
    cases = [rng.standard_normal((2, 3, 4)), rng.integers(-9, 9, (3, 4)),
             np.array([True, False, True]), np.float32([1.5, -2.25]), np.array(2.5)]
    for a in cases:
        x, y = tg.tensor(a), torch.tensor(a)
        dims = [None] + list(range(-a.ndim, a.ndim)) + ([(0, -1)] if a.ndim > 1 else [])
        for dim in dims:
            for keepdim in (False, True):
                ours = tg.hash_tensor(x, dim, keepdim=keepdim)
                theirs = torch.hash_tensor(y, dim=dim, keepdim=keepdim)
                assert ours.dtype == tg.uint64 and tuple(ours.shape) == tuple(theirs.shape)
                assert ours.tolist() == theirs.tolist()
    assert tg.tensor([1, 2]).hash_tensor().item() == 3


def test_small_torch_names(torch):
    assert repr(tg.legacy_contiguous_format) == repr(torch.legacy_contiguous_format)
    assert tg.init_num_threads() is None
    assert tg.compiled_with_cxx11_abi() is torch.compiled_with_cxx11_abi()


def test_constructor_and_call_arguments_pytorch_has(torch):
    # (a comparison of signatures found these three missing)
    for L in (tg, torch):
        m = L.nn.InstanceNorm1d(3, affine=True, bias=False)
        assert m.bias is None and sorted(dict(m.named_parameters())) == ["weight"]
        with pytest.warns(FutureWarning, match="`min_value` is deprecated and renamed to"):
            h = L.nn.Hardtanh(min_value=-2.0, max_value=3.0)
        assert (h.min_val, h.max_val) == (-2.0, 3.0)
        x = L.tensor([1.0, 2.0], requires_grad=True)
        with pytest.warns(FutureWarning, match="`grad_variables` is deprecated"):
            L.autograd.backward([x * x], grad_variables=[L.ones(2)])
        assert x.grad.tolist() == [2.0, 4.0]
        with pytest.raises(RuntimeError, match="arguments both passed to `backward"), \
                pytest.warns(FutureWarning):
            L.autograd.backward([x * x], [L.ones(2)], grad_variables=[L.ones(2)])


def test_increment_version(torch):
    for L in (tg, torch):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        z = y * y  # (saves y)
        L.autograd.graph.increment_version(y)
        assert y._version == 1
        with pytest.raises(RuntimeError, match="output 0 of Exp, is at version 1; expected "
                                               "version 0 instead"):
            z.sum().backward()
        w = L.tensor([1.0, 2.0], requires_grad=True)
        q = (w * w).sum()
        L.autograd.graph.increment_version([w])
        with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
            q.backward()
        L.autograd.graph.increment_version(w)  # (before the op: nothing saved is stale)
        (w * w).sum().backward()
        assert w.grad.tolist() == [2.0, 4.0]


def test_allow_mutation_on_saved_tensors(torch):
    got = []
    for L in (tg, torch):
        with L.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
            assert type(ctx).__name__ == "_AllowMutationOnSavedContext"
            x = L.tensor([1.0, 2.0], requires_grad=True)
            y = x.exp()
            z = (y * y).sum()
            y.mul_(3.0)  # (saved by y * y: backward uses the values saved)
            z.backward()
            a = x * 1.0
            b = (a * a).sum()
            a[0] = 5.0
            b.backward()
            with pytest.raises(RuntimeError, match="contexts cannot be nested"):
                with L.autograd.graph.allow_mutation_on_saved_tensors():
                    pass
        got.append((_np(x.grad), _np(y.detach())))
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y = x.exp()  # (outside, PyTorch's error again)
            z = (y * y).sum()
            y.mul_(3.0)
            z.backward()
    np.testing.assert_allclose(got[0][0], got[1][0], rtol=1e-6)
    np.testing.assert_allclose(got[0][1], got[1][1], rtol=1e-6)
    np.testing.assert_allclose(got[0][0], 2 * np.exp([2.0, 4.0]) + [2.0, 4.0], rtol=1e-12)


def _np(t):
    return np.asarray(t.detach().numpy())


def test_transfer_parametrizations_and_params(torch):
    out = []
    for L in (tg, torch):
        P = L.nn.utils.parametrize

        class Symmetric(L.nn.Module):
            def forward(self, x):
                return x.triu() + x.triu(1).mT

        L.manual_seed(0)
        a = L.nn.Linear(3, 3, dtype=L.float64)
        b = L.nn.Linear(3, 3, dtype=L.float64)
        c = L.nn.Module()
        assert P.transfer_parametrizations_and_params(a, b) is b  # (a not parametrized)
        with L.no_grad():
            a.weight.copy_(L.arange(9.0, dtype=L.float64).view(3, 3))
        P.register_parametrization(a, "weight", Symmetric())
        assert P.transfer_parametrizations_and_params(a, b) is b
        P.transfer_parametrizations_and_params(a, c, "weight")
        assert b.parametrizations.weight[0] is a.parametrizations.weight[0]
        for m in (b, c):
            assert P.is_parametrized(m, "weight")
            assert m.weight.tolist() == a.weight.tolist()
        out.append((b.weight.tolist(), c.parametrizations.weight.original.tolist()))
    assert out[0] == out[1]


def test_epoch_deprecation_warning(torch):
    assert tg.optim.lr_scheduler.EPOCH_DEPRECATION_WARNING == \
        torch.optim.lr_scheduler.EPOCH_DEPRECATION_WARNING
    for L in (tg, torch):
        opt = L.optim.SGD([L.zeros(1, requires_grad=True)], lr=0.1)
        sched = L.optim.lr_scheduler.StepLR(opt, 2)
        opt.step()
        with pytest.warns(UserWarning) as got:
            sched.step(3)
        assert str(got[-1].message) == L.optim.lr_scheduler.EPOCH_DEPRECATION_WARNING


def test_autograd_reexports(torch):
    for L in (tg, torch):
        assert L.autograd.is_tensor_like(L.ones(1)) and not L.autograd.is_tensor_like(1.0)
        assert L.autograd.has_torch_function((L.ones(1),)) is False
        assert L.autograd.handle_torch_function is L.overrides.handle_torch_function
    assert tg.autograd.kineto_available() is False  # (no Kineto profiler here)


def test_autograd_graph_removable_handle(torch):
    for L in (tg, torch):
        x = L.ones(2, requires_grad=True)
        h = x.register_hook(lambda g: g * 2)
        assert isinstance(h, L.autograd.graph.RemovableHandle)
        h.remove()
        (x * 3).sum().backward()
        assert x.grad.tolist() == [3.0, 3.0]
