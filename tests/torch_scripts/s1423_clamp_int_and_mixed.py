# clamp on integer tensors with float bounds, tensor bounds, and min > max
import torch

i = torch.tensor([-5, 0, 3, 9])
print(i.clamp(0, 5), i.clamp(min=1.5).dtype, i.clamp(max=torch.tensor(2)), i.clamp(torch.tensor([0, 1, 2, 3])))
f = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
c = f.clamp(min=1.0, max=0.0)
print(c)
c.sum().backward()
print(f.grad)
try:
    i.clamp()
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.clamp(torch.tensor([float("nan"), 1.0]), 0.0, 0.5))
