# The same model trained by each torch.optim optimizer from the same start (a comparison
# table as in blog posts): SGD, momentum, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax,
# NAdam, RAdam, ASGD, Rprop; final losses and one parameter
import copy
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(621)
X = torch.from_numpy(rng.standard_normal((30, 3)))
y = torch.from_numpy(np.tanh(X.numpy() @ np.array([1.0, -0.5, 2.0]))[:, None])
base = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1))
with torch.no_grad():
    for p in base.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.5, tuple(p.shape))))
makers = {
    "SGD": lambda p: torch.optim.SGD(p, lr=0.1),
    "Momentum": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, dampening=0.1),
    "Adam": lambda p: torch.optim.Adam(p, lr=0.02),
    "AdamW": lambda p: torch.optim.AdamW(p, lr=0.02, weight_decay=0.1),
    "RMSprop": lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.5),
    "Adagrad": lambda p: torch.optim.Adagrad(p, lr=0.1, initial_accumulator_value=0.1),
    "Adadelta": lambda p: torch.optim.Adadelta(p, lr=1.0, rho=0.9),
    "Adamax": lambda p: torch.optim.Adamax(p, lr=0.02),
    "NAdam": lambda p: torch.optim.NAdam(p, lr=0.02, momentum_decay=0.004),
    "RAdam": lambda p: torch.optim.RAdam(p, lr=0.02, decoupled_weight_decay=True, weight_decay=0.01),
    "ASGD": lambda p: torch.optim.ASGD(p, lr=0.05, t0=3),
    "Rprop": lambda p: torch.optim.Rprop(p, lr=0.01, etas=(0.5, 1.2), step_sizes=(1e-6, 1)),
}
for name, make in makers.items():
    model = copy.deepcopy(base)
    opt = make(model.parameters())
    for step in range(10):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X), y)
        loss.backward()
        opt.step()
    print(f"{name:9s} {loss.item():.7f} {model[2].bias.item():+.6f}")
print(sorted(opt.state[model[2].bias].keys()))
