# hooks on graph nodes: register_prehook changes the incoming gradient, register_hook sees both
import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = x * 2
z = y.exp().sum()
node = y.grad_fn
print(node.name(), [type(f[0]).__name__ for f in node.next_functions])
log = []


def pre(grad_outputs):
    log.append(("pre", [g.tolist() for g in grad_outputs]))
    return (grad_outputs[0] * 0 + 1,)


def post(grad_inputs, grad_outputs):
    log.append(("post", [None if g is None else g.tolist() for g in grad_inputs]))


h1 = node.register_prehook(pre)
h2 = node.register_hook(post)
z.backward()
for item in log:
    print(item)
print(x.grad)
h1.remove()
h2.remove()
x.grad = None
(x * 2).exp().sum().backward()
print(x.grad)
acc = x.grad_fn
print(acc)
w = x.view(3)
print(type(w.grad_fn).__name__, type(w.grad_fn.next_functions[0][0]).__name__)
