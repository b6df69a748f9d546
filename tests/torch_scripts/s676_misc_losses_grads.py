import torch
import torch.nn as nn

pred = torch.tensor([[0.2, 1.5], [2.0, -0.5], [0.0, 3.0]], requires_grad=True)
tgt = torch.tensor([[0.0, 1.0], [2.5, 0.0], [0.5, 0.5]])
losses = {
    "huber": nn.HuberLoss(delta=0.6), "smoothl1": nn.SmoothL1Loss(beta=0.5), "l1": nn.L1Loss(reduction="sum"),
    "poisson": nn.PoissonNLLLoss(log_input=True, full=True), "poisson_nolog": nn.PoissonNLLLoss(log_input=False, eps=1e-4),
    "bcelogits": nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 0.5])), "multilabel_soft": nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 3.0])),
}
for name, fn in losses.items():
    pred.grad = None
    t = tgt.clamp(0, 1) if name in ("bcelogits", "multilabel_soft") else tgt
    l = fn(pred, t)
    l.backward()
    print(name, round(l.item(), 6), pred.grad.round(decimals=5).tolist())
a = torch.tensor([[1.0, 0.0], [0.0, 1.0]], requires_grad=True)
p = torch.tensor([[1.0, 0.2], [0.1, 1.0]])
n = torch.tensor([[0.0, 1.0], [1.0, 0.0]])
tl = nn.TripletMarginLoss(margin=1.0, p=2, swap=True)(a, p, n)
tl.backward()
print(round(tl.item(), 6), a.grad)
tw = nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: 1 - nn.functional.cosine_similarity(u, v), margin=0.5)(a.detach(), p, n)
print(round(tw.item(), 6))
print(nn.functional.cosine_similarity(a.detach(), p, dim=1), nn.PairwiseDistance(p=1)(a.detach(), p))
