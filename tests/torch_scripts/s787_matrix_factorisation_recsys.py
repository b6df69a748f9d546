# Matrix factorisation recommender: user/item embeddings and biases, dot-product scores, observed-entry
# mask, MSE on observed ratings, L2 on the used rows, top-N recommendations excluding seen items
import torch
import torch.nn as nn

R = torch.tensor([[5, 3, 0, 1], [4, 0, 0, 1], [1, 1, 0, 5], [1, 0, 0, 4], [0, 1, 5, 4]], dtype=torch.float64)
observed = R > 0
users, items = observed.nonzero(as_tuple=True)
ratings = R[users, items]
print(users.tolist(), items.tolist(), ratings.mean().item())


class MF(nn.Module):
    def __init__(self, n_users, n_items, k=3):
        super().__init__()
        self.P = nn.Embedding(n_users, k)
        self.Q = nn.Embedding(n_items, k)
        self.bu = nn.Embedding(n_users, 1)
        self.bi = nn.Embedding(n_items, 1)
        self.mu = nn.Parameter(torch.tensor(0.0), requires_grad=False)

    def forward(self, u, i):
        return (self.P(u) * self.Q(i)).sum(-1) + self.bu(u).squeeze(-1) + self.bi(i).squeeze(-1) + self.mu


model = MF(5, 4)
with torch.no_grad():
    model.P.weight.copy_(0.3 * torch.sin(torch.arange(15.0)).view(5, 3))
    model.Q.weight.copy_(0.3 * torch.cos(torch.arange(12.0)).view(4, 3))
    model.bu.weight.zero_()
    model.bi.weight.zero_()
    model.mu.fill_(ratings.mean())
opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=0.05)
for epoch in range(200):
    opt.zero_grad()
    pred = model(users, items)
    reg = 0.01 * (model.P(users).pow(2).sum() + model.Q(items).pow(2).sum())
    loss = nn.functional.mse_loss(pred, ratings) + reg / len(ratings)
    loss.backward()
    opt.step()
    if epoch % 50 == 0:
        print(f"epoch {epoch}: loss {loss.item():.5f}")
print(f"rmse {torch.sqrt(nn.functional.mse_loss(model(users, items), ratings)).item():.4f}", model.mu.requires_grad)
with torch.no_grad():
    full = model.P.weight @ model.Q.weight.T + model.bu.weight + model.bi.weight.T + model.mu
    full[observed] = float("-inf")
    top = full.topk(1, dim=1)
print(top.indices.squeeze(1).tolist(), full.isinf().sum().item())
