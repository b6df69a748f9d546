"""tapegrad.func's errors against torch.func's: the same exception type and message (with
``tapegrad`` read as ``torch``) for each misuse, and no state left behind."""
import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def t3(lib):
    return lib.tensor(np.array([0.5, -1.0, 2.0]))


def m23(lib):
    return lib.ones(2, 3, dtype=lib.float64)


CASES = {  # id -> run(F, lib): raises the same in both libraries
    "grad_vector_output": lambda F, lib: F.grad(lambda x: x * 2)(t3(lib)),
    "grad_tuple_output": lambda F, lib: F.grad(lambda x: (x.sum(), x))(t3(lib)),
    "grad_aux_not_a_pair": lambda F, lib: F.grad(lambda x: x.sum(), has_aux=True)(t3(lib)),
    "grad_aux_triple": lambda F, lib: F.grad(lambda x: (x.sum(), x, x), has_aux=True)(t3(lib)),
    "grad_aux_not_tensors": lambda F, lib: F.grad(lambda x: (x.sum(), "s"), has_aux=True)(
        t3(lib)),
    "grad_float_input": lambda F, lib: F.grad(lambda x: x * 2)(1.0),
    "grad_int_tensor": lambda F, lib: F.grad(lambda x: x.sum())(lib.arange(3)),
    "grad_argnums_out_of_range": lambda F, lib: F.grad(lambda x: x.sum(), argnums=1)(t3(lib)),
    "grad_argnums_empty": lambda F, lib: F.grad(lambda x: x.sum(), argnums=())(t3(lib)),
    "grad_argnums_float": lambda F, lib: F.grad(lambda x: x.sum(), argnums=0.5)(t3(lib)),
    "grad_argnums_repeated": lambda F, lib: F.grad(lambda x, y: (x * y).sum(),
                                                   argnums=(0, 0))(t3(lib), t3(lib)),
    "grad_no_inputs": lambda F, lib: F.grad(lambda: lib.tensor(1.0))(),
    "grad_not_callable": lambda F, lib: F.grad(3)(t3(lib)),
    "vjp_output_not_tensor": lambda F, lib: F.vjp(lambda x: 1.0, t3(lib)),
    "vjp_primal_not_tensor": lambda F, lib: F.vjp(lambda x: x, 1.0),
    "vjp_aux_not_a_pair": lambda F, lib: F.vjp(lambda x: x, t3(lib), has_aux=True),
    "vjp_fn_shape": lambda F, lib: F.vjp(lambda x: x.sin(), t3(lib))[1](lib.ones(2)),
    "vjp_fn_structure": lambda F, lib: F.vjp(lambda x: x.sin(), t3(lib))[1]((t3(lib),)),
    "jvp_primals_not_tuple": lambda F, lib: F.jvp(lambda x: x, t3(lib), t3(lib)),
    "jvp_tangents_not_tuple": lambda F, lib: F.jvp(lambda x: x, (t3(lib),), t3(lib)),
    "jvp_lengths": lambda F, lib: F.jvp(lambda x: x, (t3(lib),), (t3(lib), t3(lib))),
    "jvp_shapes": lambda F, lib: F.jvp(lambda x: x, (t3(lib),), (t3(lib)[:2],)),
    "jvp_no_primals": lambda F, lib: F.jvp(lambda: t3(lib), (), ()),
    "jvp_output_not_tensor": lambda F, lib: F.jvp(lambda x: 1.0, (t3(lib),), (t3(lib),)),
    "jvp_aux_not_a_pair": lambda F, lib: F.jvp(lambda x: x, (t3(lib),), (t3(lib),),
                                               has_aux=True),
    "jvp_primal_float": lambda F, lib: F.jvp(lambda x: x, (1.0,), (1.0,)),
    "jvp_int_primal": lambda F, lib: F.jvp(lambda x: x, (lib.arange(3),), (lib.arange(3),)),
    "linearize_tangent_shape": lambda F, lib: F.linearize(lambda x: x.sin(), t3(lib))[1](
        lib.ones(2, dtype=lib.float64)),
    "linearize_tangent_dtype": lambda F, lib: F.linearize(lambda x: x.sin(), t3(lib))[1](
        lib.ones(3, dtype=lib.float32)),
    "linearize_tangents_structure": lambda F, lib: F.linearize(lambda x: x.sin(), t3(lib))[1](
        t3(lib), t3(lib)),
    "jacrev_output_not_tensor": lambda F, lib: F.jacrev(lambda x: 1.0)(t3(lib)),
    "jacrev_argnums_out_of_range": lambda F, lib: F.jacrev(lambda x: x, argnums=2)(t3(lib)),
    "jacrev_aux_not_a_pair": lambda F, lib: F.jacrev(lambda x: x, has_aux=True)(t3(lib)),
    "jacfwd_output_not_tensor": lambda F, lib: F.jacfwd(lambda x: 1.0)(t3(lib)),
    "grad_argnums_repeated_negative": lambda F, lib: F.grad(lambda x, y: (x * y).sum(),
                                                            argnums=(0, -2))(t3(lib), t3(lib)),
    "grad_argnums_tuple_of_str": lambda F, lib: F.grad(lambda x, y: (x * y).sum(),
                                                       argnums=(0, "a"))(t3(lib), t3(lib)),
    "grad_keyword_input": lambda F, lib: F.grad(lambda x: x.sum())(x=t3(lib)),
    "jacfwd_randomness_value": lambda F, lib: F.jacfwd(lambda x: x, randomness="x")(t3(lib)),
    "jacfwd_random_draw": lambda F, lib: F.jacfwd(lambda x: x + lib.randn(3))(t3(lib)),
    "vmap_chunk_size": lambda F, lib: F.vmap(lambda x: x, chunk_size=0),
    "jacrev_chunk_size": lambda F, lib: F.jacrev(lambda x: x, chunk_size=0)(t3(lib)),
    "jacfwd_aux_not_a_pair": lambda F, lib: F.jacfwd(lambda x: x, has_aux=True)(t3(lib)),
    "vmap_no_inputs": lambda F, lib: F.vmap(lambda: 1)(),
    "vmap_in_dims_none": lambda F, lib: F.vmap(lambda x: x, in_dims=None)(t3(lib)),
    "vmap_in_dims_str": lambda F, lib: F.vmap(lambda x: x, in_dims="a")(t3(lib)),
    "vmap_in_dims_list": lambda F, lib: F.vmap(lambda x: x, in_dims=[0])(t3(lib)),
    "vmap_in_dims_float": lambda F, lib: F.vmap(lambda x: x, in_dims=(0.5,))(t3(lib)),
    "vmap_in_dims_all_none": lambda F, lib: F.vmap(lambda x: x, in_dims=(None,))(t3(lib)),
    "vmap_in_dims_length": lambda F, lib: F.vmap(lambda x: x, in_dims=(0, 0))(t3(lib)),
    "vmap_in_dims_dict_keys": lambda F, lib: F.vmap(lambda d: d["a"], in_dims=({"b": 0},))(
        {"a": t3(lib)}),
    "vmap_scalar_input": lambda F, lib: F.vmap(lambda x: x)(lib.tensor(1.0)),
    "vmap_in_dim_too_big": lambda F, lib: F.vmap(lambda x: x, in_dims=2)(m23(lib)),
    "vmap_sizes_differ": lambda F, lib: F.vmap(lambda x, y: x + y)(t3(lib), t3(lib)[:2]),
    "vmap_non_tensor_batched": lambda F, lib: F.vmap(lambda x, n: x * n)(t3(lib), 2),
    "vmap_non_tensor_leaf": lambda F, lib: F.vmap(lambda d: d["a"])({"a": m23(lib), "b": 1}),
    "vmap_returns_float": lambda F, lib: F.vmap(lambda x: 1.0)(t3(lib)),
    "vmap_out_dims_none_batched": lambda F, lib: F.vmap(lambda x: x, out_dims=None)(t3(lib)),
    "vmap_out_dims_too_big": lambda F, lib: F.vmap(lambda x: x, out_dims=3)(m23(lib)),
    "vmap_out_dims_structure": lambda F, lib: F.vmap(lambda x: x, out_dims=(0, 0))(t3(lib)),
    "vmap_out_dims_float": lambda F, lib: F.vmap(lambda x: x, out_dims=0.5)(t3(lib)),
    "vmap_randomness_value": lambda F, lib: F.vmap(lambda x: x, randomness="x"),
    "functional_call_not_a_dict": lambda F, lib: F.functional_call(lib.nn.Linear(2, 2), 3,
                                                                   lib.ones(1, 2)),
    "functional_call_duplicates": lambda F, lib: F.functional_call(
        lib.nn.Linear(2, 2), ({"weight": lib.ones(2, 2)}, {"weight": lib.ones(2, 2)}),
        lib.ones(1, 2)),
    "functional_call_strict_missing": lambda F, lib: F.functional_call(
        lib.nn.Linear(2, 2), {"weight": lib.ones(2, 2)}, lib.ones(1, 2), strict=True),
    "functional_call_strict_unexpected": lambda F, lib: F.functional_call(
        lib.nn.Linear(2, 2), {"weight": lib.ones(2, 2), "bias": lib.ones(2),
                              "foo": lib.ones(1)}, lib.ones(1, 2), strict=True),
}


def _caught(run, F, lib):
    with pytest.raises(Exception) as info:
        run(F, lib)
    return type(info.value), str(info.value).replace("tapegrad", "torch")


@pytest.mark.parametrize("case", CASES)
def test_error_matches_torch(case):
    run = CASES[case]
    got = _caught(run, tg.func, tg)
    want = _caught(run, torch.func, torch)
    assert got == want


def test_a_failed_call_leaves_the_inputs_and_grad_mode_as_they_were():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    with tg.no_grad():
        with pytest.raises(RuntimeError):
            tg.func.grad(lambda x: x * 2)(x)
        assert not tg.is_grad_enabled()
    with pytest.raises(RuntimeError):
        tg.func.vmap(lambda v: v + tg.randn(()))(tg.ones(3))
    assert x.grad is None and x.is_leaf and x.requires_grad
    tg.func.grad(lambda x: (x * x).sum())(x)
    assert x.grad is None  # a transform returns gradients, never accumulates them
