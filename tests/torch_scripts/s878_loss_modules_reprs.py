# Loss modules constructed with options and printed; their reduction attribute; calling with
# mean/sum/none; legacy size_average/reduce arguments mapping to reduction
import torch
import torch.nn as nn

losses = [nn.MSELoss(reduction="sum"), nn.L1Loss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.0),
          nn.BCELoss(weight=torch.tensor([1.0, 2.0])), nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 1.0])),
          nn.NLLLoss(ignore_index=3), nn.KLDivLoss(reduction="batchmean", log_target=True),
          nn.HingeEmbeddingLoss(margin=0.5), nn.MarginRankingLoss(margin=0.1), nn.SoftMarginLoss(),
          nn.MultiLabelSoftMarginLoss(), nn.PoissonNLLLoss(log_input=False, full=True), nn.GaussianNLLLoss(eps=1e-3),
          nn.CosineEmbeddingLoss(margin=0.2), nn.TripletMarginLoss(p=1.0, swap=True), nn.MultiMarginLoss(p=2, margin=0.5)]
for l in losses:
    print(l, l.reduction)
print(nn.MSELoss(size_average=False).reduction, nn.MSELoss(reduce=False).reduction, nn.L1Loss(size_average=True, reduce=True).reduction)
x = torch.tensor([[0.2, 0.8], [0.6, 0.4]])
y = torch.tensor([[0.0, 1.0], [1.0, 0.0]])
for l in losses[:5]:
    print(type(l).__name__, l(x, y))
print(losses[5](x, y), nn.MSELoss(reduction="none")(x, y))
