import torch
from torch.testing import assert_close

def check(*args, **kwargs):
    try:
        assert_close(*args, **kwargs)
        print("close")
    except (AssertionError, TypeError, ValueError) as e:
        print(type(e).__name__)
        print(str(e))

check(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-9]))
check(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))
check(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[1.0, 2.0], [3.1, 4.2]]), rtol=0, atol=0.15)
check(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4]))
check(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float32))
check(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float32), check_dtype=False)
check(torch.ones(2, 3), torch.ones(3, 2))
check(torch.tensor([float('nan')]), torch.tensor([float('nan')]))
check(torch.tensor([float('nan')]), torch.tensor([float('nan')]), equal_nan=True)
check(1.0, 1.0 + 1e-3)
check([torch.ones(2), torch.zeros(2)], [torch.ones(2), torch.zeros(2)])
check({"a": torch.ones(2)}, {"a": torch.ones(2) * 2})
check(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0]), rtol=1e-3)
check(torch.tensor([True, False]), torch.tensor([True, True]))
torch.testing.assert_close(torch.tensor([0.1 + 0.2]), torch.tensor([0.3]))
print(torch.allclose(torch.tensor([1.0, 1e-9]), torch.tensor([1.0, 0.0])), torch.isclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0001, 2.1]), rtol=1e-3))
print(torch.equal(torch.ones(2), torch.ones(2, dtype=torch.float32)), torch.equal(torch.ones(2), torch.ones(3)))
