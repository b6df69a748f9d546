# Matrix factorization recommender: user/item embeddings plus biases, rating = dot + biases
# + global mean, MSE on observed entries, weight decay only on embeddings via param groups,
# RMSE on a held-out split, top-k recommendations masking seen items
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(461)
U, I, K = 10, 12, 3
true = rng.standard_normal((U, K)) @ rng.standard_normal((K, I)) + 3.0
obs = [(u, i, float(np.clip(true[u, i] + 0.1 * rng.standard_normal(), 1, 5)))
       for u in range(U) for i in range(I) if rng.random() < 0.5]
split = int(0.8 * len(obs))
train, test = obs[:split], obs[split:]
tr = torch.tensor(train)
te = torch.tensor(test)
mu = tr[:, 2].mean()


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.P, self.Q = nn.Embedding(U, K), nn.Embedding(I, K)
        self.bu, self.bi = nn.Embedding(U, 1), nn.Embedding(I, 1)
        with torch.no_grad():
            self.P.weight.copy_(torch.from_numpy(rng.normal(0, 0.1, (U, K))))
            self.Q.weight.copy_(torch.from_numpy(rng.normal(0, 0.1, (I, K))))
            self.bu.weight.zero_()
            self.bi.weight.zero_()

    def forward(self, u, i):
        return (self.P(u) * self.Q(i)).sum(1) + self.bu(u).squeeze(1) + self.bi(i).squeeze(1) + mu


model = MF()
opt = torch.optim.Adam([{"params": [model.P.weight, model.Q.weight], "weight_decay": 1e-3},
                        {"params": [model.bu.weight, model.bi.weight]}], lr=0.05)
u, i, r = tr[:, 0].long(), tr[:, 1].long(), tr[:, 2]
for epoch in range(15):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(u, i), r)
    loss.backward()
    opt.step()
    if epoch % 5 == 4:
        with torch.no_grad():
            rmse = (model(te[:, 0].long(), te[:, 1].long()) - te[:, 2]).pow(2).mean().sqrt()
        print(epoch, f"train {loss.item():.5f} test rmse {rmse.item():.5f}")
with torch.no_grad():
    scores = model.P.weight @ model.Q.weight.T + model.bu.weight + model.bi.weight.T + mu
    seen = torch.zeros(U, I, dtype=torch.bool)
    seen[u, i] = True
    scores = scores.masked_fill(seen, float("-inf"))
    print(scores.topk(3, dim=1).indices[:3].tolist())
print(round(mu.item(), 5), len(train), len(test))
