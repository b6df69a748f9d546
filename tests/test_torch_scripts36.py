"""Gaps found by tests/torch_scripts/s2101-s2180, each against PyTorch."""
import pytest

import tapegrad as tg

ORDS = ["fro", 1, -1, float("inf"), -float("inf")]


def _complex_matrix_norms(L):
    B = L.tensor([[1.0 + 2.0j, 0.5j], [0.0, 1.0 - 1.0j]], dtype=L.complex128)
    batch = L.stack([B, B * 2])
    got = []
    for o in ORDS:
        got.append(round(L.linalg.matrix_norm(B, o).item(), 12))
        got.append(L.linalg.matrix_norm(batch, o, dim=(0, 2), keepdim=True).round(
            decimals=12).tolist())
    z = L.tensor([[1.0 + 1.0j, 2.0], [0.0, -1.0j]], dtype=L.complex128, requires_grad=True)
    L.linalg.matrix_norm(z).backward()
    got.append(L.view_as_real(z.grad).round(decimals=12).tolist())
    return got


@pytest.mark.oracle
def test_matrix_norm_of_a_complex_matrix(torch):
    """(s2175) ``linalg.matrix_norm`` of a complex tensor: the Frobenius and the 1/inf norms
    read only the moduli, as ``linalg.norm`` and ``vector_norm`` already did; the gradient
    is that of the moduli's norm."""
    assert _complex_matrix_norms(tg) == _complex_matrix_norms(torch)


def test_complex_spectral_matrix_norms_stay_refused():
    """The singular-value norms of a complex matrix are a documented limit (docs/limits.md):
    refused by name, not computed wrongly."""
    B = tg.tensor([[1.0 + 2.0j, 0.5j], [0.0, 1.0 - 1.0j]])
    for o in ("nuc", 2, -2):
        with pytest.raises(RuntimeError, match="singular values"):
            tg.linalg.matrix_norm(B, o)
