import torch

torch.set_printoptions(precision=5)
w = torch.tensor([0.5, -0.3], requires_grad=True)
xs = torch.tensor([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]])
ys = torch.tensor([1.0, 0.0, 2.0])


def task_loss(w, scale):
    return ((xs @ w - scale * ys) ** 2).mean()


def adapt(w, scale, steps=3, lr=0.1):
    for _ in range(steps):
        g, = torch.autograd.grad(task_loss(w, scale), w, create_graph=True)
        w = w - lr * g
    return w


meta = sum(task_loss(adapt(w, s), s) for s in (0.5, 1.0, 2.0))
meta.backward()
print(round(meta.item(), 6), w.grad)
w.grad = None
fo = 0.0
for s in (0.5, 1.0, 2.0):
    wa = w.detach().clone().requires_grad_(True)
    for _ in range(3):
        g, = torch.autograd.grad(task_loss(wa, s), wa)
        wa = (wa - 0.1 * g).detach().requires_grad_(True)
    l = task_loss(wa, s)
    fo = fo + torch.autograd.grad(l, wa)[0]
print(fo)
lam = torch.tensor(0.1, requires_grad=True)
x = torch.zeros(2, requires_grad=True)
inner = lambda x: ((xs @ x - ys) ** 2).mean() + lam * (x ** 2).sum()
for _ in range(20):
    g, = torch.autograd.grad(inner(x), x, create_graph=True)
    x = x - 0.2 * g
val = ((xs[:2] @ x - ys[:2]) ** 2).mean()
val.backward()
print(x.detach(), round(val.item(), 6), round(lam.grad.item(), 6))
