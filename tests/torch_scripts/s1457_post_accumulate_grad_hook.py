# register_post_accumulate_grad_hook: an optimizer step inside backward
import torch

p = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
log = []
def step(param):
    log.append(param.grad.clone())
    with torch.no_grad():
        param -= 0.1 * param.grad
    param.grad = None
p.register_post_accumulate_grad_hook(step)
for _ in range(3):
    (p ** 2).sum().backward()
print(p, p.grad, log)
