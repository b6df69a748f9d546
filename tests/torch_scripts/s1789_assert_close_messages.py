# torch.testing.assert_close: what the failures say
import torch
from torch.testing import assert_close


def show(*args, **kw):
    try:
        assert_close(*args, **kw)
        print("passed")
    except (AssertionError, TypeError, ValueError) as e:
        print(type(e).__name__, "|", str(e).replace("\n", " / "))


show(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))
show(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0, 3.0]))
show(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float32))
show(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float32), check_dtype=False)
show(torch.tensor([1, 2]), torch.tensor([1, 3]))
show(torch.tensor([float("nan")]), torch.tensor([float("nan")]))
show(torch.tensor([float("nan")]), torch.tensor([float("nan")]), equal_nan=True)
show(torch.tensor([1.0, 2.0]), torch.tensor([1.1, 2.0]), rtol=0.2, atol=0.0)
show(torch.tensor([1.0, 2.0]), torch.tensor([1.1, 2.0]), rtol=0.0, atol=0.05)
show(torch.tensor([1.0]), torch.tensor([2.0]), msg="custom message")
show(torch.tensor([1.0]), torch.tensor([1.0]), rtol=1e-3)
show([torch.tensor(1.0), torch.tensor(2.0)], [torch.tensor(1.0), torch.tensor(2.5)])
show({"a": torch.tensor(1.0)}, {"a": torch.tensor(1.0), "b": torch.tensor(2.0)})
show(1.0, 1.0 + 1e-9)
show(torch.zeros(2, 2), torch.eye(2))
show(torch.tensor([True, False]), torch.tensor([True, True]))
