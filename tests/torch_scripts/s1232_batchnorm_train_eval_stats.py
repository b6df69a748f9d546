# BatchNorm1d: running stats update in train mode, used in eval; momentum None = cumulative average
import torch
import torch.nn as nn

bn = nn.BatchNorm1d(2, momentum=0.5)
x1 = torch.tensor([[1.0, 10.0], [3.0, 20.0], [5.0, 30.0]])
y = bn(x1)
print(y)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(torch.tensor([[3.0, 20.0]])))
cum = nn.BatchNorm1d(1, momentum=None)
cum(torch.tensor([[1.0], [3.0]]))
cum(torch.tensor([[5.0], [9.0]]))
print(cum.running_mean, cum.running_var)
