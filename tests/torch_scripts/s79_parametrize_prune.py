import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize
from torch.nn.utils import parametrizations
import torch.nn.utils.prune as prune


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


layer = nn.Linear(3, 3)
with torch.no_grad():
    layer.weight.copy_(torch.arange(9.).reshape(3, 3))
parametrize.register_parametrization(layer, "weight", Symmetric())
print(layer.weight)
print(torch.allclose(layer.weight, layer.weight.T), parametrize.is_parametrized(layer), parametrize.is_parametrized(layer, 'bias'))
print(layer.parametrizations.weight.original)
print([n for n, _ in layer.named_parameters()])
print(layer)
layer(torch.ones(1, 3)).sum().backward()
print(layer.parametrizations.weight.original.grad)


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu(1)


sk = nn.Linear(3, 3, bias=False)
parametrize.register_parametrization(sk, "weight", Skew())
sk.weight = torch.tensor([[0.0, 1.0, 2.0], [-1.0, 0.0, 3.0], [-2.0, -3.0, 0.0]])
print(sk.weight, sk.parametrizations.weight.original)
with parametrize.cached():
    print(sk.weight is sk.weight)
parametrize.remove_parametrizations(sk, "weight", leave_parametrized=True)
print(type(sk.weight).__name__, [n for n, _ in sk.named_parameters()])
wn = parametrizations.weight_norm(nn.Linear(2, 2), name='weight', dim=0)
with torch.no_grad():
    wn.parametrizations.weight.original0.copy_(torch.tensor([[2.0], [1.0]]))
    wn.parametrizations.weight.original1.copy_(torch.tensor([[3.0, 4.0], [1.0, 0.0]]))
print(wn.weight.detach(), [n for n, _ in wn.named_parameters()])
orth = parametrizations.orthogonal(nn.Linear(3, 3))
W = orth.weight
print(torch.allclose(W @ W.T, torch.eye(3), atol=1e-10))
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.1, -0.5, 0.3, 0.05], [1.0, -0.2, 0.0, 0.7], [-0.9, 0.4, 0.6, -0.01]]))
prune.l1_unstructured(model[0], name='weight', amount=0.25)
print(model[0].weight_mask, [n for n, _ in model[0].named_buffers()], [n for n, _ in model[0].named_parameters()])
print(model[0].weight)
print(prune.is_pruned(model[0]), prune.is_pruned(model[2]))
prune.remove(model[0], 'weight')
print([n for n, _ in model[0].named_parameters()], (model[0].weight == 0).sum())
prune.random_unstructured(model[2], name='bias', amount=1)
print(model[2].bias_mask.sum(), (model[2].bias == 0).sum())
prune.ln_structured(model[0], name='weight', amount=1, n=2, dim=0)
print(model[0].weight_mask.sum(1))
params = ((model[0], 'bias'), (model[2], 'weight'))
prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=2)
print(int((model[0].bias == 0).sum() + (model[2].weight == 0).sum()))
