# cumprod gradients with one and two zeros, and prod gradient with zeros along dims
import torch

for vals in [[2.0, 0.0, 3.0, 4.0], [0.0, 2.0, 0.0, 5.0], [1.0, 2.0, 3.0, 0.0]]:
    x = torch.tensor(vals, requires_grad=True)
    torch.cumprod(x, 0).sum().backward()
    g1 = x.grad.clone()
    x.grad = None
    x.prod().backward()
    print(g1, x.grad)
m = torch.tensor([[0.0, 2.0], [3.0, 0.0], [0.0, 0.0]], requires_grad=True)
m.prod(1).sum().backward()
print(m.grad)
