# per-sample gradients with vmap(grad(...)) and functional_call, the torch.func tutorial way
import torch
import torch.nn as nn
from torch.func import functional_call, vmap, grad

model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.2, -0.1, 0.4]]))
    model.bias.fill_(0.1)
params = {k: v.detach() for k, v in model.named_parameters()}
X = torch.tensor([[1.0, 0.0, 2.0], [0.5, -1.0, 1.0], [0.0, 0.0, 0.0]])
Y = torch.tensor([1.0, 0.0, -1.0])

def loss(p, x, y):
    pred = functional_call(model, p, (x.unsqueeze(0),)).squeeze()
    return (pred - y) ** 2

g = vmap(grad(loss), in_dims=(None, 0, 0))(params, X, Y)
print(g["weight"], g["bias"])
full = torch.autograd.grad(sum(loss(params | {}, X[i], Y[i]) for i in range(3)) if False else
                           ((model(X).squeeze() - Y) ** 2).sum(), list(model.parameters()))
print(torch.allclose(full[0], g["weight"].sum(0)), torch.allclose(full[1], g["bias"].sum(0)))
