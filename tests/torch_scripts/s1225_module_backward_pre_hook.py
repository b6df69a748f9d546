# register_full_backward_pre_hook can replace grad_output
import torch
import torch.nn as nn

act = nn.Tanh()
def pre(mod, gout):
    print("pre", gout)
    return (gout[0] * 2,)
act.register_full_backward_pre_hook(pre)
x = torch.tensor([0.0, 1.0], requires_grad=True)
act(x).sum().backward()
print(x.grad)
