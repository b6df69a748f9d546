# A scikit-learn-like wrapper: fit(X, y) on NumPy arrays, predict returns NumPy, score with numpy,
# float64 arrays converted with torch.from_numpy / torch.as_tensor / torch.tensor
import numpy as np
import torch
import torch.nn as nn


class TorchRegressor:
    def __init__(self, hidden=8, epochs=60, lr=0.05):
        self.hidden, self.epochs, self.lr = hidden, epochs, lr

    def fit(self, X, y):
        X_t = torch.from_numpy(np.asarray(X, dtype=np.float64))
        y_t = torch.as_tensor(y, dtype=torch.float64).reshape(-1, 1)
        self.mean_, self.std_ = X_t.mean(0), X_t.std(0)
        Xn = (X_t - self.mean_) / self.std_
        self.model_ = nn.Sequential(nn.Linear(X_t.shape[1], self.hidden), nn.Tanh(), nn.Linear(self.hidden, 1)).double()
        with torch.no_grad():
            for i, p in enumerate(self.model_.parameters()):
                p.copy_(torch.from_numpy(np.cos(np.arange(p.numel()) * 0.9 + i).reshape(tuple(p.shape)) * 0.5))
        opt = torch.optim.LBFGS(self.model_.parameters(), lr=0.5, max_iter=20)

        def closure():
            opt.zero_grad()
            loss = nn.functional.mse_loss(self.model_(Xn), y_t)
            loss.backward()
            return loss
        for _ in range(3):
            self.loss_ = opt.step(closure).item()
        return self

    def predict(self, X):
        with torch.no_grad():
            Xn = (torch.tensor(X) - self.mean_) / self.std_
            return self.model_(Xn).squeeze(1).numpy()

    def score(self, X, y):
        pred = self.predict(X)
        return 1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum()


rng_free = np.linspace(0, 1, 30)
X = np.stack([rng_free, np.sin(6 * rng_free)], 1)
y = 2 * X[:, 0] + X[:, 1] ** 2
reg = TorchRegressor().fit(X, y)
pred = reg.predict(X[:5])
print(type(pred).__name__, pred.dtype, pred.shape, np.round(pred, 4).tolist())
print(f"R^2 = {reg.score(X, y):.5f}", round(reg.loss_, 8) < 1e-2)
print(reg.mean_.numpy().round(4), reg.std_.dtype)
arr = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(arr)
t.mul_(2)
print(arr, t.dtype, torch.tensor(arr).data_ptr() != t.data_ptr())
print(torch.from_numpy(np.array(3.5)).shape, torch.tensor(np.float64(2.0)).dtype, torch.tensor(np.int64(7)) + 1)
print(np.array(torch.arange(3)), torch.arange(3).numpy().tolist(), float(torch.tensor([2.5])), int(torch.tensor(3.9)))
