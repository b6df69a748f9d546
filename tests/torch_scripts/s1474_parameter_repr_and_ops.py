# nn.Parameter repr, arithmetic results are plain tensors, requires_grad=False parameters
import torch
import torch.nn as nn

p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(type(p * 2).__name__, (p * 2))
q = nn.Parameter(torch.tensor([3.0]), requires_grad=False)
print(q, q.requires_grad, isinstance(q, torch.Tensor), isinstance(p.data, nn.Parameter))
print(nn.Parameter(torch.zeros(2, dtype=torch.float32)))
m = nn.Module()
m.w = p
m.t = torch.ones(1)
print([n for n, _ in m.named_parameters()], hasattr(m, "t"), "t" in dict(m.named_buffers()))
