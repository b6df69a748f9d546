# Adam's update written by hand matches torch.optim.Adam (with weight_decay and amsgrad off)
import torch

def f(p):
    return (p[0] - 1) ** 2 + 10 * (p[1] + 0.5) ** 2 + p[0] * p[1]
p1 = torch.tensor([2.0, 2.0], requires_grad=True)
opt = torch.optim.Adam([p1], lr=0.1, betas=(0.9, 0.99), eps=1e-8, weight_decay=0.01)
p2 = torch.tensor([2.0, 2.0])
m = torch.zeros(2); v = torch.zeros(2)
for t in range(1, 21):
    opt.zero_grad(); f(p1).backward(); opt.step()
    q = p2.clone().requires_grad_()
    g = torch.autograd.grad(f(q), q)[0] + 0.01 * p2
    m = 0.9 * m + 0.1 * g
    v = 0.99 * v + 0.01 * g * g
    mh = m / (1 - 0.9 ** t); vh = v / (1 - 0.99 ** t)
    p2 = p2 - 0.1 * mh / (vh.sqrt() + 1e-8)
print(p1.detach(), p2)
print(torch.allclose(p1.detach(), p2))
print(sorted(opt.state[p1].keys()), opt.state[p1]["step"])
