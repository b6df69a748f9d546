# RK4 integration of a damped oscillator; gradients of the final state w.r.t. damping
import torch

c = torch.tensor(0.3, requires_grad=True)
k = torch.tensor(2.0)


def rhs(s):
    x, v = s[0], s[1]
    return torch.stack([v, -k * x - c * v])


s = torch.tensor([1.0, 0.0])
h = 0.1
for _ in range(20):
    k1 = rhs(s)
    k2 = rhs(s + 0.5 * h * k1)
    k3 = rhs(s + 0.5 * h * k2)
    k4 = rhs(s + h * k3)
    s = s + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
print(s.detach())
s[0].backward()
print(c.grad)
