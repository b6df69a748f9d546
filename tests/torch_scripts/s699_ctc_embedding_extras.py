import torch
import torch.nn as nn
import torch.nn.functional as F

T, C = 3, 3
logp = torch.log_softmax(torch.tensor([[[1.0, 0.5, 0.2]], [[0.3, 0.9, 0.1]], [[0.2, 0.1, 1.1]]]), 2).requires_grad_()
tgt = torch.tensor([[1, 1, 2, 2]])
loss = F.ctc_loss(logp, tgt, torch.tensor([3]), torch.tensor([4]), zero_infinity=False, reduction="sum")
print(loss)
loss = F.ctc_loss(logp, tgt, torch.tensor([3]), torch.tensor([4]), zero_infinity=True, reduction="sum")
loss.backward()
print(loss, logp.grad.abs().sum())
emb = nn.Embedding(4, 3, max_norm=1.0)
with torch.no_grad():
    emb.weight.copy_(torch.tensor([[3.0, 4.0, 0.0], [0.1, 0.2, 0.2], [1.0, 1.0, 1.0], [0.0, 0.0, 2.0]]))
out = emb(torch.tensor([0, 2]))
print(out.detach().round(decimals=5), emb.weight.detach().round(decimals=5))
pad = nn.Embedding(3, 2, padding_idx=1)
with torch.no_grad():
    pad.weight.copy_(torch.arange(6.0).reshape(3, 2))
pad(torch.tensor([1, 1, 0, 2])).sum().backward()
print(pad.weight.grad)
print(F.one_hot(torch.tensor([0, 2, 1]), num_classes=4), F.one_hot(torch.tensor([[1], [0]])).shape)
print(F.embedding(torch.tensor([[0, 1]]), torch.eye(3), padding_idx=0))
