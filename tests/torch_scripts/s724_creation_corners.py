import torch


def show(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:70])


show("arange float step", lambda: torch.arange(0, 1, 0.1).shape)
show("arange neg", lambda: torch.arange(1, -1, -0.25))
show("arange int dtype float", lambda: torch.arange(3, dtype=torch.float32))
show("linspace 1", lambda: torch.linspace(2, 5, 1))
show("linspace 0", lambda: torch.linspace(2, 5, 0))
show("linspace int", lambda: torch.linspace(0, 10, 4, dtype=torch.long))
show("logspace base2", lambda: torch.logspace(-2, 2, 5, base=2))
show("full bool", lambda: torch.full((2,), True))
show("full int", lambda: torch.full((2,), 3))
show("full float", lambda: torch.full((2, 1), 1.5).dtype)
show("zeros int grad", lambda: torch.zeros(2, dtype=torch.long, requires_grad=True))
show("ones tuple", lambda: torch.ones((2, 3)).shape)
show("ones list", lambda: torch.ones([2]).shape)
show("ones size", lambda: torch.ones(torch.Size([1, 2])).shape)
show("eye nm", lambda: torch.eye(2, 3))
show("eye int", lambda: torch.eye(2, dtype=torch.int32))
show("empty_strided", lambda: torch.empty_strided((2, 3), (1, 2)).shape)
show("zeros_like dtype", lambda: torch.zeros_like(torch.ones(2), dtype=torch.int64))
show("full_like", lambda: torch.full_like(torch.ones(2, dtype=torch.int32), 7.9))
show("tensor nested", lambda: torch.tensor([[1, 2], [3, 4]], dtype=torch.float16))
show("tensor ragged", lambda: torch.tensor([[1, 2], [3]]))
show("tensor empty nested", lambda: torch.tensor([[], []]).shape)
show("tensor of tensors", lambda: torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]))
show("as_tensor list", lambda: torch.as_tensor([1, 2], dtype=torch.float32))
show("new_ones grad", lambda: torch.ones(1).new_ones(2, requires_grad=True))
show("randint float", lambda: torch.randint(0, 5, (3,), dtype=torch.float64).dtype)
show("randint high", lambda: torch.randint(5, 3, (2,)))
show("tril batch", lambda: torch.tril(torch.ones(2, 3, 3), diagonal=-1).sum((1, 2)))
show("triu neg", lambda: torch.triu(torch.arange(9).reshape(3, 3), -1))
show("heaviside", lambda: torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor([0.5])))
show("complex zeros", lambda: torch.zeros(2, dtype=torch.cfloat))
show("scalar_tensor", lambda: torch.scalar_tensor(3))
show("range", lambda: torch.range(0, 2) if hasattr(torch, "range") else None)
