import torch

t = torch.tensor([[1.5, 2.0], [3.0, -0.5]])
print(t.tolist(), t[0].tolist(), t[0, 0].tolist(), type(t[0, 0].item()).__name__)
print(torch.tensor([1, 2]).tolist(), type(torch.tensor(7).item()).__name__, torch.tensor(True).item())
print(t.sum().item(), t.max().item(), t.argmax().item(), int(t.argmax()))
print(t > 1, t == 2, 2 == t, 1 < t, t != 3.0, (t >= 2).tolist())
print((t > 1).sum().item(), (t > 1).float().mean().item(), bool((t < 5).all()))
if t.max() > 2:
    print("max above 2")
print(t[0, 0] == 1.5, float(t[0, 0]) == 1.5, t[1, 1] < 0, abs(t[1, 1]), -t[0, 1])
print(round(t[0, 0].item()), round(float(t.mean()), 3), max(t[0]).item(), min(t.flatten().tolist()))
print(sum(t.flatten()), sum(t.flatten().tolist()), list(t[1]), [v.item() for v in t[0]])
print(t.eq(2).any(), torch.equal(t, t.clone()), t.allclose(t + 1e-9), torch.isclose(t, torch.tensor(2.0)))
print(t.lt(0).nonzero().tolist(), t.ge(1.5).logical_and(t.le(2)))
x = torch.tensor(0.1 + 0.2)
print(x == 0.3, torch.isclose(x, torch.tensor(0.3)), x.item() == 0.1 + 0.2)
f32 = torch.tensor(0.1, dtype=torch.float32)
print(f32.item(), f32 == 0.1, f32.double().item())
print(torch.tensor([1, 2, 3]) == torch.tensor([1, 5, 3]), torch.tensor([1, 2]) < 1.5)
print(torch.tensor([3.7, -3.7]).int().tolist(), torch.tensor([2.5, 3.5, -2.5]).round().tolist())
try:
    t.item()
except RuntimeError as e:
    print("RuntimeError", e)
try:
    bool(t)
except RuntimeError as e:
    print("RuntimeError", str(e)[:62])
print(len(t), t.numel(), t.nelement(), t.dim(), t.ndimension(), t.size(-1), t.shape[0])
print(t.sum(dim=0).tolist(), torch.tensor([[1, 2]]).squeeze().tolist(), t.T.tolist())
print(hash(torch.Size([2, 3])) == hash((2, 3)), torch.Size([2, 3]) == (2, 3), t.shape == (2, 2))
