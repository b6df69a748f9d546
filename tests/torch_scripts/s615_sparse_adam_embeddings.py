import torch
import torch.nn as nn

# SparseAdam for an embedding table with sparse gradients (the recommender tutorial's setup)
emb = nn.Embedding(6, 3, sparse=True)
with torch.no_grad():
    emb.weight.copy_(torch.arange(18.0).reshape(6, 3) / 10)
opt = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
ids = torch.tensor([[0, 2], [2, 5]])
for step in range(3):
    opt.zero_grad()
    loss = (emb(ids) ** 2).sum()
    loss.backward()
    print(step, round(loss.item(), 6))
    opt.step()
print(emb.weight.detach().round(decimals=5))
print(sorted(opt.state[emb.weight].keys()))
