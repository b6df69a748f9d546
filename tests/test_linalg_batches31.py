"""linalg.solve_ex's info has A's batch shape (one per matrix of A, as PyTorch's), not the
batch broadcast with B; solves whose batches cannot broadcast raise PyTorch's RuntimeError
(NumPy's ValueError leaked); triu_indices/tril_indices refuse a negative row or col."""
import numpy as np
import pytest

import tapegrad as tg

SHAPES = [((2, 2, 2), (3, 2, 2, 2)), ((1, 2, 2), (3, 2, 2)), ((2, 2), (3, 2, 2)),
          ((3, 2, 2), (2, 2)), ((3, 1, 2, 2), (4, 2, 2)), ((2, 2, 2), (2,)),
          ((2, 2, 2), (2, 2))]


def _info_cases():
    """(sa, sb, singular, left, check_errors): check_errors raises on a singular matrix
    (test_linalg), and a vector B with left=False is refused (tested below)."""
    for sa, sb in SHAPES:
        for singular in (False, True):
            for left in (True, False):
                for check in (False, True):
                    vector = len(sb) == 1 or sb == sa[:-1]
                    if not (check and singular) and (left or not vector):
                        yield sa, sb, singular, left, check


@pytest.mark.parametrize("sa, sb, singular, left, check_errors", list(_info_cases()))
def test_solve_ex_info_has_the_batch_of_A(sa, sb, singular, left, check_errors, torch_float64):
    got = []
    for L in (tg, torch_float64):
        a = np.eye(2) * 2.0 + np.arange(4.0).reshape(2, 2) * 0.1
        A = L.tensor(np.broadcast_to(a, sa).copy())
        if singular:
            A.view(-1, 2, 2)[0] = 0.0
        B = L.tensor(np.linspace(-1.0, 1.0, int(np.prod(sb))).reshape(sb))
        r = L.linalg.solve_ex(A, B, left=left, check_errors=check_errors)
        got.append((tuple(r.info.shape), r.info.numpy().tolist(), tuple(r.result.shape),
                    r.result.numpy()))
    assert got[0][:3] == got[1][:3]
    if not singular:
        np.testing.assert_allclose(got[0][3], got[1][3], rtol=1e-13)


@pytest.mark.parametrize("op", ["solve", "solve_ex", "solve_triangular", "cholesky_solve"])
def test_batches_that_do_not_broadcast_are_refused_as_pytorch(op, raises_as_torch, torch_float64):
    def call(L):
        A = L.eye(2, dtype=L.float64).expand(2, 2, 2) * 2.0
        B = L.ones(3, 2, 2, dtype=L.float64)
        if op == "solve_triangular":
            return L.linalg.solve_triangular(A, B, upper=True)
        if op == "cholesky_solve":
            return L.cholesky_solve(B, A)
        return getattr(L.linalg, op)(A, B)
    raises_as_torch(call, prefix=True)


@pytest.mark.parametrize("fn", ["triu_indices", "tril_indices"])
@pytest.mark.parametrize("args", [(-1, 3), (3, -1), (-2, -2), (-1, 0, 2)])
def test_tri_indices_refuse_negative_sizes_as_pytorch(fn, args, raises_as_torch, torch_float64):
    raises_as_torch(lambda L: getattr(L, fn)(*args))


@pytest.mark.parametrize("fn", ["triu_indices", "tril_indices"])
@pytest.mark.parametrize("args", [(0, 0), (0, 3), (3, 0), (3, 3, -5), (4, 2, 1), (2, 5, -1)])
def test_tri_indices_at_the_edges_as_pytorch(fn, args, torch_float64):
    assert getattr(tg, fn)(*args).tolist() == getattr(torch_float64, fn)(*args).tolist()


@pytest.mark.parametrize("sa, sb, left", [
    ((2, 2), (2,), False), ((2, 2, 2), (2, 2), False), ((2, 2, 2), (2,), False),
    ((1, 1), (1,), False), ((3, 1, 1), (3, 1), False), ((2, 2), (), False), ((2, 2), (), True)])
@pytest.mark.parametrize("op", ["solve", "solve_ex"])
def test_vector_b_with_left_false_is_refused_as_pytorch(sa, sb, left, op, raises_as_torch,
                                                        torch_float64):
    """PyTorch reads B as a column by the vector rule whatever ``left`` is, checks the
    shapes, then refuses a vector B for X A = B."""
    def call(L):
        A = L.eye(sa[-1], dtype=L.float64).expand(*sa) * 2.0
        B = L.ones(*sb, dtype=L.float64) if sb else L.tensor(1.0, dtype=L.float64)
        return getattr(L.linalg, op)(A, B, left=left)
    raises_as_torch(call)


@pytest.mark.parametrize("sa, sb", [((2, 2), (3, 2)), ((3, 2, 2), (2, 2)), ((1, 1), (4, 1))])
def test_matrix_b_with_left_false_as_pytorch(sa, sb, torch_float64):
    got = []
    for L in (tg, torch_float64):
        A = L.tensor(np.eye(sa[-1]) * 2.0 + 0.25).expand(*sa)
        B = L.tensor(np.linspace(-1.0, 2.0, int(np.prod(sb))).reshape(sb))
        got.append(L.linalg.solve(A, B, left=False).numpy())
    np.testing.assert_allclose(got[0], got[1], rtol=1e-13)


@pytest.mark.parametrize("sa, sb, bad", [((2, 2), (3, 2, 2), ()), ((2, 2, 2), (3, 1, 2, 2), (1,)),
                                         ((3, 1, 2, 2), (4, 2, 2), (2, 0)),
                                         ((2, 2, 2), (2, 2, 2), (1,))])
def test_singular_matrix_numbered_in_the_batch_of_A_as_pytorch(sa, sb, bad, torch_float64):
    """The message names the singular matrix by its place in A's own batch, not in the
    batch broadcast with B (the first of an unbatched A's broadcast copies was 'element 0')."""
    messages = []
    for L in (tg, torch_float64):
        a = np.broadcast_to(np.eye(2) * 2.0, sa).copy()
        a[bad] = 0.0
        with pytest.raises(Exception) as info:
            L.linalg.solve(L.tensor(a), L.ones(*sb, dtype=L.float64))
        messages.append(str(info.value))
    assert messages[0] == messages[1]
