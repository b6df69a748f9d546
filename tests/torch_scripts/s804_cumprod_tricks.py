# cumsum/cumprod tricks: discounted returns via flip-cumsum, exclusive cumsum, cumprod for
# survival probabilities, running mean, reset-at-mask cumsum, logcumsumexp
import torch

r = torch.tensor([1.0, 0.0, 2.0, 1.0])
gamma = 0.9
disc = gamma ** torch.arange(4.0)
ret = (r * disc).flip(0).cumsum(0).flip(0) / disc
print(ret)
x = torch.tensor([3, 1, 4, 1, 5])
print(torch.cumsum(x, 0) - x, torch.cat([torch.zeros(1, dtype=x.dtype), x.cumsum(0)[:-1]]))
haz = torch.tensor([0.1, 0.2, 0.5, 0.3])
print(torch.cumprod(1 - haz, 0), torch.cumprod(1 - haz, 0).dtype)
vals = torch.tensor([2.0, 4.0, 6.0, 8.0])
print(vals.cumsum(0) / torch.arange(1, 5))
m = torch.tensor([0, 0, 1, 0, 0, 1, 0])
ones = torch.ones(7)
c = ones.cumsum(0)
reset = torch.cummax(torch.where(m.bool(), c - 1, torch.zeros(7)), 0).values
print(c - reset)
print(torch.logcumsumexp(torch.tensor([0.0, 1.0, 2.0]), 0), torch.logcumsumexp(torch.zeros(2, 3), 1))
print(torch.cumsum(torch.tensor([True, True, False]), 0).dtype, torch.cumsum(torch.tensor([1, 2], dtype=torch.int8), 0).dtype)
print(torch.cumsum(torch.tensor([1, 2]), 0, dtype=torch.float32), torch.cumprod(torch.tensor([[1, 2], [3, 4]]), 1))
p = torch.tensor([0.5, 2.0, 3.0], requires_grad=True)
p.cumprod(0).sum().backward()
print(p.grad)
q = torch.tensor([1.0, 0.0, 3.0], requires_grad=True)
q.cumprod(0).sum().backward()
print(q.grad)
print(torch.cummin(torch.tensor([5, 3, 4, 1, 2]), 0))
