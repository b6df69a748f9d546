# "Gradient descent from scratch" posts: a loss surface, manual GD with torch.no_grad, momentum by hand,
# comparison with torch.optim.SGD, trajectory stored with .clone().tolist()
import torch


def loss_fn(p):
    x, y = p[0], p[1]
    return (1 - x) ** 2 + 5 * (y - x ** 2) ** 2


p = torch.tensor([-1.0, 1.5], requires_grad=True)
trajectory = [p.detach().clone().tolist()]
lr = 0.01
for i in range(200):
    loss = loss_fn(p)
    loss.backward()
    with torch.no_grad():
        p -= lr * p.grad
    p.grad.zero_()
    if i % 50 == 49:
        trajectory.append([round(v, 5) for v in p.detach().clone().tolist()])
print(trajectory, f"{loss_fn(p).item():.6f}")
p2 = torch.tensor([-1.0, 1.5], requires_grad=True)
v = torch.zeros(2)
for i in range(200):
    loss = loss_fn(p2)
    g, = torch.autograd.grad(loss, p2)
    with torch.no_grad():
        v = 0.9 * v + g
        p2 -= lr * v
print("manual momentum", p2.detach().round(decimals=5))
p3 = torch.tensor([-1.0, 1.5], requires_grad=True)
opt = torch.optim.SGD([p3], lr=lr, momentum=0.9)
for i in range(200):
    opt.zero_grad()
    loss_fn(p3).backward()
    opt.step()
print("optim momentum", p3.detach().round(decimals=5), torch.allclose(p2, p3))
xs = torch.linspace(-2, 2, 5)
X, Y = torch.meshgrid(xs, xs, indexing="xy")
Z = loss_fn(torch.stack([X, Y]))
print(Z.shape, Z.argmin(), Z.min().item(), divmod(Z.argmin().item(), 5))
