import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
log = []


def hook(p):
    log.append(p.grad.clone())
    with torch.no_grad():
        p.add_(p.grad, alpha=-0.1)
    p.grad = None


h = w.register_post_accumulate_grad_hook(hook)
for _ in range(2):
    (w ** 2).sum().backward()
print(log)
print(w, w.grad)
h.remove()
(w ** 2).sum().backward()
print(w.grad)
nl = w * 2
try:
    nl.register_post_accumulate_grad_hook(hook)
except RuntimeError as e:
    print("RuntimeError:", e)
