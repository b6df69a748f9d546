# regression losses: huber/smooth_l1 with delta/beta, poisson_nll, gaussian_nll, kl_div, margins
import torch
import torch.nn.functional as F

x = torch.tensor([0.5, -1.0, 2.0, 4.0], requires_grad=True)
y = torch.tensor([0.0, 1.0, 2.5, 1.0])
for name, fn in [("huber", lambda: F.huber_loss(x, y, delta=1.5)),
                 ("smooth_l1", lambda: F.smooth_l1_loss(x, y, beta=0.5)),
                 ("l1", lambda: F.l1_loss(x, y, reduction="sum")),
                 ("poisson", lambda: F.poisson_nll_loss(x, y, log_input=True, full=True)),
                 ("gauss", lambda: F.gaussian_nll_loss(x, y, torch.full((4,), 0.5))),
                 ("kl", lambda: F.kl_div(x.log_softmax(0), y.softmax(0), reduction="batchmean")),
                 ("soft_margin", lambda: F.soft_margin_loss(x, y.sign())),
                 ("hinge", lambda: F.hinge_embedding_loss(x, torch.tensor([1.0, -1.0, 1.0, -1.0])))]:
    l = fn()
    (g,) = torch.autograd.grad(l, x)
    print(name, round(l.item(), 6), g, l.grad_fn.name())
print(F.margin_ranking_loss(x, y, torch.tensor([1.0, -1.0, 1.0, 1.0]), margin=0.5))
print(F.cosine_embedding_loss(x.view(2, 2), y.view(2, 2), torch.tensor([1.0, -1.0])))
print(F.triplet_margin_loss(x.view(1, 4), y.view(1, 4), torch.zeros(1, 4), swap=True))
print(F.multilabel_soft_margin_loss(x.view(1, 4), torch.tensor([[1.0, 0.0, 1.0, 0.0]])))
