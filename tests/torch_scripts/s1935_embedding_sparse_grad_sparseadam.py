# A matrix-factorisation recommender as the PyTorch recsys tutorials build it: user/item
# nn.Embedding(sparse=True), SparseAdam for the embeddings and Adam for the biases,
# dot-product ratings, MSE on observed pairs (the gradient read through to_dense():
# tapegrad has no sparse layout, docs/limits.md)
import torch
import torch.nn as nn

users = torch.tensor([0, 0, 1, 2, 2, 3])
items = torch.tensor([1, 2, 0, 1, 3, 2])
ratings = torch.tensor([4.0, 3.0, 5.0, 2.0, 1.0, 4.0])
U = nn.Embedding(4, 3, sparse=True)
I = nn.Embedding(4, 3, sparse=True)
ub = nn.Parameter(torch.zeros(4))
with torch.no_grad():
    U.weight.copy_(torch.sin(torch.arange(12, dtype=torch.float64)).view(4, 3))
    I.weight.copy_(torch.cos(torch.arange(12, dtype=torch.float64)).view(4, 3))
sparse_opt = torch.optim.SparseAdam(list(U.parameters()) + list(I.parameters()), lr=0.1)
dense_opt = torch.optim.Adam([ub], lr=0.1)
for step in range(4):
    pred = (U(users) * I(items)).sum(1) + ub[users] + 3.0
    loss = nn.functional.mse_loss(pred, ratings)
    sparse_opt.zero_grad()
    dense_opt.zero_grad()
    loss.backward()
    if step == 0:
        g = U.weight.grad
        print(g.to_dense().abs().sum(1).numpy().round(5))
    sparse_opt.step()
    dense_opt.step()
    print(step, f"{loss.item():.6f}")
print(U.weight.detach().numpy().round(5))
