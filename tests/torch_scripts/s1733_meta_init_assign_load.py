# Large-model loading idioms in small: build on the meta device (with torch.device("meta")),
# to_empty(device="cpu"), load_state_dict(assign=True), state_dict(keep_vars=True),
# get_submodule / get_parameter, and a register_parametrization constraint trained after
import io
import numpy as np
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P


class Positive(nn.Module):
    def forward(self, X):
        return nn.functional.softplus(X)

    def right_inverse(self, Y):
        return torch.log(torch.expm1(Y))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
        self.scale = nn.Parameter(torch.ones(2))
        self.register_buffer("offset", torch.zeros(2))

    def forward(self, x):
        return self.body(x) * self.scale + self.offset


rng = np.random.default_rng(801)
src = Model()
with torch.no_grad():
    for p in src.parameters():
        p.copy_(torch.from_numpy(rng.uniform(0.1, 0.9, tuple(p.shape))))
    src.offset.fill_(0.25)
buf = io.BytesIO()
torch.save(src.state_dict(), buf)
with torch.device("meta"):
    model = Model()
model = model.to_empty(device="cpu")
buf.seek(0)
sd = torch.load(buf, map_location="cpu", weights_only=True)
print(model.load_state_dict(sd, assign=True))
print(model.body[0].weight is not None, type(model.body[0].weight).__name__, model.body[0].weight.requires_grad)
X = torch.from_numpy(rng.standard_normal((5, 4)))
print(torch.equal(model(X), src(X)))
kv = model.state_dict(keep_vars=True)
print(type(kv["scale"]).__name__, kv["scale"].requires_grad, kv["offset"].requires_grad)
print(model.get_submodule("body.2"), tuple(model.get_parameter("body.2.bias").shape), model.get_buffer("offset"))
P.register_parametrization(model, "scale", Positive())
print(model.scale.detach().numpy().round(6), model.parametrizations.scale.original.detach().numpy().round(6))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
y = torch.from_numpy(rng.standard_normal((5, 2)))
for it in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}", model.scale.detach().numpy().round(5))
print(sorted(model.state_dict().keys()))
