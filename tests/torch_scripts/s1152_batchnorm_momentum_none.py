# BatchNorm momentum=None (cumulative average), track_running_stats=False, eval behaviour, num_batches_tracked
import torch
import torch.nn as nn

bn = nn.BatchNorm1d(2, momentum=None)
xs = [torch.tensor([[1.0, 2.0], [3.0, 6.0]]), torch.tensor([[0.0, 0.0], [2.0, -2.0]]), torch.tensor([[5.0, 1.0], [5.0, 3.0]])]
for x in xs:
    bn(x)
    print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn2 = nn.BatchNorm1d(2, track_running_stats=False, affine=False)
print(bn2.running_mean, [n for n, _ in bn2.named_buffers()], bn2.eval()(xs[0]))
bn.eval()
print(bn(xs[0]))
print(bn.state_dict().keys())
bn3 = nn.BatchNorm2d(1)
bn3.load_state_dict({"weight": torch.tensor([2.0]), "bias": torch.tensor([1.0]), "running_mean": torch.tensor([0.5]), "running_var": torch.tensor([4.0])}, strict=False)
print(bn3.eval()(torch.ones(1, 1, 1, 2)), bn3.num_batches_tracked)
print(bn, bn2)
