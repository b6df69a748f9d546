"""Differences from PyTorch found by the scripts s789 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- refusals in PyTorch's exact words (tapegrad's details after them, if any) ----------
@pytest.mark.parametrize("call", [
    lambda L: L.cat([]), lambda L: L.concat(()), lambda L: L.concatenate([]),
    lambda L: L.ones(2, 2).flip(0, 0), lambda L: L.flip(L.ones(2, 2), [1, -1]),
    lambda L: L.from_numpy([1, 2]), lambda L: L.from_numpy(3.0),
    lambda L: L.ones(4).narrow(0, 3, 2), lambda L: L.ones(4, 5).narrow(1, -6, 1),
    lambda L: L.broadcast_shapes((2, 3), (4,)), lambda L: L.broadcast_shapes((2, 3), (3,), (5, 1, 2)),
    lambda L: L.broadcast_shapes([3], L.Size([2, 4])), lambda L: L.broadcast_shapes(3, (2, 4)),
    lambda L: L.broadcast_shapes((1, 3), (4, 1), (2, 4, 5)),
    lambda L: L.nn.Module().add_module("a.b", None), lambda L: L.nn.Module().register_module("x.y", None),
    lambda L: L.float8_e4m3fn.to_complex(), lambda L: L.int32.to_complex()])
def test_refusals_in_pytorchs_words(call, raises_as_torch):
    raises_as_torch(call)


@pytest.mark.parametrize("shape, dim, index", [
    ((4,), 0, [4]), ((4, 5), 0, [7]), ((4, 5), -2, [-1]), ((4, 5), 1, [0, 9]), ((4, 5), -1, [-1]),
    ((4, 5, 2), 1, [5]), ((4, 5, 2), 2, [2]), ((4, 5, 2), 0, [0, 4]), ((), 0, [1])])
def test_index_select_out_of_range_as_pytorch(shape, dim, index, raises_as_torch):
    """IndexError "index out of range in self", but for dim 1 (PyTorch's kernel for it
    raises a RuntimeError of its own words); tapegrad's detail follows in parentheses."""
    raises_as_torch(lambda L: L.ones(shape).index_select(dim, L.tensor(index)), prefix=True)


def test_index_select_of_a_transposed_dim_1_as_pytorch(raises_as_torch):
    raises_as_torch(lambda L: L.ones(4, 5).t().index_select(1, L.tensor([7])), prefix=True)


# ---- dtypes' to_complex / to_real: the names PyTorch answers ------------------------------
@pytest.mark.parametrize("name", ["float16", "float32", "float64", "bfloat16", "complex32",
                                  "complex64", "complex128", "float8_e4m3fn", "float8_e5m2"])
def test_to_complex_and_to_real_as_pytorch(name, torch):
    def answer(L, how):
        try:
            return str(getattr(getattr(L, name), how)())
        except RuntimeError as e:
            return str(e)
    for how in ("to_complex", "to_real"):
        assert answer(tg, how) == answer(torch, how)
    assert tg.float16.to_complex() is tg.complex32 and tg.complex32.to_real() is tg.float16


# ---- unique: each NaN a value of its own -------------------------------------------------
@pytest.mark.parametrize("values", [[2.0, np.nan, 1.0, np.nan, 1.0], [np.nan, np.nan],
                                    [np.nan], [3.0, 1.0, 3.0], []])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_unique_keeps_each_nan_apart(values, dtype, torch_float64):
    def run(L):
        x = L.tensor(values, dtype=getattr(L, dtype))
        u, inv, counts = L.unique(x, return_inverse=True, return_counts=True)
        return u.tolist(), inv.tolist(), counts.tolist(), str(x.unique())
    ours, theirs = run(tg), run(torch_float64)
    assert repr(ours) == repr(theirs)  # (repr: nan == nan is False)


# ---- histogramdd's bin_edges: a tuple -----------------------------------------------------
def test_histogramdd_edges_are_a_tuple(torch_float64):
    def run(L):
        r = L.histogramdd(L.tensor([[0.0, 0.0], [1.0, 1.0], [0.5, 0.2]]), bins=[2, 3])
        return repr(r), type(r.bin_edges).__name__
    assert run(tg) == run(torch_float64)


# ---- MultivariateNormal / Wishart keep the matrices read, and print them -------------------
@pytest.mark.parametrize("given", ["covariance_matrix", "precision_matrix", "scale_tril"])
@pytest.mark.parametrize("family", ["MultivariateNormal", "Wishart"])
def test_tril_distributions_keep_and_print_what_was_read(family, given, torch_float64):
    def run(L):
        m = L.tensor([[2.0, 0.3], [0.3, 1.0]])
        m = m.tril() if given == "scale_tril" else m
        first = L.zeros(2) if family == "MultivariateNormal" else L.tensor([4.0, 5.0])
        d = getattr(L.distributions, family)(first, **{given: m})
        shown = [repr(d)]
        for name in ("scale_tril", "precision_matrix", "covariance_matrix"):
            value = getattr(d, name)
            shown += [repr(d), getattr(d, name) is value]
        return shown + [repr(d.expand((3, 2)))]
    assert run(tg) == run(torch_float64)


# ---- a node's metadata lives as long as its graph ------------------------------------------
def test_node_metadata_outlives_the_node_object(torch_float64):
    def run(L):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        z = (y * 3).sum()
        y.grad_fn.metadata["tag"] = "exp"  # (the node object is dropped at once)
        z.grad_fn.next_functions[0][0].metadata["mul"] = 1
        z.backward()
        return y.grad_fn.metadata, z.grad_fn.metadata, \
            z.grad_fn.next_functions[0][0].metadata, x.grad.tolist()
    assert run(tg) == run(torch_float64)


# ---- every module's forward hooks (torch.nn.modules.module's globals) ---------------------
def test_global_module_forward_hooks_as_pytorch(torch_float64):
    def run(L):
        mm = __import__(L.__name__ + ".nn.modules.module", fromlist=["_"])
        net = L.nn.Sequential(L.nn.Linear(2, 2), L.nn.Tanh())
        with L.no_grad():
            net[0].weight.copy_(L.tensor([[1.0, -1.0], [0.5, 2.0]]))
            net[0].bias.zero_()
        log = []
        net[1].register_forward_hook(lambda m, i, o: log.append("own"))
        hooks = [mm.register_module_forward_pre_hook(
                     lambda m, i: log.append(("pre", type(m).__name__))),
                 mm.register_module_forward_hook(
                     lambda m, i, o: log.append((type(m).__name__, tuple(o.shape)))),
                 mm.register_module_forward_hook(
                     lambda m, a, k, o: o * 2 if isinstance(m, L.nn.Tanh) else None,
                     with_kwargs=True)]
        out = [net(L.ones(1, 2)).tolist()]
        for h in hooks:
            h.remove()
        out.append(net(L.ones(1, 2)).tolist())
        with mm.register_module_forward_pre_hook(lambda m, i: (i[0] * 0,)):
            out.append(net(L.ones(1, 2)).tolist())
        return log, out
    assert run(tg) == run(torch_float64)


# ---- the older state_dict hooks: _register_state_dict_hook, _register_load_state_dict_pre_hook
def test_legacy_state_dict_hooks_as_pytorch(torch_float64):
    def run(L):
        def rename(state_dict, prefix, *rest):
            for k in list(state_dict):
                if k.startswith(prefix + "w"):
                    state_dict[prefix + "weight"] = state_dict.pop(k)

        def only_weights(module, state_dict, prefix, meta):
            return {k: v for k, v in state_dict.items() if k.endswith("weight")}

        lin = L.nn.Linear(2, 1)
        lin._register_load_state_dict_pre_hook(rename)
        lin._register_load_state_dict_pre_hook(
            lambda m, sd, prefix, *rest: sd.setdefault(prefix + "bias", L.ones(1)),
            with_module=True)
        keys = lin.load_state_dict({"w": L.tensor([[2.0, 3.0]])})
        lin._register_state_dict_hook(only_weights)
        outer = L.nn.Sequential(lin)
        outer._register_state_dict_hook(lambda m, sd, p, meta: None)
        got = [repr(keys), lin.weight.tolist(), lin.bias.tolist(), list(lin.state_dict()),
               type(lin.state_dict()).__name__, list(outer.state_dict())]
        lin.register_state_dict_post_hook(lambda m, sd, p, meta: sd)
        with pytest.raises(RuntimeError, match="state_dict post-hook must return None"):
            lin.state_dict()
        return got
    assert run(tg) == run(torch_float64)


# ---- tensor() of a list holding tensors: each is its one number ----------------------------
@pytest.mark.parametrize("make", [
    lambda L: [L.tensor([1.0]), L.tensor([2.0])], lambda L: [L.ones(1, 1), 3.0],
    lambda L: [1.0, L.tensor([2.0]), 3], lambda L: [L.tensor(1.5), L.tensor(2.5)],
    lambda L: [[L.tensor(1), 2], [3, L.tensor([4])]],
    lambda L: [L.tensor([1], dtype=L.int32), L.tensor(2, dtype=L.int32)],
    lambda L: [[L.tensor(1.0, dtype=L.float32)], [L.tensor([2.0], dtype=L.float32)]]])
@pytest.mark.parametrize("maker", ["tensor", "as_tensor"])
def test_tensor_of_a_list_of_tensors_reads_their_numbers(make, maker, torch_float64):
    ours = getattr(tg, maker)(make(tg))
    theirs = getattr(torch_float64, maker)(make(torch_float64))
    assert str(ours) == str(theirs) and ours.shape == theirs.shape


@pytest.mark.parametrize("make", [lambda L: [L.ones(2), L.ones(2)], lambda L: [L.ones(0)],
                                  lambda L: [[L.ones(2)]], lambda L: (L.ones(3),)])
def test_tensor_of_a_list_of_bigger_tensors_refused_as_pytorch(make, raises_as_torch):
    raises_as_torch(lambda L: L.tensor(make(L)))

