import torch

s = torch.tensor(3.0, requires_grad=True)
print(s.shape, s.dim(), s.numel(), s.item(), s.tolist(), s[None].shape, s.unsqueeze(0).shape, s.reshape(1, 1).shape)
y = s * torch.tensor([1.0, 2.0])
y.sum().backward()
print(s.grad)
print(torch.tensor(2) + torch.tensor([1.5]), (torch.tensor(2) * torch.ones(2, dtype=torch.float32)).dtype)
print(torch.tensor(5).max(), torch.tensor(5.0).sum(0), torch.tensor(5.0).mean(dim=0), torch.tensor(5.0).softmax(0))
print(torch.tensor(2.0).expand(3), torch.tensor(2.0).repeat(2), torch.tensor(1.0).flatten(), torch.tensor([[7]]).squeeze())
print(torch.tensor(4.0).sort(), torch.tensor(4.0).topk(1), torch.tensor(4.0).argmax(), torch.tensor(4.0).cumsum(0))
print(torch.tensor(3.0).view(1), torch.tensor(3.0).t(), torch.tensor(3.0).T, torch.tensor([3.0]).dot(torch.tensor([2.0])))
print(torch.stack([torch.tensor(1.0), torch.tensor(2.0)]), torch.cat([torch.tensor([1.0]), torch.tensor([2.0])]))
print(torch.tensor(1.5).round(), torch.tensor(-0.5).round(), torch.tensor(2.5).round(), torch.tensor(0.125).round(decimals=2))
print(float(torch.tensor([[2.5]])), torch.tensor([4.0]).item(), torch.tensor(3) // 2, torch.tensor(-3) // 2, -7 % torch.tensor(3))
print(torch.tensor(2.0) ** torch.tensor(3), 2 ** torch.tensor(0.5), torch.tensor(9.0) ** 0.5, pow(torch.tensor(2.0), 3))
print(abs(torch.tensor(-2)), -torch.tensor(True) if False else ~torch.tensor(True), divmod(7, 2), round(torch.tensor(2.567).item(), 2))
print(max(torch.tensor(1.0), torch.tensor(2.0)), sum(torch.tensor([1.0, 2.0, 3.0])), sorted(torch.tensor([3, 1, 2]).tolist()))
print(torch.tensor(3.0) == 3, torch.tensor([1, 2]) == torch.tensor([1, 3]), torch.tensor(1.0) in torch.tensor([0.0, 1.0]))
print(len(torch.ones(4, 2)), list(torch.arange(3)), [int(v) for v in torch.arange(3)], tuple(torch.tensor([1.5, 2.5]).tolist()))
print(hash(torch.ones(1)) is not None, bool(torch.tensor(0.0)), torch.tensor([]).numel() == 0)
try:
    len(torch.tensor(1.0))
except TypeError as e:
    print("TypeError", e)
try:
    bool(torch.tensor([1, 2]))
except RuntimeError as e:
    print("RuntimeError", str(e)[:61])
