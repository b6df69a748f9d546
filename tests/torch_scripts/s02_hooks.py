import torch
import torch.nn as nn

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.retain_grad()
print(y.is_leaf, y.retains_grad, x.retains_grad)
h = y.register_hook(lambda g: g * 10)
z = (y ** 2).sum()
z.backward()
print(x.grad, y.grad)
h.remove()
x.grad.zero_()
y = x * 2
y.register_hook(lambda g: print("hook saw", g))
y.sum().backward()
print(x.grad)

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
acts = {}
def get_activation(name):
    def hook(model, input, output):
        acts[name] = output.detach()
    return hook
handle = model[0].register_forward_hook(get_activation('fc1'))
pre = model[2].register_forward_pre_hook(lambda m, inp: print("pre", type(inp).__name__, len(inp), inp[0].shape))
grads = []
bh = model[2].register_full_backward_hook(lambda m, gi, go: grads.append((len(gi), len(go), go[0].shape)))
out = model(torch.randn(5, 3))
print(acts['fc1'].shape, out.shape)
out.sum().backward()
print(grads)
handle.remove(); pre.remove(); bh.remove()
out = model(torch.randn(5, 3))
print(len(acts), len(grads))
for name, p in model.named_parameters():
    p.register_hook(lambda g, name=name: None)
print([n for n, _ in model.named_parameters()])
