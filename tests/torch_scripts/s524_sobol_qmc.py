import math
import torch
from torch.quasirandom import SobolEngine

eng = SobolEngine(dimension=2, scramble=False)
pts = eng.draw(8)
print(pts)
print(pts.dtype, eng.num_generated)
more = eng.draw(4, dtype=torch.float64)
print(more.dtype, more[0])
eng.reset()
print(torch.equal(eng.draw(8), pts))
eng.fast_forward(2)
print(eng.draw(1))
# quasi Monte Carlo estimate of pi
eng = SobolEngine(2)
u = eng.draw(1024, dtype=torch.float64)
inside = ((u ** 2).sum(1) <= 1).double().mean() * 4
print(round(inside.item(), 4), abs(inside.item() - math.pi) < 0.01)
# differentiable QMC integral: d/da of int_[0,1]^2 exp(-a |u|^2) du
a = torch.tensor(1.0, requires_grad=True)
est = torch.exp(-a * (u ** 2).sum(1)).mean()
est.backward()
print(round(est.item(), 5), round(a.grad.item(), 5))
exact = (math.sqrt(math.pi) / 2 * math.erf(1.0)) ** 2
print(abs(est.item() - exact) < 1e-3)
e3 = SobolEngine(3, scramble=False)
print(e3.draw_base2(2).shape, e3.num_generated)
z = torch.erfinv(2 * u[1:5] - 1) * math.sqrt(2)
print(z.round(decimals=4))
