# less common loss modules on fixed values: CosineEmbedding, MarginRanking, TripletMargin(swap), HingeEmbedding, SoftMargin, MultiLabelSoftMargin, GaussianNLL, L1 reduction sum
import torch
import torch.nn as nn

a = torch.tensor([[1.0, 2.0], [0.5, -1.0]])
b = torch.tensor([[2.0, 1.0], [0.5, 1.0]])
y = torch.tensor([1.0, -1.0])
print(nn.CosineEmbeddingLoss(margin=0.2)(a, b, y))
print(nn.MarginRankingLoss(margin=0.5, reduction="none")(a[:, 0], b[:, 0], y))
print(nn.TripletMarginLoss(margin=1.0, p=2, swap=True)(a, b, torch.tensor([[0.0, 0.0], [1.0, 1.0]])))
print(nn.HingeEmbeddingLoss(margin=1.5)(torch.tensor([0.3, 2.0, 1.0]), torch.tensor([1.0, -1.0, -1.0])))
print(nn.SoftMarginLoss()(torch.tensor([0.3, -2.0]), torch.tensor([1.0, -1.0])))
print(nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 2.0]))(a, torch.tensor([[1.0, 0.0], [0.0, 1.0]])))
print(nn.MultiLabelMarginLoss()(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([[3, 0, -1, 1]])))
print(nn.GaussianNLLLoss(full=True, eps=1e-6)(a, b, torch.tensor([[1.0, 2.0], [0.5, 0.5]])))
print(nn.L1Loss(reduction="sum")(a, b), nn.MSELoss(reduction="none")(a, b))
print(nn.BCELoss(weight=torch.tensor([1.0, 3.0]))(torch.tensor([0.2, 0.9]), torch.tensor([0.0, 1.0])))
print(nn.NLLLoss(ignore_index=0)(torch.log(torch.tensor([[0.5, 0.5], [0.1, 0.9]])), torch.tensor([0, 1])))
print(nn.KLDivLoss(reduction="sum", log_target=True)(torch.tensor([-1.0, -0.5]), torch.tensor([-0.7, -0.7])))
print(nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance(p=1), margin=0.5)(a, b, b.flip(0)))
print(nn.CrossEntropyLoss(reduction="none")(torch.tensor([[[1.0, 2.0], [0.0, 1.0]], [[0.5, 0.5], [2.0, -1.0]]]).transpose(1, 2), torch.tensor([[0, 1], [1, 0]])))
