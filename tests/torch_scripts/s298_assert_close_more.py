import torch
from torch.testing import assert_close, make_tensor


def show(a, b, **kw):
    try:
        assert_close(a, b, **kw)
        print("close")
    except AssertionError as e:
        print(type(e).__name__)
        print(str(e))
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)


show(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.1, 3.0]))
show(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-9]))
show(torch.tensor([1, 2]), torch.tensor([1, 3]))
show(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float32))
show(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float32), check_dtype=False)
show(torch.zeros(2, 2), torch.zeros(4))
show(torch.tensor([float("nan")]), torch.tensor([float("nan")]))
show(torch.tensor([float("nan")]), torch.tensor([float("nan")]), equal_nan=True)
show(torch.tensor([1.0]), torch.tensor([1.5]), rtol=0.5, atol=0.0)
show(torch.tensor([1.0]), torch.tensor([1.5]), rtol=0.1)
show([torch.tensor(1.0), 2.0], [torch.tensor(1.0), 2.5])
show({"a": torch.ones(2)}, {"a": torch.ones(2) * 1.01})
show(1.0, 1.0 + 1e-12)
show(torch.ones(3, 4), torch.ones(3, 4).T.contiguous().T)
show(torch.arange(6.).view(2, 3), torch.arange(6.).view(2, 3) + torch.eye(2, 3) * 1e-3, msg="custom message")
t = make_tensor((2, 3), dtype=torch.float32, device="cpu", low=-1, high=1)
print(t.shape, t.dtype, bool((t.abs() <= 1).all()))
i = make_tensor((5,), dtype=torch.int64, device="cpu", low=0, high=3)
print(i.dtype, bool(((i >= 0) & (i < 3)).all()))
torch.testing.assert_close(torch.tensor(1.0), torch.tensor(1.0 + 1e-8))
print("done")
