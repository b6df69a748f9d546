# softmax family: dims, dtype argument, log_softmax stability, gradients, softmax of -inf rows
import torch
import torch.nn.functional as F

x = torch.tensor([[1.0, 2.0, 3.0], [1000.0, 1000.0, 1000.0]], requires_grad=True)
s = F.softmax(x, dim=1)
ls = F.log_softmax(x, dim=-1)
print(s, ls)
(s[:, 0].sum() + ls[:, 2].sum()).backward()
print(x.grad, s.grad_fn.name(), ls.grad_fn.name())
print(F.softmax(torch.tensor([1, 2, 3]).float(), 0, dtype=torch.float64).dtype)
print(torch.softmax(torch.tensor([[float("-inf"), float("-inf")], [0.0, float("-inf")]]), 1))
print(F.softmin(torch.tensor([1.0, 2.0]), dim=0), torch.special.softmax(torch.tensor([0.0, 0.0]), 0))
print(x.detach().softmax(0), x.detach().log_softmax(0)[0])
try:
    F.softmax(torch.tensor([1, 2]), 0)
except RuntimeError as e:
    print(e)
