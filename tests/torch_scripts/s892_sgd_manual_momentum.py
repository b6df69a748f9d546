# Reimplementing SGD with momentum and Nesterov by hand and checking it equals
# torch.optim.SGD step for step; weight decay folded in the same way
import torch

def grad_of(w):
    return 2 * (w - torch.tensor([1.0, -1.0])) * torch.tensor([1.0, 10.0])

for nesterov in (False, True):
    w_ref = torch.nn.Parameter(torch.tensor([0.0, 0.0]))
    opt = torch.optim.SGD([w_ref], lr=0.01, momentum=0.9, nesterov=nesterov, weight_decay=0.01)
    w = torch.tensor([0.0, 0.0])
    buf = None
    for step in range(5):
        opt.zero_grad()
        w_ref.grad = grad_of(w_ref.detach())
        opt.step()
        g = grad_of(w) + 0.01 * w
        buf = g.clone() if buf is None else 0.9 * buf + g
        d = g + 0.9 * buf if nesterov else buf
        w = w - 0.01 * d
    print(nesterov, w_ref.data, w, torch.allclose(w, w_ref.data))
