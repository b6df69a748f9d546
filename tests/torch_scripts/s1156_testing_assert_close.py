# torch.testing.assert_close success/failure messages, rtol/atol, check_dtype, equal_nan, allclose
import torch
from torch.testing import assert_close

assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-9]))
print("close ok")
try:
    assert_close(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))
except AssertionError as e:
    print(str(e).splitlines()[0])
    print(str(e).splitlines()[1])
try:
    assert_close(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]))
except AssertionError as e:
    print(str(e).splitlines()[0])
assert_close(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]), check_dtype=False)
assert_close(torch.tensor([float("nan")]), torch.tensor([float("nan")]), equal_nan=True)
try:
    assert_close(torch.ones(2), torch.ones(3))
except AssertionError as e:
    print(str(e).splitlines()[0])
print(torch.allclose(torch.tensor([1.0]), torch.tensor([1.1]), rtol=0.0, atol=0.2), torch.equal(torch.ones(2), torch.ones(2, 1)))
assert_close(torch.tensor(1.0), torch.tensor(1.05), rtol=0.1, atol=0.0)
print("done")
