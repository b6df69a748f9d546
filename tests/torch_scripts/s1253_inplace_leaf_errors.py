# in-place on a leaf that requires grad raises; under no_grad it is allowed; views of leaves
import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
for op in [lambda: w.add_(1), lambda: w.mul_(2), lambda: w[0].fill_(0), lambda: w.view(3).zero_()]:
    try:
        op()
        print("ok")
    except RuntimeError as e:
        print("RuntimeError", "leaf" in str(e))
with torch.no_grad():
    w.add_(1)
    w[1] = 10.0
print(w, w.is_leaf, w.grad_fn)
