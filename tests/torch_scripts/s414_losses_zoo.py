import torch
import torch.nn as nn
import torch.nn.functional as F

p = torch.tensor([[0.2, -1.0, 0.5], [1.5, 0.3, -0.2]], requires_grad=True)
t = torch.tensor([[0.0, -0.5, 1.0], [1.0, 1.0, 0.0]])
c = torch.tensor([2, 0])
losses = {
    "huber": nn.HuberLoss(delta=0.5)(p, t), "smoothl1": F.smooth_l1_loss(p, t, beta=0.3), "l1": nn.L1Loss(reduction="sum")(p, t),
    "ce_w": nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]))(p, c), "ce_soft": F.cross_entropy(p, t.softmax(1)),
    "nll2d": F.nll_loss(p.log_softmax(1).view(1, 2, 3), torch.tensor([[0, 1, 1]])), "margin": nn.MultiMarginLoss()(p, c),
    "mlsm": nn.MultiLabelSoftMarginLoss()(p, (t > 0).double()), "hinge": nn.HingeEmbeddingLoss()(p, torch.sign(t - 0.1)),
    "cos": nn.CosineEmbeddingLoss(margin=0.1)(p, t, torch.tensor([1, -1])), "triplet": nn.TripletMarginLoss()(p, t, t.flip(0)),
    "poisson": nn.PoissonNLLLoss()(p, t.abs()), "gauss": nn.GaussianNLLLoss()(p, t, torch.ones(2, 3) * 0.5),
    "ranking": nn.MarginRankingLoss(0.2)(p[0], p[1], torch.tensor([1.0, -1.0, 1.0])), "softmargin": nn.SoftMarginLoss()(p, torch.sign(t - 0.1)),
    "mlm": nn.MultiLabelMarginLoss()(p, torch.tensor([[2, -1, 0], [0, 1, -1]])),
    "kl_log": nn.KLDivLoss(reduction="batchmean", log_target=True)(p.log_softmax(1), t.log_softmax(1)),
    "bce": nn.BCELoss(weight=torch.tensor([1.0, 2.0, 3.0]))(p.sigmoid(), (t > 0).double()),
}
for k, v in losses.items():
    g, = torch.autograd.grad(v, p)
    print(k, round(v.item(), 6), g.abs().sum().round(decimals=5))
ctc = nn.CTCLoss()
lp = torch.sin(torch.arange(5 * 2 * 4.0)).view(5, 2, 4).log_softmax(2).requires_grad_()
l = ctc(lp, torch.tensor([[1, 2], [3, 3]]), torch.tensor([5, 5]), torch.tensor([2, 2]))
l.backward()
print(round(l.item(), 5), lp.grad.abs().sum().round(decimals=4))
