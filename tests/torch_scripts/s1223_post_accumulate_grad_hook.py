# register_post_accumulate_grad_hook sees the accumulated .grad
import torch

p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
seen = []
def hook(param):
    seen.append(param.grad.clone())
p.register_post_accumulate_grad_hook(hook)
(p * 2).sum().backward()
(p ** 2).sum().backward()
print(seen)
print(p.grad)
