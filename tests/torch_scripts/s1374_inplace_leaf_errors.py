# in-place ops on leaves requiring grad and on their views, and under no_grad
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
for op in [lambda: x.add_(1), lambda: x[0].mul_(2), lambda: x.view(2).zero_(), lambda: x.copy_(torch.zeros(2))]:
    try:
        op()
    except RuntimeError as e:
        print("RuntimeError", str(e))
with torch.no_grad():
    x.mul_(3)
    x[1] = -1.0
print(x, x.is_leaf, x.grad_fn)
y = x.clone()
y[0] = 10.0
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
