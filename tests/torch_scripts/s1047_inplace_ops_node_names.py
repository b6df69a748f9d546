# node names after common in-place tensor methods on non-leaves (what print(y) shows in tutorials)
import torch

x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
for name, op in [("add_", lambda h: h.add_(1)), ("sub_", lambda h: h.sub_(torch.ones(3), alpha=2)),
                 ("div_", lambda h: h.div_(2)), ("pow_", lambda h: h.pow_(2)), ("exp_", lambda h: h.exp_()),
                 ("sqrt_", lambda h: h.abs_().sqrt_()), ("neg_", lambda h: h.neg_()), ("tanh_", lambda h: h.tanh_()),
                 ("addcmul_", lambda h: h.addcmul_(torch.ones(3), torch.ones(3), value=0.5)),
                 ("lerp_", lambda h: h.lerp_(torch.zeros(3), 0.25)), ("clamp_max_", lambda h: h.clamp_max_(1.0)),
                 ("scatter_", lambda h: h.scatter_(0, torch.tensor([2]), 5.0)),
                 ("masked_scatter_", lambda h: h.masked_scatter_(torch.tensor([True, False, True]), torch.tensor([9.0, 8.0]))),
                 ("index_add_", lambda h: h.index_add_(0, torch.tensor([0, 0]), torch.ones(2))),
                 ("t_unsqueeze_", lambda h: h.unsqueeze_(0)), ("setitem", lambda h: h.__setitem__(0, 3.0) or h)]:
    x.grad = None
    h = x * 1
    y = op(h)
    y.sum().backward()
    print(name, y.grad_fn.name(), x.grad.round(decimals=4))
