# Early stopping on validation loss: the best model's state_dict is saved into an
# io.BytesIO buffer with torch.save and restored with torch.load + load_state_dict
import copy
import io
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(61)
X = rng.uniform(-1, 1, (80, 3))
y = np.sin(3 * X[:, :1]) + X[:, 1:2] * X[:, 2:3] + 0.3 * rng.standard_normal((80, 1))
Xt, yt = torch.from_numpy(X[:60]), torch.from_numpy(y[:60])
Xv, yv = torch.from_numpy(X[60:]), torch.from_numpy(y[60:])


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(3, 32)
        self.out = nn.Linear(32, 1)

    def forward(self, x):
        return self.out(torch.sigmoid(self.hidden(x)))


class EarlyStopping:
    def __init__(self, patience=3, min_delta=1e-4):
        self.patience, self.min_delta = patience, min_delta
        self.best, self.count, self.buffer = float("inf"), 0, None

    def step(self, val_loss, model):
        if val_loss < self.best - self.min_delta:
            self.best, self.count = val_loss, 0
            self.buffer = io.BytesIO()
            torch.save(model.state_dict(), self.buffer)
            return False
        self.count += 1
        return self.count >= self.patience


model = Regressor()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.from_numpy(np.random.default_rng(7 + i).normal(0, 1.0, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=0.08)
stopper = EarlyStopping(patience=4)
loss_fn = nn.MSELoss()
for epoch in range(60):
    model.train()
    opt.zero_grad()
    loss = loss_fn(model(Xt), yt)
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        val = loss_fn(model(Xv), yv).item()
    if epoch % 5 == 0:
        print(f"epoch {epoch} train {loss.item():.5f} val {val:.5f}")
    if stopper.step(val, model):
        print(f"stopped at epoch {epoch}, best val {stopper.best:.5f}")
        break

last = copy.deepcopy(model.state_dict())
stopper.buffer.seek(0)
best_state = torch.load(stopper.buffer)
print(sorted(best_state.keys()), type(best_state).__name__)
res = model.load_state_dict(best_state)
print(res)
with torch.no_grad():
    print("restored val", round(loss_fn(model(Xv), yv).item(), 5))
print("differs from last", not torch.equal(last["out.bias"], model.out.bias.detach()))
