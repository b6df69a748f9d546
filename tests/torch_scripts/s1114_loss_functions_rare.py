# Less common losses with fixed inputs: poisson_nll, gaussian_nll, kl_div log_target, cosine_embedding, multi_margin, multilabel_soft_margin, triplet with distance fn
import torch
import torch.nn.functional as F

inp = torch.tensor([[0.5, 1.0, -0.3], [1.2, -0.7, 0.1]], requires_grad=True)
tgt = torch.tensor([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0]])
print(F.poisson_nll_loss(inp, tgt), F.poisson_nll_loss(inp.exp(), tgt, log_input=False, full=True))
print(F.gaussian_nll_loss(inp, tgt, torch.ones(2, 3) * 0.5), F.gaussian_nll_loss(inp, tgt, torch.ones(2, 1), full=True, reduction="sum"))
lp = F.log_softmax(inp, dim=1)
lq = F.log_softmax(tgt, dim=1)
print(F.kl_div(lp, lq, reduction="batchmean", log_target=True), F.kl_div(lp, lq.exp(), reduction="sum"))
print(F.cosine_embedding_loss(inp, tgt, torch.tensor([1.0, -1.0]), margin=0.2))
print(F.multi_margin_loss(inp, torch.tensor([1, 2]), p=2, margin=0.5), F.multilabel_margin_loss(inp, torch.tensor([[0, 2, -1], [1, -1, 0]])))
print(F.multilabel_soft_margin_loss(inp, (tgt > 0).double()), F.soft_margin_loss(inp, torch.sign(tgt - 0.5)))
print(F.hinge_embedding_loss(inp, torch.tensor([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]])), F.margin_ranking_loss(inp[0], inp[1], torch.tensor([1.0, -1.0, 1.0])))
print(F.triplet_margin_with_distance_loss(inp[:1], tgt[:1], tgt[1:], distance_function=lambda a, b: 1 - F.cosine_similarity(a, b)))
print(F.triplet_margin_loss(inp[:1], tgt[:1], tgt[1:], p=1, swap=True))
total = F.poisson_nll_loss(inp, tgt) + F.multi_margin_loss(inp, torch.tensor([1, 2])) + F.multilabel_soft_margin_loss(inp, (tgt > 0).double())
total.backward()
print(inp.grad)
