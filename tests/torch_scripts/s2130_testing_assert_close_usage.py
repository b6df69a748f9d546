import torch
from torch.testing import assert_close

a = torch.tensor([1.0, 2.0, 3.0])
assert_close(a, a + 1e-9)
print("close within default tolerance")
try:
    assert_close(a, a + 1e-3)
except AssertionError as e:
    first = str(e).splitlines()[0]
    print("AssertionError:", first)
assert_close(a, a + 1e-3, rtol=0, atol=1e-2)
print("ok with atol")
try:
    assert_close(a, a.float())
except AssertionError as e:
    print("dtype:", str(e).splitlines()[0])
assert_close(a, a.float(), check_dtype=False)
n = torch.tensor([float("nan"), 1.0])
try:
    assert_close(n, n.clone())
except AssertionError:
    print("nan differs by default")
assert_close(n, n.clone(), equal_nan=True)
assert_close([a, {"k": a * 2}], [a.clone(), {"k": a * 2}])
print("nested containers ok")
try:
    assert_close(torch.ones(2), torch.ones(3))
except AssertionError as e:
    print("shape:", str(e).splitlines()[0])
assert_close(torch.tensor(1), torch.tensor(1))
x = torch.tensor([0.5, 1.5], requires_grad=True)
assert_close(x * 2, torch.tensor([1.0, 3.0]))
print("requires_grad ignored")
try:
    assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5]), msg="custom message")
except AssertionError as e:
    print(str(e))
