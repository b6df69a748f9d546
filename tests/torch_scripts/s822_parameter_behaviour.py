# nn.Parameter behaviour: repr, requires_grad=False parameters, arithmetic returns Tensors,
# isinstance checks, .data assignment, deepcopy keeps Parameter, parameters in a plain list
import copy
import torch
import torch.nn as nn

p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(repr(nn.Parameter(torch.zeros(2, 2), requires_grad=False)))
q = p * 2
print(type(q).__name__, isinstance(p, torch.Tensor), isinstance(q, nn.Parameter), q.grad_fn.name())
print(type(p.detach()).__name__, type(p.data).__name__, type(p.clone()).__name__)
c = copy.deepcopy(p)
print(type(c).__name__, c.requires_grad, torch.equal(c, p), c is p)
p.data = torch.tensor([5.0, 6.0])
print(p, p.is_leaf)
m = nn.Module()
m.w = nn.Parameter(torch.ones(1))
m.plain = [nn.Parameter(torch.ones(1))]
print([n for n, _ in m.named_parameters()])
m.w = nn.Parameter(torch.zeros(3))
print(m.w.shape)
try:
    m.w = torch.zeros(2)
except TypeError as e:
    print("TypeError", e)
print(nn.Parameter().shape, nn.Parameter(torch.tensor(2.0)).dim())
e = nn.Parameter(torch.ones(2))
with torch.no_grad():
    e += 1
print(e, e.requires_grad, e.grad_fn)
print(nn.Parameter(torch.ones(2, dtype=torch.float32)).dtype)
