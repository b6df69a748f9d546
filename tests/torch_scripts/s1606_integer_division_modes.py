# integer division and remainders: rounding modes, negative operands, floats, by zero
import torch

a = torch.tensor([7, -7, 7, -7])
b = torch.tensor([2, 2, -2, -2])
print(a // b, a % b, torch.div(a, b, rounding_mode="trunc"), torch.div(a, b, rounding_mode="floor"))
print(torch.div(a, b), torch.fmod(a, b), torch.remainder(a, b), torch.true_divide(a, b).dtype)
f = torch.tensor([7.5, -7.5])
print(f // 2, f % 2, torch.fmod(f, -2), torch.remainder(f, -2), torch.floor_divide(f, 2.0))
print(torch.tensor([1.0, -1.0, 0.0]) / 0, torch.tensor(5) / 0)
try:
    torch.tensor([1]) // torch.tensor([0])
except RuntimeError as e:
    print(e)
try:
    torch.tensor([1]) % 0
except RuntimeError as e:
    print(e)
x = torch.tensor([5.0, -3.0], requires_grad=True)
y = torch.div(x, 2.0, rounding_mode="floor")
y.sum().backward()
print(y, x.grad, y.grad_fn.name())
x.grad = None
r = torch.remainder(x, 2.0)
r.sum().backward()
print(r, x.grad, r.grad_fn.name())
