import torch

t = torch.arange(24.0).reshape(2, 3, 4)
print(t.sum(dim=(0, 2)), t.sum((1, 2), keepdim=True).shape, t.mean(dim=(-1, -2)), t.sum(dim=()).shape if False else t.sum().shape)
print(t.amax(dim=(0, 1)), t.amin(dim=(1, 2), keepdim=True).squeeze(), t.max(dim=1).indices, t.min(dim=-1, keepdim=True).values.shape)
print(t.std(dim=1, correction=0).round(decimals=4), t.var(dim=2, unbiased=False)[0], t.std(dim=(0, 2)).round(decimals=4))
print(torch.var(t, dim=0, keepdim=True, correction=2).shape, torch.var_mean(t, dim=(1, 2)), torch.std_mean(t[0], dim=0, correction=0))
print(t.prod(dim=0)[0], torch.tensor([[1, 2], [3, 4]]).prod(dim=1, dtype=torch.float64), torch.tensor([1, 2, 3], dtype=torch.int8).sum(dtype=torch.int8))
print(torch.logsumexp(t[0], dim=(0, 1)).round(decimals=4), torch.logsumexp(t, dim=1, keepdim=True).shape)
print(torch.norm(t[0]), torch.norm(t[0], p="fro", dim=(0, 1)), torch.norm(t, p=1, dim=2), torch.norm(t[0], p=float("inf"), dim=1))
print(torch.median(torch.tensor([4.0, 1.0, 3.0, 2.0])), torch.median(t[0], dim=1), torch.tensor([[1, 2, 2, 3, 3]]).mode(dim=1))
print(torch.quantile(torch.tensor([1.0, 2.0, 3.0, 4.0]), 0.4, interpolation="lower"), torch.quantile(t[0], torch.tensor([0.1, 0.9]), dim=1, keepdim=True).shape)
b = t > 10
print(b.all(dim=2), b.any(dim=(0, 1)), torch.all(b, dim=0, keepdim=True).shape, b.sum(dim=1), b.float().mean())
print(torch.count_nonzero(t % 5 == 0, dim=(0, 2)), torch.count_nonzero(t), t.argmax(), t.argmax(dim=2, keepdim=True).shape)
print(t.sum(dtype=torch.float32).dtype, torch.tensor([True, True, False]).sum(), torch.tensor([1, 2], dtype=torch.int32).mean(dtype=torch.float32))
try:
    torch.tensor([1, 2, 3]).mean()
except RuntimeError as e:
    print("RuntimeError", "Got: Long" in str(e))
try:
    torch.tensor([1, 2, 3]).std()
except RuntimeError as e:
    print("RuntimeError", type(e).__name__)
print(torch.empty(0).sum(), torch.empty(0, 3).sum(0), torch.empty(0).mean(), torch.empty(0).prod())
try:
    torch.empty(0).max()
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.empty(2, 0).amax(dim=0) if False else torch.empty(2, 0).sum(1), torch.aminmax(t[1]), torch.aminmax(t, dim=0).max.shape)
w = torch.tensor([[1.0, 4.0, 2.0], [3.0, 3.0, 0.5]], requires_grad=True)
(w.amax(dim=(0, 1)) + w.max(dim=1).values.sum() + w.std(dim=0).sum() + w.norm(dim=1).sum() + w.median() + w.logsumexp(dim=(0, 1))).backward()
print(w.grad.round(decimals=6))
