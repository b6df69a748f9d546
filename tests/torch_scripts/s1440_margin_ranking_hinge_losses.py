# margin-based losses: margin_ranking, hinge_embedding, multi_margin, soft_margin, multilabel
import torch
import torch.nn.functional as F

a = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
b = torch.tensor([1.0, 0.0, 1.0])
yy = torch.tensor([1.0, -1.0, 1.0])
for name, f in [("ranking", lambda: F.margin_ranking_loss(a, b, yy, margin=0.5)),
                ("hinge", lambda: F.hinge_embedding_loss(a, yy, margin=1.0)),
                ("soft", lambda: F.soft_margin_loss(a, yy)),
                ("multi", lambda: F.multi_margin_loss(a.view(1, 3), torch.tensor([2]))),
                ("multilabel", lambda: F.multilabel_soft_margin_loss(a.view(1, 3), torch.tensor([[1.0, 0.0, 1.0]]))),
                ("mlm", lambda: F.multilabel_margin_loss(a.view(1, 3), torch.tensor([[2, 0, -1]])))]:
    a.grad = None
    l = f()
    l.backward()
    print(name, l.detach(), a.grad)
