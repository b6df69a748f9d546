# numerically careful losses: BCEWithLogits at large logits vs naive sigmoid+BCE, logsumexp vs log(sum(exp)), log_softmax at extremes
import torch
import torch.nn.functional as F

z = torch.tensor([-100.0, -10.0, 0.0, 10.0, 100.0], requires_grad=True)
t = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0])
loss = F.binary_cross_entropy_with_logits(z, t, reduction="none")
print(loss)
loss.sum().backward()
print(z.grad)
naive = F.binary_cross_entropy(torch.sigmoid(z.detach()), t, reduction="none")
print(naive)
big = torch.tensor([1000.0, 1000.0, 999.0])
print(torch.logsumexp(big, 0), torch.log(torch.exp(big).sum()))
print(F.log_softmax(torch.tensor([1e4, 0.0, -1e4]), dim=0), F.softmax(torch.tensor([1e4, 0.0]), 0))
print(torch.log1p(torch.tensor([1e-20])), torch.expm1(torch.tensor([1e-20])), torch.special.log1mexp(torch.tensor([-1e-5])) if hasattr(torch.special, "log1mexp") else None)
print(F.softplus(torch.tensor([-100.0, 100.0])), torch.special.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])))
print(F.cross_entropy(torch.tensor([[1000.0, 0.0]]), torch.tensor([1])), torch.sigmoid(torch.tensor([-800.0, 800.0])))
