# CTC loss on fixed log-probabilities: reductions, gradients, zero_infinity
import torch
import torch.nn as nn
import torch.nn.functional as F

T, N, C = 6, 2, 4
raw = torch.linspace(-1.0, 1.0, T * N * C).reshape(T, N, C).sin()
logp = raw.log_softmax(2).detach().requires_grad_()
targets = torch.tensor([[1, 2, 2], [3, 1, 0]])
in_len = torch.tensor([6, 5])
tgt_len = torch.tensor([3, 2])
for red in ["none", "sum", "mean"]:
    print(red, F.ctc_loss(logp, targets, in_len, tgt_len, reduction=red))
loss = F.ctc_loss(logp, targets, in_len, tgt_len)
loss.backward()
print(loss.grad_fn.name())
print(logp.grad[:, 0, :])
print(logp.grad[5, 1])
crit = nn.CTCLoss(blank=0, zero_infinity=True)
print(crit)
bad = crit(logp, torch.tensor([[1, 2, 1, 2, 1, 2], [1, 1, 1, 1, 1, 1]]), in_len,
           torch.tensor([6, 6]))
print(bad)
print(F.ctc_loss(logp, torch.tensor([1, 2, 2, 3, 1]), in_len, tgt_len, reduction="sum"))
