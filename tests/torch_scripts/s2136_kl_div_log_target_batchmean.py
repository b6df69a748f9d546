import warnings
import torch
import torch.nn.functional as F

p_logits = torch.tensor([[1.0, 2.0, 0.5], [0.0, 0.0, 3.0]], requires_grad=True)
q = torch.tensor([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]])
logp = F.log_softmax(p_logits, -1)
for red in ["batchmean", "sum", "none"]:
    a = F.kl_div(logp, q, reduction=red)
    b = F.kl_div(logp, q.log(), reduction=red, log_target=True)
    print(red, a.detach().round(decimals=6), torch.allclose(a, b))
with warnings.catch_warnings(record=True) as rec:
    warnings.simplefilter("always")
    m = F.kl_div(logp, q, reduction="mean")
print(m.detach().round(decimals=6), len(rec) > 0)
loss = F.kl_div(logp, q.log(), reduction="batchmean", log_target=True)
loss.backward()
print(p_logits.grad.round(decimals=6))
manual = (q * (q.log() - logp)).sum() / 2
print(torch.allclose(loss, manual))
zero_t = F.kl_div(torch.tensor([-1.0, -2.0]), torch.tensor([0.0, 0.5]), reduction="none")
print(zero_t.round(decimals=5))
crit = torch.nn.KLDivLoss(reduction="batchmean", log_target=True)
print(crit(logp, logp).item())
