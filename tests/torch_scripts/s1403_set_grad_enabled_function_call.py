# set_grad_enabled(mode) toggled by a flag, as in training/eval loops; grad mode in threads
import threading
import torch

w = torch.tensor([2.0], requires_grad=True)
for train in (True, False):
    with torch.set_grad_enabled(train):
        out = w * 3
    print(train, out.requires_grad, out.grad_fn is not None)
res = []
def worker():
    res.append(torch.is_grad_enabled())
with torch.no_grad():
    t = threading.Thread(target=worker)
    t.start(); t.join()
print(res, torch.is_grad_enabled())
prev = torch.is_grad_enabled()
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (w * 2).requires_grad)
torch.set_grad_enabled(prev)
print(torch.no_grad()(lambda t: t * 2)(w).requires_grad)
