import torch
import torch.nn as nn
import torch.nn.functional as F

bag = nn.EmbeddingBag(6, 3, mode="mean")
with torch.no_grad():
    bag.weight.copy_(torch.arange(18.0).reshape(6, 3) / 10)
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 0])
offsets = torch.tensor([0, 3, 5])
print(bag(inp, offsets))
bag.mode = "sum"
print(bag(inp, offsets, per_sample_weights=torch.linspace(0.5, 1.2, 8)).round(decimals=5))
print(F.embedding_bag(torch.tensor([[0, 1], [2, 3]]), bag.weight, mode="max"))
out = bag(inp, offsets)
out.sum().backward()
print(bag.weight.grad)
emb = nn.Embedding(5, 2, max_norm=1.0)
with torch.no_grad():
    emb.weight.copy_(torch.tensor([[3.0, 4.0], [0.3, 0.4], [1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]))
print(emb(torch.tensor([0, 1, 3])).round(decimals=5))
print(emb.weight.round(decimals=5))
log_probs = torch.log_softmax(torch.cos(torch.arange(5 * 2 * 4.0)).reshape(5, 2, 4), dim=2).requires_grad_()
targets = torch.tensor([[1, 2, 2], [3, 1, 0]])
in_len = torch.tensor([5, 4])
tg_len = torch.tensor([3, 2])
ctc = nn.CTCLoss(blank=0, reduction="none")
l = ctc(log_probs, targets, in_len, tg_len)
print(l.round(decimals=5))
l2 = F.ctc_loss(log_probs, targets, in_len, tg_len, reduction="mean", zero_infinity=True)
l2.backward()
print(l2.round(decimals=5), log_probs.grad[0].round(decimals=5))
