# dtype mistakes in losses users hit: BCE with int targets, nll with float targets, mse with long
import torch
import torch.nn as nn
import torch.nn.functional as F

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__ + ":", str(e).split(" (")[0])

p = torch.tensor([0.2, 0.8])
show(lambda: F.binary_cross_entropy(p, torch.tensor([0, 1])))
show(lambda: F.binary_cross_entropy_with_logits(p, torch.tensor([0, 1])))
show(lambda: F.binary_cross_entropy(p, torch.tensor([0.0, 1.0, 1.0])))
show(lambda: F.nll_loss(torch.tensor([[-0.5, -1.0]]), torch.tensor([1.0])))
show(lambda: nn.CrossEntropyLoss()(torch.tensor([[1.0, 2.0]]), torch.tensor([[1]])))
show(lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])))
show(lambda: F.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 3])))
show(lambda: F.l1_loss(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 3.0, 3.0])))
