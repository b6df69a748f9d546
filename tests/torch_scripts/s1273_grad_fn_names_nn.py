# grad_fn names of common nn.functional outputs
import torch
import torch.nn.functional as F

x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]], requires_grad=True)
w = torch.ones(4, 3, requires_grad=True)
outs = [F.linear(x, w), F.relu(x), F.softmax(x, -1), F.log_softmax(x, -1), F.gelu(x), torch.sigmoid(x), torch.tanh(x), F.dropout(x, 0.5, training=True) * 0, F.mse_loss(x, torch.zeros(2, 3)), F.cross_entropy(x, torch.tensor([0, 2])), F.layer_norm(x, (3,)), F.normalize(x, dim=1), F.silu(x), F.elu(x), F.leaky_relu(x), F.softplus(x), F.pad(x, (1, 1))]
for o in outs:
    print(o.grad_fn.name())
