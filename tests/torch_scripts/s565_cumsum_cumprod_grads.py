import torch

x = torch.tensor([2.0, 0.0, 3.0, -1.0, 0.5], requires_grad=True)
c = torch.cumprod(x, dim=0)
print(c)
c.sum().backward()
print(x.grad)
x.grad = None
torch.cumsum(x * x, 0).sum().backward()
print(x.grad)
m = torch.tensor([[3, 1, 4], [1, 5, 9], [2, 6, 5]])
print(torch.cummax(m, dim=0))
vals, idx = torch.cummin(m, dim=1)
print(vals, idx)
print(m.cumsum(1), m.cumsum(dim=0, dtype=torch.float32), m.cumprod(1).dtype)
b = torch.tensor([True, False, True, True])
print(b.cumsum(0), b.cumsum(0).dtype)
r = torch.tensor([0.1, 0.2, 0.3, 0.4])
print(torch.logcumsumexp(r.log(), 0).exp(), r.cumsum(0))
rets = torch.tensor([0.01, -0.02, 0.03, 0.0, -0.01])
wealth = (1 + rets).cumprod(0)
drawdown = 1 - wealth / wealth.cummax(0).values
print(wealth.round(decimals=6), drawdown.max().round(decimals=6))
y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
z = torch.cummax(y * torch.tensor([1.0, -1.0, 2.0]), 0).values
z.sum().backward()
print(z, y.grad)
a = torch.arange(1, 7.0).reshape(2, 3)
print(a.cumsum(-1), torch.cumulative_trapezoid(a, dim=1), a.flip(1).cumsum(1).flip(1))
gamma = 0.9
rew = torch.tensor([1.0, 0.0, 0.0, 2.0])
disc = torch.zeros_like(rew)
run = 0.0
for t in reversed(range(len(rew))):
    run = rew[t] + gamma * run
    disc[t] = run
print(disc)
print(torch.diff(torch.tensor([1, 4, 9, 16]), n=2), torch.diff(a, dim=1, prepend=torch.zeros(2, 1)))
