"""Gaps found by tests/torch_scripts/s2181-s2260, each against PyTorch."""
import io
import warnings

import pytest

import tapegrad as tg


def _sparse_adam_state(L):
    emb = L.nn.Embedding(4, 2, sparse=True)
    with L.no_grad():
        emb.weight.copy_(L.arange(8.0).view(4, 2))
    opt = L.optim.SparseAdam(emb.parameters(), lr=0.1)
    for idx in ([1, 3], [3, 0]):
        opt.zero_grad()
        emb(L.tensor(idx)).pow(2).sum().backward()
        opt.step()
    step = opt.state_dict()["state"][0]["step"]
    buf = io.BytesIO()
    L.save(opt.state_dict(), buf)
    buf.seek(0)
    again = L.optim.SparseAdam(emb.parameters(), lr=0.1)
    again.load_state_dict(L.load(buf))
    opt.zero_grad()
    emb(L.tensor([2])).sum().backward()
    again.step()
    return [type(step).__name__, step, again.state[emb.weight]["step"],
            emb.weight.detach().round(decimals=10).tolist()]


@pytest.mark.oracle
def test_sparse_adam_counts_steps_in_a_python_int(torch_float64):
    """(s2203) SparseAdam's ``state["step"]`` is an int, as PyTorch's (its other
    optimisers keep a 0-d tensor), and stays one through a state_dict round trip."""
    assert _sparse_adam_state(tg) == _sparse_adam_state(torch_float64)


def _complex_linear_shape_ops(L):
    z = L.tensor([1.0 + 2.0j, 3.0j, -1.0 + 0.5j], requires_grad=True)
    M = L.outer(z, z.conj())
    outs = [L.diag(z), L.diag(z, 1), L.diag(M, -1), M.diag(), L.tril(M), L.triu(M, 1),
            L.diagonal(M, 1), L.diag_embed(z), L.trace(M), M.trace(), L.tile(z, (2,)),
            L.rot90(M), L.repeat_interleave(z, 2), L.cumsum(z, 0), z.cumsum(0)]
    sum((o.abs() ** 2).sum() for o in outs).backward()
    return ([L.view_as_real(o.detach()).tolist() for o in outs]
            + [L.view_as_real(z.grad).tolist()])


@pytest.mark.oracle
def test_linear_shape_ops_of_complex_tensors(torch_float64):
    """(s2214) ``torch.diag`` of a complex vector raised a TypeError about building a
    Tensor; it and the other linear shape ops (tril, triu, diagonal, diag_embed, trace,
    tile, rot90, repeat_interleave, cumsum) now act part by part, gradients included."""
    assert _complex_linear_shape_ops(tg) == _complex_linear_shape_ops(torch_float64)


def _complex_inverse(L):
    A = L.tensor([[1.0 + 2.0j, 0.5], [1.0j, 3.0 - 1.0j]], requires_grad=True)
    B, C = L.inverse(A), L.linalg.inv(L.stack([A, A * 2]))
    ((B.abs() ** 2).sum() + (C.real * C.imag).sum()).backward()
    return [L.view_as_real(t.detach()).round(decimals=12).tolist() for t in (B, C, A.grad)]


@pytest.mark.oracle
def test_inverse_of_complex_matrices(torch_float64):
    """(s2214) ``linalg.inv``/``inverse`` of a complex matrix (eig's eigenvectors, say):
    the inverse of its real form [[re, -im], [im, re]], with PyTorch's gradient."""
    assert _complex_inverse(tg) == _complex_inverse(torch_float64)


def _as_shapes_of_a_scalar(L):
    s, got = L.tensor(2.0), []
    for f in [lambda: L.arange(1.0).view_as(s), lambda: L.arange(0.0).view_as(s),
              lambda: L.arange(2.0).view_as(s), lambda: L.arange(1.0).reshape_as(s),
              lambda: L.arange(0.0).reshape_as(s), lambda: L.tensor([3.0]).expand_as(s),
              lambda: L.tensor(3.0).expand_as(L.zeros(2)),
              lambda: L.arange(1.0, requires_grad=True).view_as(s).grad_fn.name()]:
        try:
            got.append(repr(f()))
        except RuntimeError as e:
            got.append(str(e))
    return got


@pytest.mark.oracle
def test_view_reshape_expand_as_a_zero_dim_tensor(torch_float64):
    """(s2251) ``x.view_as(s)`` with a 0-d ``s`` (``vector_to_parameters`` into scalar
    parameters) raised view()'s TypeError for no sizes; now it views, or raises PyTorch's
    RuntimeError when the sizes differ, as do reshape_as and expand_as."""
    assert _as_shapes_of_a_scalar(tg) == _as_shapes_of_a_scalar(torch_float64)


def _casts_out_of_range(L):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # (PyTorch warns of none of these)
        return [L.tensor([1e20, -1e20, float("nan")]).long().tolist(),
                L.tensor([float("inf"), 1e10]).int().tolist(),
                (L.tensor([65504.0], dtype=L.float16) * 2).tolist(),
                (L.tensor([60000.0], dtype=L.float16) / 0.001).tolist()]


@pytest.mark.oracle
def test_out_of_range_casts_do_not_warn(torch_float64):
    """(s2237) A float cast to int of nan/inf/huge values and a float16 product that
    overflows to inf printed NumPy's RuntimeWarning ("invalid value encountered in cast"),
    where PyTorch prints nothing; the values were already PyTorch's."""
    assert _casts_out_of_range(tg) == _casts_out_of_range(torch_float64)


def _tensor_dataset_refusals(L):
    got = []
    for args in [(L.ones(3), L.ones(4)), (L.ones(2), L.tensor(2.0)), (L.tensor(1.0),)]:
        try:
            L.utils.data.TensorDataset(*args)
        except (AssertionError, IndexError) as e:
            got.append((type(e).__name__, str(e)))
    return got


@pytest.mark.oracle
def test_tensor_dataset_refusals_are_pytorchs(torch):
    """(found beside s2181-s2184) TensorDataset's size mismatch says PyTorch's words only
    (a script printing the AssertionError printed tapegrad's list of sizes too), and a 0-d
    tensor raises PyTorch's IndexError (was a ValueError)."""
    assert _tensor_dataset_refusals(tg) == _tensor_dataset_refusals(torch)
