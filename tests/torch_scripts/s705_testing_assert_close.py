import torch

torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-9]))
print("close")
try:
    torch.testing.assert_close(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))
except AssertionError as e:
    print("AssertionError", str(e).splitlines()[0])
    print([l.strip() for l in str(e).splitlines()[1:4]])
try:
    torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]))
except AssertionError as e:
    print("AssertionError", str(e).splitlines()[0])
torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]), check_dtype=False)
print("dtype ignored")
try:
    torch.testing.assert_close(torch.ones(2), torch.ones(3))
except AssertionError as e:
    print("AssertionError", str(e).splitlines()[0])
torch.testing.assert_close(torch.tensor([1.0]), torch.tensor([1.05]), rtol=0.1, atol=0.0)
torch.testing.assert_close(torch.tensor(float("nan")), torch.tensor(float("nan")), equal_nan=True)
torch.testing.assert_close({"a": torch.ones(2), "b": [torch.zeros(1)]}, {"a": torch.ones(2), "b": [torch.zeros(1)]})
print("nested ok")
t = torch.testing.make_tensor((2, 3), dtype=torch.float32, device="cpu", low=-1, high=1)
print(t.shape, t.dtype, bool((t >= -1).all() and (t <= 1).all()))
try:
    torch.testing.assert_close(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]))
except AssertionError as e:
    print("AssertionError", str(e).splitlines()[0])
