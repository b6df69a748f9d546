"""PyTorch's ScalarType names in error messages (ComplexDouble, UInt16, Long...), written
by one function (dtypes.torch_name) wherever an error names a dtype; each against PyTorch."""
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle

CASES = {
    "add_ complex into float":
        lambda L: L.zeros(2, dtype=L.float64).add_(L.ones(2, dtype=L.complex128)),
    "add_ float into long": lambda L: L.zeros(2, dtype=L.int64).add_(L.ones(2, dtype=L.float64)),
    "masked_scatter complex": lambda L: L.zeros(2, dtype=L.float64).masked_scatter(
        L.tensor([True, False]), L.ones(2, dtype=L.complex128)),
    "mse_loss long": lambda L: L.nn.functional.mse_loss(L.ones(2, dtype=L.int64),
                                                        L.ones(2, dtype=L.int64)),
    "logcumsumexp long": lambda L: L.logcumsumexp(L.ones(2, dtype=L.int64), 0),
    "logcumsumexp bool": lambda L: L.logcumsumexp(L.ones(2, dtype=L.bool), 0),
    "histc long": lambda L: L.histc(L.ones(2, dtype=L.int64)),
}
FFT = ["rfft", "rfft2", "rfftn", "ihfft", "ihfft2", "ihfftn"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_error_names_the_dtype_as_pytorch(case, raises_as_torch):
    raises_as_torch(CASES[case])


@pytest.mark.parametrize("name", FFT)
@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_real_input_ffts_refuse_complex_in_pytorchs_words(name, dtype, raises_as_torch):
    raises_as_torch(lambda L: getattr(L.fft, name)(L.zeros(4, 4, dtype=getattr(L, dtype))))

