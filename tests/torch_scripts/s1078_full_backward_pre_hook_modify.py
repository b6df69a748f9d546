# register_full_backward_pre_hook scaling grad_output; register_full_backward_hook replacing grad_input
import torch
import torch.nn as nn

lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    lin.bias.zero_()
seen = []
lin.register_full_backward_pre_hook(lambda m, go: (seen.append(go[0].tolist()), (go[0] * 10,))[1])
lin.register_full_backward_hook(lambda m, gi, go: (seen.append((gi[0].tolist(), go[0].tolist())), (gi[0] + 1,))[1])
x = torch.tensor([[1.0, -1.0]], requires_grad=True)
lin(x).sum().backward()
print(seen)
print(x.grad, lin.weight.grad)
relu = nn.ReLU()
relu.register_full_backward_hook(lambda m, gi, go: print("relu gi", gi, "go", go))
y = torch.tensor([-1.0, 2.0], requires_grad=True)
relu(y * 2).sum().backward()
print(y.grad)
