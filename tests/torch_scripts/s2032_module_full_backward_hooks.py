import torch
import torch.nn as nn

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]]))
    lin.bias.copy_(torch.tensor([0.1, -0.1]))
log = []

def bhook(module, grad_input, grad_output):
    log.append(("bwd", type(module).__name__, [None if g is None else tuple(g.shape) for g in grad_input],
                [tuple(g.shape) for g in grad_output]))
    print("grad_output", grad_output[0])
    return (grad_input[0] * 2,)

def pre_bhook(module, grad_output):
    print("pre grad_output", grad_output[0])
    return (grad_output[0] + 1,)

h1 = lin.register_full_backward_hook(bhook)
h2 = lin.register_full_backward_pre_hook(pre_bhook)
x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
out = lin(x)
out.sum().backward()
print(log)
print(x.grad)
print(lin.weight.grad)
h1.remove(); h2.remove()
x.grad = None
lin(x).sum().backward()
print(x.grad)

seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
with torch.no_grad():
    seq[0].weight.copy_(torch.eye(2))
    seq[0].bias.zero_()
def relu_hook(m, gi, go):
    print("relu", gi[0], go[0])
seq[1].register_full_backward_hook(relu_hook)
inp = torch.tensor([[-1.0, 2.0]], requires_grad=True)
seq(inp).sum().backward()
print(inp.grad)
