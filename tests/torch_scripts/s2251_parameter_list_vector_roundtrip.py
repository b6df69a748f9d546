import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters


class Poly(nn.Module):
    def __init__(self, degree):
        super().__init__()
        self.coeffs = nn.ParameterList([nn.Parameter(torch.tensor(0.0)) for _ in range(degree + 1)])
        self.scale = nn.ParameterList()
        self.scale.append(nn.Parameter(torch.ones(1)))

    def forward(self, x):
        return self.scale[0] * sum(c * x ** k for k, c in enumerate(self.coeffs))


xs = torch.linspace(-1, 1, 15)
ys = 1 - 2 * xs + 0.5 * xs ** 3
model = Poly(3)
print(len(model.coeffs), [n for n, _ in model.named_parameters()])
opt = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=50, line_search_fn="strong_wolfe")
def closure():
    opt.zero_grad()
    loss = ((model(xs) - ys) ** 2).mean()
    loss.backward()
    return loss
opt.step(closure)
vec = parameters_to_vector(model.parameters())
print(vec.shape, (vec[:4] * vec[4]).round(decimals=5))
other = Poly(3)
vector_to_parameters(vec.detach() * 2, other.parameters())
print([round(p.item(), 4) for p in other.coeffs], other.scale[0].item().__round__(4))
print(torch.allclose(other(xs), 4 * model(xs).detach(), atol=1e-8))
model.coeffs.extend([nn.Parameter(torch.tensor(9.0))])
print(len(model.coeffs), model.coeffs[-1].item(), model.coeffs)
try:
    vector_to_parameters(torch.zeros(3), other.parameters())
except (RuntimeError, ValueError) as e:
    print(type(e).__name__)
grads = torch.autograd.grad(((model(xs) - ys) ** 2).sum(), list(model.parameters()))
print(parameters_to_vector(grads).shape)
