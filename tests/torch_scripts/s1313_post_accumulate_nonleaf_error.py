# post-accumulate-grad hooks only on leaves; an optimizer step inside the hook
import torch

x = torch.tensor([1.0], requires_grad=True)
try:
    (x * 2).register_post_accumulate_grad_hook(lambda t: None)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
try:
    torch.tensor([1.0]).register_hook(lambda g: g)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
params = [torch.nn.Parameter(torch.tensor([1.0, -1.0])), torch.nn.Parameter(torch.tensor([2.0]))]
opts = {p: torch.optim.SGD([p], lr=0.1) for p in params}
def step(p):
    opts[p].step()
    opts[p].zero_grad()
for p in params:
    p.register_post_accumulate_grad_hook(step)
for _ in range(2):
    ((params[0] ** 2).sum() + params[1].sum() * 3).backward()
print(params[0].data, params[1].data, params[0].grad)
