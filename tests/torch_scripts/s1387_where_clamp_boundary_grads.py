# gradients of clamp/where/masked_fill/max at exact boundaries and ties
import torch

x = torch.tensor([-1.0, 0.0, 0.5, 1.0, 2.0], requires_grad=True)
x.clamp(0.0, 1.0).sum().backward(); print(x.grad); x.grad = None
x.clamp(min=0.5).sum().backward(); print(x.grad); x.grad = None
torch.clamp(x, max=torch.tensor(1.0)).sum().backward(); print(x.grad); x.grad = None
x.clip(torch.zeros(5), torch.ones(5)).sum().backward(); print(x.grad); x.grad = None
torch.where(x >= 0.5, x ** 2, -x).sum().backward(); print(x.grad); x.grad = None
x.masked_fill(x == 0, 3.0).mul(2).sum().backward(); print(x.grad); x.grad = None
torch.maximum(x, torch.tensor(0.5)).sum().backward(); print(x.grad); x.grad = None
torch.minimum(x, x.detach().flip(0)).sum().backward(); print(x.grad); x.grad = None
t = torch.tensor([1.0, 3.0, 3.0, 2.0], requires_grad=True)
t.max().backward(); print(t.grad); t.grad = None
t.amax().backward(); print(t.grad); t.grad = None
t.max(dim=0).values.backward(); print(t.grad); t.grad = None
torch.relu(x - 1).sum().backward(); print(x.grad); x.grad = None
torch.nn.functional.hardtanh(x, 0.0, 1.0).sum().backward(); print(x.grad); x.grad = None
torch.nn.functional.relu6(x * 6).sum().backward(); print(x.grad); x.grad = None
