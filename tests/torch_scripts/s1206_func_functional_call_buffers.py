# functional_call with replacement buffers: BatchNorm running stats are not mutated in the module
import torch
import torch.nn as nn
from torch.func import functional_call

bn = nn.BatchNorm1d(2)
bn.eval()
params = dict(bn.named_parameters())
bufs = {k: v.clone() for k, v in bn.named_buffers()}
bufs["running_mean"] = torch.tensor([1.0, -1.0])
bufs["running_var"] = torch.tensor([4.0, 0.25])
x = torch.tensor([[1.0, 2.0], [3.0, 0.0]])
print(functional_call(bn, (params, bufs), (x,)))
print(bn(x))
print(bn.running_mean, bufs["num_batches_tracked"])
