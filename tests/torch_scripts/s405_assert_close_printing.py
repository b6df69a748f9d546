import torch
from torch.testing import assert_close

a = torch.tensor([1.0, 2.0, 3.0])
assert_close(a, a + 1e-9)
assert_close(a.float(), a.float() + 1e-7)
for other, kw in [(a + 1e-3, {}), (a.float(), {}), (a.long(), {"check_dtype": False}), (torch.tensor([1.0, 2.0]), {}),
                  (a * 1.01, {"rtol": 0.02, "atol": 0.0}), (torch.tensor([1.0, float("nan"), 3.0]), {}),
                  ([1.0, 2.0, 3.0], {})]:
    try:
        assert_close(a, other, **kw)
        print("close")
    except (AssertionError, TypeError, ValueError) as e:
        print(type(e).__name__, str(e).splitlines()[0])
n = torch.tensor([float("nan"), 1.0])
assert_close(n, n.clone(), equal_nan=True)
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.5]), torch.tensor([[1e-5, 1e5]]))
torch.set_printoptions(profile="default")
print(torch.arange(2000.0), torch.tensor([1.0, 2.0], requires_grad=True) * 2)
print(torch.zeros(2, 0), torch.tensor([], dtype=torch.long), torch.tensor(True), torch.tensor([1e20, 1.0]))
print(repr(torch.tensor([0.1, 0.25], dtype=torch.float32)), str(torch.tensor(3, dtype=torch.int8)), torch.tensor([[1, 2], [3, 4]], dtype=torch.uint8))
print(f"{torch.tensor(3.14159):.2f}", format(torch.tensor(2.0), ".3e"), "%.1f" % torch.tensor(1.25), torch.tensor(7).__format__("d"))
print(torch.tensor([float("inf"), -float("inf"), float("nan"), 0.0]), torch.tensor([1.5, -2.0]).half())
print(torch.nn.Parameter(torch.tensor([1.0, 2.0])), torch.tensor([1, 2]).view(1, 2, 1))
