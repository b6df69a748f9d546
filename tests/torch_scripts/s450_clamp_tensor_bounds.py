import torch

x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0, 3.0], requires_grad=True)
lo = torch.tensor([-1.0, -1.0, 0.0, 1.0, 1.0, 1.0], requires_grad=True)
hi = torch.tensor([1.0, 0.0, 0.0, 2.0, 1.5, 4.0], requires_grad=True)
y = torch.clamp(x, min=lo, max=hi)
y.backward(torch.arange(1.0, 7.0))
print(y.detach(), x.grad, lo.grad, hi.grad)
z = x.detach().clamp(min=torch.tensor(1.0), max=torch.tensor([0.0]))
print(z)
print(torch.clamp(x.detach(), min=2.0, max=1.0), torch.clip(x.detach(), -1, 1))
x.grad = None
x.clamp_min(0.25).sum().backward()
print(x.grad)
x.grad = None
x.clamp_max(torch.zeros(6)).sum().backward()
print(x.grad)
iv = torch.tensor([-5, 0, 7])
print(iv.clamp(-2, 3), iv.clamp(min=torch.tensor([0, 1, 2])), iv.clamp(0.5).dtype)
r = torch.tensor([[1.0, 5.0], [-3.0, 0.5]])
print(r.clamp(min=torch.tensor([0.0, 1.0]), max=torch.tensor([[2.0], [0.75]])))
try:
    torch.clamp(x)
except RuntimeError as e:
    print("RuntimeError:", e)
w = torch.tensor([0.1, 0.9, 1.5], requires_grad=True)
torch.clamp(w, 0.1, 0.9).sum().backward()
print(w.grad)
q = torch.tensor([1.0, float("nan"), -float("inf")])
print(q.clamp(0, 1), torch.clamp(q, max=torch.tensor([0.5, 0.5, 0.5])))
