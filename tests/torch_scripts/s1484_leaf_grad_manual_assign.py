# assigning .grad by hand: shape/dtype checks, then an optimizer uses it
import torch

p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
p.grad = torch.tensor([0.5, -0.5])
torch.optim.SGD([p], lr=1.0).step()
print(p)
try:
    p.grad = torch.tensor([1.0, 2.0, 3.0])
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
try:
    p.grad = torch.tensor([1, 2])
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
p.grad = None
print(p.grad)
