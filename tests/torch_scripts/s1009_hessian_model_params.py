# second derivatives of a tiny model: Hessian of loss wrt flat params with create_graph, hvp by double backward, jacobian of outputs
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) * (i + 1))
X = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.0, 1.0]])
y = torch.tensor([[0.5], [-0.2], [0.1]])
params = list(model.parameters())
loss = ((model(X) - y) ** 2).mean()
grads = torch.autograd.grad(loss, params, create_graph=True)
flat = torch.cat([g.reshape(-1) for g in grads])
print(flat.round(decimals=5))
v = torch.ones_like(flat)
hv = torch.autograd.grad(flat @ v, params, retain_graph=True)
print(torch.cat([h.reshape(-1) for h in hv]).round(decimals=5))
H = torch.stack([torch.cat([h.reshape(-1) for h in torch.autograd.grad(flat[i], params, retain_graph=True)]) for i in range(flat.numel())])
print(H.shape, torch.allclose(H, H.T, atol=1e-10), H.diagonal().round(decimals=4))
x0 = torch.tensor([[0.3, -0.4]], requires_grad=True)
J = torch.autograd.functional.jacobian(model, x0)
print(J.shape, J.round(decimals=5))
