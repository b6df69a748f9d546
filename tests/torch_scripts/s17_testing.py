import torch
a = torch.tensor([1.0, 2.0, 3.0])
b = a + 1e-7
torch.testing.assert_close(a, b)
print(torch.allclose(a, b), torch.allclose(a, b, rtol=0, atol=0), torch.isclose(a, b + 0.1), torch.equal(a, a.clone()))
try:
    torch.testing.assert_close(a, a + 1)
except AssertionError as e:
    print("AssertionError", str(e).splitlines()[0])
torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1, 2]))
torch.testing.assert_close(1.0, 1.0 + 1e-9)
torch.testing.assert_close(a, torch.tensor([1.0, 2.0, 3.0]), rtol=1e-5, atol=1e-8)
torch.testing.assert_close([a, a], [a, b])
torch.testing.assert_close({'x': a}, {'x': b})
try:
    torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]))
except AssertionError as e:
    print("AssertionError", e)
torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]), check_dtype=False)
torch.testing.assert_close(torch.tensor(float('nan')), torch.tensor(float('nan')), equal_nan=True)
print(torch.testing.make_tensor((2, 3), dtype=torch.float32, device='cpu').shape)
try:
    torch.testing.assert_close(torch.ones(2), torch.ones(3))
except AssertionError as e:
    print("AssertionError", e)
