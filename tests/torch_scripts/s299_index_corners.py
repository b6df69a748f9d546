import torch

x = torch.arange(24).reshape(2, 3, 4)
print(x[..., 1])
print(x[:, None, 1, ::2].shape)
print(x[1, [0, 2], 1:3])
print(x[[0, 1], :, [3, 0]].shape)
print(x[:, [0, 2]][:, :, [1]].squeeze(-1))
print(x[torch.tensor([[0, 1], [1, 0]])].shape)
print(x[x % 5 == 0])
print(x[torch.tensor([True, False])].shape)
print(x[-1, -1, -1], x[0, :, -2:])
print(x[:, 1:1].shape, x[5:].shape, x[:, ::-1 if False else 2].shape)
print(x[None, ..., None].shape)
i = torch.tensor([2, 0])
print(x[0][i], x[0, :, i].shape, x[:, i, i])
print(x.flatten()[torch.tensor([[1, 2], [3, 4]])])
y = torch.zeros(3, 4)
y[1] = 5
y[:, 0] = torch.tensor([1.0, 2.0, 3.0])
y[y > 4] = -1
y[[0, 2], [3, 3]] = torch.tensor([9.0, 8.0])
y[..., 1] += 0.5
print(y)
z = torch.arange(10.)
z[z.argsort(descending=True)[:3]] = 0
print(z)
try:
    x[2]
except IndexError as e:
    print("IndexError:", str(e)[:50])
try:
    x[0, 0, 0, 0]
except IndexError as e:
    print("IndexError:", str(e)[:40])
try:
    x[torch.tensor([True, False, True])]
except IndexError as e:
    print("IndexError:", e)
try:
    x[[0, 1], [0, 1, 2]]
except IndexError as e:
    print("IndexError:", e)
try:
    x[0, torch.tensor([True, False]), 1:]
except IndexError as e:
    print("IndexError:", e)
print(x[0, 1].item() if x[0, 1].numel() == 1 else x[0, 1].sum().item())
print(x[(0, 1)], x[[0, 1]].shape)
w = torch.arange(6.).reshape(2, 3).requires_grad_()
w[:, [2, 0]].sum().backward()
print(w.grad)
idx = torch.tensor([0, 0, 1])
w2 = torch.ones(3, requires_grad=True)
w2[idx].pow(2).mul(torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(w2.grad)
print(x.index_select(2, torch.tensor([3, 3])).shape, x.narrow(1, 1, 2).shape, x.take(torch.tensor([0, 23])))
