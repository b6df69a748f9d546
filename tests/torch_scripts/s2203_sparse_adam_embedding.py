import torch
import torch.nn as nn

emb = nn.Embedding(5, 2, sparse=True)
with torch.no_grad():
    emb.weight.copy_(torch.arange(10.0).view(5, 2) / 10)
opt = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
targets = torch.tensor([[1.0, 1.0], [0.0, 0.0]])
for step in range(5):
    idx = torch.tensor([1, 3]) if step % 2 == 0 else torch.tensor([3, 4])
    opt.zero_grad()
    loss = ((emb(idx) - targets) ** 2).sum()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(emb.weight.detach().round(decimals=5))
st = opt.state_dict()["state"][0]
print(sorted(st.keys()), st["step"])
print(st["exp_avg"].to_dense().round(decimals=5) if st["exp_avg"].is_sparse else st["exp_avg"].round(decimals=5))
dense = nn.Embedding(5, 2)
try:
    torch.optim.SparseAdam([dense.weight], lr=0.1, betas=(1.5, 0.9))
except ValueError as e:
    print("ValueError:", e)
print(opt)
